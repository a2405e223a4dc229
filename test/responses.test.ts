// The OpenAI Responses API dialect: input items compacted by their own rules (calls and outputs paired
// by call_id, reasoning kept with the call it precedes, opaque items whole or archived), on generated
// transcripts and on real trajectories converted to items.
import fc from "fast-check";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { HANDOFF_PREFIX, SYSTEM_NOTE, CompactionInputError, compact, estimateTokens, openAIResponses, plan, recallTool, type CompactOptions, type Dialect, type ResponsesItem } from "../src/index.js";
import { convert, detectDialect, fromOpenAI, toOpenAI } from "../src/convert.js";
import { promptTokensOf } from "../src/state.js";
import { options, transcript } from "./support/arbitraries.js";
import { trajectory } from "./support/fixtures.js";
import { violations } from "./support/invariants.js";
import { itemViolations, toResponses, type Decoration } from "./support/responses.js";
import { responsesValidity } from "./support/validity.js";

async function check(input: ResponsesItem[], opts: Omit<CompactOptions<ResponsesItem>, "dialect">) {
  const o = { ...opts, dialect: openAIResponses };
  const snapshot = JSON.stringify(input);
  const p = plan(input, o);
  const result = await compact(input, o);
  const problems = [...violations({ input, snapshot, plan: p, result, dialect: "openai-responses" }), ...itemViolations(input, result)];
  return { result, plan: p, problems };
}

const decoration: fc.Arbitrary<Decoration> = fc.record({ reasoning: fc.boolean(), custom: fc.boolean(), opaque: fc.boolean(), compaction: fc.boolean() });

describe("openAIResponses over generated transcripts", () => {
  it("keeps every invariant: pairs by call_id, reasoning with its call, opaque items whole or archived", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, decoration, async (chat, opts, d) => {
        const { problems } = await check(toResponses(chat, d), opts);
        expect(problems).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("a pinned request with no user text before a reasoning item: the handoff is never merged into an item (a property-test counterexample)", async () => {
    const body = async (chat: Parameters<typeof toResponses>[0], opts: Parameters<typeof check>[1], d: Decoration) => {
      const { problems } = await check(toResponses(chat, d), opts);
      expect(problems).toEqual([]);
    };
    await fc.assert(fc.asyncProperty(transcript, options, decoration, body), { seed: -621002022, path: "166:0:2:1:7:7:7:7:7:8:8:8:8:8:8:8:9:8:8:9:9:9:10:1:6:6:6", endOnFailure: true });
  });

  it("under the threshold returns the very same array", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, decoration, async (chat, d) => {
        const items = toResponses(chat, d);
        const r = await compact(items, { contextWindow: 10_000_000, dialect: openAIResponses });
        expect(r.messages).toBe(items);
      }),
      { numRuns: 50 },
    );
  });
});

describe.each(["claude-code-spotter__4d5611e5__subagent", "swe-agent__fc_install"])("the real trajectory %s as Responses items", (name) => {
  const chat = trajectory(name).messages;
  const items = toResponses(chat);

  it("converts into valid items, every call answered", () => {
    expect(fromOpenAI(chat, "openai-responses").lost).toEqual([]);
    expect(responsesValidity(items)).toEqual([]);
    expect(detectDialect(items)).toBe("openai-responses");
  });

  it.each([8_000, 16_000, 32_000, 64_000])("compacts at %i tokens by the items' rules", async (contextWindow) => {
    const { result, problems } = await check(items, { contextWindow });
    expect(problems).toEqual([]);
    if (estimateTokens(items, { dialect: openAIResponses }) > contextWindow) expect(result.report.mode).not.toBe("noop");
    if (result.report.mode === "summary" || result.report.mode === "fallback") {
      const handoff = (result.messages as Record<string, unknown>[]).find((m) => typeof m.content === "string" && m.content.startsWith(HANDOFF_PREFIX));
      expect(handoff).toMatchObject({ type: "message", role: "user" });
    }
  });
});

describe("model turns spread over items", () => {
  // Each turn: reasoning, two parallel calls, their two outputs; the outputs big enough that a tail
  // budget ends inside a turn unless the turn is kept whole.
  function session(turns: number): ResponsesItem[] {
    const items: Record<string, unknown>[] = [{ role: "developer", content: "You are a coding agent." }, { role: "user", content: "Fix the failing build." }];
    for (let t = 0; t < turns; t++) {
      items.push({ type: "reasoning", id: `rs_${t}`, summary: [], encrypted_content: `gAAAA${"x".repeat(800)}` });
      items.push({ type: "function_call", call_id: `a_${t}`, name: "shell", arguments: JSON.stringify({ command: ["cat", `src/a${t}.ts`] }) });
      items.push({ type: "function_call", call_id: `b_${t}`, name: "shell", arguments: JSON.stringify({ command: ["cat", `src/b${t}.ts`] }) });
      items.push({ type: "function_call_output", call_id: `a_${t}`, output: `export const a${t} = 1;\n`.repeat(120) });
      items.push({ type: "function_call_output", call_id: `b_${t}`, output: `export const b${t} = 2;\n`.repeat(120) });
    }
    items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: "All files read." }] });
    items.push({ role: "user", content: "Now run the tests." });
    return items as ResponsesItem[];
  }

  it.each([0, 1, 2, 3, 4, 5, 6])("no tail or head boundary falls inside a turn (tail budget shifted by %i items)", async (shift) => {
    const items = session(12);
    const tailTokens = 1_000 + shift * 300;
    for (const headMessages of [2, 3, 4, 5]) {
      const p = plan(items, { contextWindow: 12_000, dialect: openAIResponses, tailTokens, headMessages });
      for (const at of [p.head.end, p.tail.start]) {
        const first = items[at] as Record<string, unknown> | undefined;
        expect(first?.type === "function_call" || first?.type === "function_call_output", `boundary at ${at}: ${String(first?.type)}`).toBe(false);
      }
      const { problems, result } = await check(items, { contextWindow: 12_000, tailTokens, headMessages });
      expect(problems).toEqual([]);
      expect(result.report.sanitized.stubbedCalls).toEqual([]);
      expect(result.report.sanitized.removedOrphanResults).toEqual([]);
    }
  });

  it("parallel calls are one group: both outputs kept, no stub written between the calls", async () => {
    const items = session(3);
    const r = await compact(items, { contextWindow: 2_500, dialect: openAIResponses, force: true });
    expect(r.report.sanitized).toMatchObject({ stubbedCalls: [], removedOrphanResults: [], messagesAdded: 0 });
    expect(responsesValidity(r.messages)).toEqual([]);
  });

  it("a developer message first takes the system note once; a handoff is a user message of its own", async () => {
    const items = session(12);
    const r = await compact(items, { contextWindow: 6_000, dialect: openAIResponses });
    expect(r.report.mode).toBe("summary");
    expect(r.messages[0]).toEqual({ role: "developer", content: `You are a coding agent.\n\n${SYSTEM_NOTE}` });
    expect(JSON.stringify(r.messages).split(SYSTEM_NOTE.slice(0, 40)).length).toBe(2);
    const again = await compact(r.messages, { contextWindow: 6_000, dialect: openAIResponses, force: true, state: r.state });
    expect(JSON.stringify(again.messages).split(SYSTEM_NOTE.slice(0, 40)).length).toBe(2);
  });

  it("a provider compaction item is an earlier handoff: the head stops before it; removed, it is archived whole", async () => {
    const items = session(12);
    items.splice(2, 0, { type: "compaction", id: "cmp_9", encrypted_content: "gAAAAcmp".repeat(500) } as ResponsesItem);
    const p = plan(items, { contextWindow: 6_000, dialect: openAIResponses, headMessages: 5 });
    expect(p.previousHandoffIndex).toBe(2);
    expect(p.head.end).toBeLessThanOrEqual(2);
    const r = await compact(items, { contextWindow: 6_000, dialect: openAIResponses, headMessages: 5 });
    expect(r.messages).not.toContain(items[2]);
    expect(r.archive?.["#2"]).toBeDefined();
    expect(r.messages.filter((m) => (m as { type?: string }).type === "compaction")).toEqual([]);
  });

  it("an opaque item removed is archived with what it said (its image payload left out)", async () => {
    const items = session(12) as Record<string, unknown>[];
    items.splice(3, 0, { type: "mcp_call", id: "mcp_1", server_label: "docs", name: "search", arguments: '{"q":"build"}', output: "mcp result 42" });
    items.splice(4, 0, { type: "image_generation_call", id: "ig_1", status: "completed", result: "iVBORw0KGgo".repeat(5_000) });
    const r = await compact(items as ResponsesItem[], { contextWindow: 6_000, dialect: openAIResponses });
    expect(r.messages).not.toContain(items[3]);
    expect(JSON.stringify(r.archive?.["#3"])).toContain("mcp result 42");
    expect(JSON.stringify(r.archive?.["#4"])).not.toContain("iVBORw0KGgo");
    expect(openAIResponses.view(items[4] as ResponsesItem)).toMatchObject({ images: 1 });
  });

  it("opaque outputs are never pruned, only removed whole", async () => {
    const items = session(6) as Record<string, unknown>[];
    items.splice(4, 0, { type: "local_shell_call", id: "ls_1", call_id: "sh_1", status: "completed", action: { type: "exec", command: ["ls"], env: {} } });
    items.splice(5, 0, { type: "local_shell_call_output", id: "sh_1", output: "file\n".repeat(500) });
    const r = await compact(items as ResponsesItem[], { contextWindow: 6_000, dialect: openAIResponses });
    const kept = r.messages.filter((m) => (m as { type?: string }).type === "local_shell_call_output");
    for (const m of kept) expect(m).toBe(items[5]);
    expect(responsesValidity(r.messages)).toEqual([]);
  });

  it("a call with no call_id pairs by its id; an output with no id at all is opaque, never dropped as an orphan", async () => {
    const items = session(8) as Record<string, unknown>[];
    items.splice(7, 0, { type: "local_shell_call", id: "ls_9", call_id: null, status: "completed", action: { type: "exec", command: ["ls"], env: {} } });
    items.splice(8, 0, { type: "function_call_output", call_id: "ls_9", output: "a\nb" });
    items.splice(9, 0, { type: "shell_call_output", output: [] });
    const views = items.map((m) => openAIResponses.view(m as ResponsesItem));
    expect(views[7].toolCalls.map((c) => c.id)).toEqual(["ls_9"]);
    expect(views[8].results.map((r) => r.id)).toEqual(["ls_9"]);
    expect(views[9].results).toEqual([]);
    for (const contextWindow of [5_000, 8_000, 12_000]) {
      const { problems, result } = await check(items as ResponsesItem[], { contextWindow });
      expect(problems).toEqual([]);
      expect(result.report.sanitized).toMatchObject({ stubbedCalls: [], removedOrphanResults: [] });
    }
  });

  it("a stub answers a custom tool call in its own output type", async () => {
    const items = [
      { role: "user", content: "patch it" },
      { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: "*** Begin Patch" },
      { type: "function_call", call_id: "f1", name: "shell", arguments: "{}" },
      { type: "function_call_output", call_id: "f1", output: "ok" },
      ...Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i} ${"words ".repeat(200)}` })),
    ] as ResponsesItem[];
    const r = await compact(items, { contextWindow: 4_000, dialect: openAIResponses, headMessages: 4 });
    expect(r.messages).toContainEqual({ type: "custom_tool_call_output", call_id: "c1", output: expect.stringContaining("no result") });
    expect(responsesValidity(r.messages)).toEqual([]);
  });
});

describe("validation", () => {
  it.each([
    [[{ role: "user", content: "hi" }, { type: "function_call", call_id: "c", name: "f" }], 1, /arguments/],
    [[{ type: "function_call_output", output: "x" }], 0, /call_id/],
    [[{ role: "user", content: "a" }, { role: "tool", content: "x" }], 1, /unknown role "tool"/],
    [[{ role: "user", content: [{ type: "input_text" }] }], 0, /content\.0: an "input_text" part needs a string "text"/],
    [[{ type: "function_call_output", call_id: "c", output: 7 }], 0, /output must be a string or an array of parts/],
    [[{ content: "x" }], 0, /needs a role/],
    [[{ type: 5 }], 0, /type must be a string/],
  ])("%j: names item %i", (items, index, problem) => {
    let error: unknown;
    try {
      plan(items as never, { contextWindow: 1000, dialect: openAIResponses });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CompactionInputError);
    expect((error as CompactionInputError).index).toBe(index);
    expect((error as Error).message).toMatch(problem);
  });

  it("odd but valid items never throw: item references, unknown types, empty reasoning", () => {
    const items = [{ id: "msg_1" }, { type: "future_item", data: 1 }, { type: "reasoning", summary: [] }, { role: "user", content: [] }] as ResponsesItem[];
    expect(plan(items, { contextWindow: 1000, dialect: openAIResponses }).tokens.total).toBeGreaterThan(0);
  });
});

describe("types and helpers", () => {
  it("the openai SDK's own item type flows in, and out with the dialect typed by it (checked by tsc)", async () => {
    const sdk: ResponseInputItem[] = [
      { role: "user", content: "hi" },
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "ok" },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAA" },
    ];
    const r = await compact(sdk, { contextWindow: 1000, dialect: openAIResponses });
    expect(r.messages).toBe(sdk);
    const typed = await compact(sdk, { contextWindow: 1000, dialect: openAIResponses as Dialect<ResponseInputItem> });
    const next: ResponseInputItem[] = typed.messages;
    expect(next).toBe(sdk);
    // @ts-expect-error Chat Completions tool messages are no Responses items
    expect(() => plan([{ role: "tool", tool_call_id: "x", content: "y" }], { contextWindow: 1000, dialect: openAIResponses })).toThrow(CompactionInputError);
    expect(estimateTokens(sdk, { dialect: openAIResponses })).toBeGreaterThan(0);
    // The usual loop: the last response's output appended to the input, as the SDK types them.
    const output: ResponseOutputItem[] = [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done", annotations: [] }] }];
    expect((await compact([...sdk, ...output], { contextWindow: 1000, dialect: openAIResponses })).report.mode).toBe("noop");
  });

  it("detectDialect tells items from the other formats' messages", () => {
    expect(detectDialect([{ role: "assistant", content: [{ type: "reasoning", text: "hm" }, { type: "text", text: "ok" }] }])).toBe("ai-sdk");
    expect(detectDialect([{ role: "user", content: [{ type: "input_text", text: "hi" }] }])).toBe("openai-responses");
    expect(detectDialect([{ type: "reasoning", summary: [] }])).toBe("openai-responses");
    expect(detectDialect([{ role: "user", content: "hi" }])).toBe("openai");
  });

  it("converts to and from Chat Completions, listing what Chat cannot carry", () => {
    const items = toResponses(trajectory("swe-agent__fc_install").messages);
    const back = toOpenAI(items, "openai-responses");
    expect(back.lost.some((l) => /"reasoning" item has no OpenAI equivalent/.test(l))).toBe(true);
    expect(back.messages.filter((m) => m.role === "tool").length).toBe(items.filter((m) => /_call_output$/.test(String(m.type))).length);
    expect(convert(items, { from: "openai-responses", to: "anthropic" }).messages.length).toBeGreaterThan(0);
  });

  it("Responses usage calibrates: input_tokens (cached tokens are part of it)", () => {
    expect(promptTokensOf({ input_tokens: 1200, input_tokens_details: { cached_tokens: 1000 }, output_tokens: 50, total_tokens: 1250 })).toBe(1200);
  });

  it("the recall tool in the Responses function shape", () => {
    expect(recallTool(openAIResponses)).toMatchObject({ type: "function", name: "recall", parameters: { type: "object" } });
  });
});
