// Each dialect's rules as a Standard Schema (valibot): users check their own data by the rules a pass
// reads it with, and get the same problems, at the same paths, as a pass's CompactionInputError.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convert } from "../src/convert.js";
import { CompactionInputError, aiSdkMessages, anthropicMessages, compact, openAIChat, openAIResponses, plan, type ChatMessage, type ResponsesItem } from "../src/index.js";
import { trajectories } from "./support/fixtures.js";
import { toResponses } from "./support/responses.js";

const DIALECTS = { openAIChat, anthropicMessages, aiSdkMessages, openAIResponses };
const chat = trajectories()[0].messages;
/** The real fixture in each format. */
const REAL: Record<keyof typeof DIALECTS, unknown[]> = {
  openAIChat: chat,
  anthropicMessages: convert(chat, { from: "openai", to: "anthropic" }).messages,
  aiSdkMessages: convert(chat, { from: "openai", to: "ai-sdk" }).messages,
  openAIResponses: toResponses(chat),
};

type Issue = { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] };
const keyOf = (p: PropertyKey | { key: PropertyKey }) => (typeof p === "object" ? p.key : p);
/** What a Standard Schema says about a transcript: undefined when valid, else each issue as "index path: message". */
async function standard(name: keyof typeof DIALECTS, input: unknown): Promise<string[] | undefined> {
  const r = await DIALECTS[name].schema["~standard"].validate(input);
  if (!r.issues) return undefined;
  return (r.issues as readonly Issue[]).map((i) => `${(i.path ?? []).map(keyOf).join(".")}: ${i.message}`);
}
/** What a pass says about the same transcript, in the same form. */
function passSays(name: keyof typeof DIALECTS, input: unknown): string[] | undefined {
  try {
    plan(input as never, { contextWindow: 1_000_000, dialect: DIALECTS[name] as never });
    return undefined;
  } catch (e) {
    if (!(e instanceof CompactionInputError)) throw e;
    return e.issues.map((x) => (e.index < 0 ? `: ${x}` : x.includes(": ") ? `${e.index}.${x}` : `${e.index}: ${x}`));
  }
}

describe("dialect.schema is a Standard Schema of the dialect's messages", () => {
  it.each(Object.keys(DIALECTS) as (keyof typeof DIALECTS)[])("%s: version 1 by valibot; the real fixture passes, its value every message with every field", async (name) => {
    const schema = DIALECTS[name].schema["~standard"];
    expect(schema.version).toBe(1);
    expect(schema.vendor).toBe("valibot");
    const r = await schema.validate(REAL[name]);
    expect(r.issues).toBeUndefined();
    expect((r as { value: unknown }).value).toEqual(REAL[name]);
  });

  const bad: [keyof typeof DIALECTS, unknown][] = [
    ["openAIChat", { messages: [] }],
    ["openAIChat", [{ role: "user", content: "ok" }, { role: "bot", content: "x" }]],
    ["openAIChat", [{ role: "assistant", tool_calls: [{ id: "a" }, 7, { id: "b", function: { name: "f", arguments: {} } }] }]],
    ["openAIChat", [{ role: "user", content: [{ type: "text" }, null] }, { role: "tool", content: "x" }]],
    ["anthropicMessages", [{ role: "tool", content: "x" }]],
    ["anthropicMessages", [{ role: "user", content: [{ type: "tool_use" }, { type: "tool_result" }] }]],
    ["aiSdkMessages", [{ role: "system", content: [] }, { role: "tool", content: "x" }]],
    ["aiSdkMessages", [{ role: "assistant", content: [{ type: "tool-call", toolCallId: "a" }] }]],
    ["openAIResponses", [{ type: "function_call", call_id: "c", name: "f" }, { type: 5 }]],
    ["openAIResponses", [{ role: "user", content: [{ type: "input_text" }] }, "item"]],
  ];
  it.each(bad)("%s: %j is refused with the problems a pass names, at the same paths", async (name, input) => {
    const issues = await standard(name, input);
    const pass = passSays(name, input)!;
    expect(pass.length).toBeGreaterThan(0);
    // The pass names the first bad message; the schema every one, the first's issues first.
    expect(issues!.slice(0, pass.length)).toEqual(pass);
  });

  it("a `tool_calls` field on a message that is not the assistant's is no call: the schema and a pass both accept it, and it passes through (was a TypeError, seed 1936009096)", async () => {
    const input = [{ role: "user", tool_calls: [{}], content: "hi" }, { role: "assistant", content: "hello" }];
    expect(await standard("openAIChat", input)).toBeUndefined();
    expect(passSays("openAIChat", input)).toBeUndefined();
    const r = await compact(input as ChatMessage[], { contextWindow: 1_000, force: true });
    expect(r.messages[0]).toBe(input[0]);
  });

  it("any transcript: the schema and a pass agree on whether it is valid (property)", async () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.constantFrom("user", "assistant", "tool", "system", "text", "tool_use", "tool-call", "function_call"));
    const part = fc.dictionary(fc.constantFrom("type", "text", "id", "name", "tool_use_id", "toolCallId", "toolName", "output"), value);
    const message = fc.dictionary(fc.constantFrom("role", "content", "tool_calls", "tool_call_id", "type", "call_id", "name", "arguments", "output", "id"), fc.oneof(value, fc.array(part, { maxLength: 3 })));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...(Object.keys(DIALECTS) as (keyof typeof DIALECTS)[])), fc.array(fc.oneof(message, value), { maxLength: 4 }), async (name, input) => {
        const [issues, pass] = [await standard(name, input), passSays(name, input)];
        expect(issues === undefined).toBe(pass === undefined);
        if (pass) expect(issues!.slice(0, pass.length)).toEqual(pass);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the SDKs' shapes the types accept are read at run time", () => {
  it("OpenAI custom tool calls (type: custom, free-text input) pair with their results and keep their shape when shrunk", async () => {
    const long = `*** Begin Patch\n${"+ a line of the patch\n".repeat(400)}*** End Patch`;
    const messages: ChatMessage[] = [
      { role: "system", content: "You edit files." },
      { role: "user", content: "apply the patch" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "custom", custom: { name: "apply_patch", input: long } } as never] },
      { role: "tool", tool_call_id: "c1", content: "Done!\n".repeat(300) },
      ...Array.from({ length: 12 }, (_, i): ChatMessage => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i} ${"word ".repeat(300)}` })),
    ];
    expect(openAIChat.view(messages[2])).toMatchObject({ toolCalls: [{ id: "c1", name: "apply_patch", arguments: long }] });
    const shrunk = openAIChat.withArguments(messages[2], new Map([[0, "short"]])) as ChatMessage;
    expect(shrunk.tool_calls?.[0]).toEqual({ id: "c1", type: "custom", custom: { name: "apply_patch", input: "short" } });
    const r = await compact(messages, { contextWindow: 4_000, force: true });
    expect(r.report.sanitized.removedOrphanResults).toEqual([]);
    expect(r.report.sanitized.stubbedCalls).toEqual([]);
  });

  it("OpenAI's deprecated function role is refused by name, with what to send instead", () => {
    expect(() => plan([{ role: "function", name: "f", content: "x" }] as never, { contextWindow: 1000 })).toThrow(/deprecated "function" role .* role "tool"/);
  });

  it("Responses stubs for unanswered shell and computer calls are in the SDK's shapes (a list of runs; a screenshot)", async () => {
    const items = [
      { role: "user", content: "list the files" },
      { type: "shell_call", call_id: "s1", action: { commands: ["ls"] }, status: "completed" },
      { type: "computer_call", call_id: "k1", action: { type: "screenshot" }, pending_safety_checks: [], status: "completed" },
      ...Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i} ${"words ".repeat(200)}` })),
    ] as ResponsesItem[];
    const r = await compact(items, { contextWindow: 4_000, dialect: openAIResponses, headMessages: 3 });
    const out = r.messages as Record<string, unknown>[];
    expect(out).toContainEqual({ type: "shell_call_output", call_id: "s1", output: [{ stdout: "", stderr: expect.stringContaining("no result"), outcome: { type: "exit", exit_code: 1 } }] });
    expect(out).toContainEqual({ type: "computer_call_output", call_id: "k1", output: { type: "computer_screenshot" } });
  });
});
