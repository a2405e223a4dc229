// Issue 30 item 3 in the AI SDK: new tool outputs over maxToolOutputTokens are trimmed when they first
// appear, identically at every later step, so each request extends the one before byte for byte.
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { compactionMiddleware, compactionStep, type AiSdkCompactionEvent, type SavedCompaction } from "../src/ai-sdk/index.js";
import { heuristicTokens, recall, type ModelMessage } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";

const session = trajectory("claude-code-spotter__fa812bfe").messages;
const recorded = session.slice(0, session.findIndex((m, i) => i > 0 && m.role === "user"));
const task = recorded[0].content as string;
const turns = recorded.filter((m) => m.role === "assistant");
const results = new Map(recorded.filter((m) => m.role === "tool").map((m) => [m.tool_call_id!, String(m.content)]));
const tools = Object.fromEntries(
  [...new Set(turns.flatMap((t) => (t.tool_calls ?? []).map((c) => c.function.name)))].map((name) => [
    name,
    tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }), execute: async (_input, { toolCallId }) => results.get(toolCallId) ?? "" }),
  ]),
);
const MAX = 600;
const over = [...results.values()].filter((r) => heuristicTokens(r) > MAX);

function replayModel(prompts: ModelMessage[][]) {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt as ModelMessage[]);
      const turn = turns[prompts.length - 1];
      const calls = (turn.tool_calls ?? []).map((c) => ({ type: "tool-call" as const, toolCallId: c.id, toolName: c.function.name, input: c.function.arguments }));
      return {
        content: [...(turn.content ? [{ type: "text" as const, text: String(turn.content) }] : []), ...calls],
        finishReason: { unified: calls.length ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
        usage: { inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } },
        warnings: [],
      };
    },
  });
}

/** The text of every tool output in a prompt. */
const outputs = (p: ModelMessage[]) =>
  p.flatMap((m) => (m.role === "tool" && Array.isArray(m.content) ? m.content.map((x) => String((x as unknown as { output: { value: unknown } }).output.value)) : []));

describe("maxToolOutputTokens", () => {
  it("the fixture has outputs over the limit", () => expect(over.length).toBeGreaterThan(2));

  it("compactionMiddleware trims new outputs once; every request extends the previous one byte for byte; the store archives the whole", async () => {
    const prompts: ModelMessage[][] = [];
    const events: AiSdkCompactionEvent[] = [];
    const store = new Map<string, SavedCompaction>();
    const middleware = compactionMiddleware({ contextWindow: 1_000_000, store, maxToolOutputTokens: MAX, onEvent: (e) => events.push(e) });
    await generateText({ model: wrapLanguageModel({ model: replayModel(prompts), middleware }), tools, prompt: task, stopWhen: stepCountIs(turns.length) });
    expect(prompts).toHaveLength(turns.length);
    for (let k = 1; k < prompts.length; k++) expect(JSON.stringify(prompts[k]).startsWith(JSON.stringify(prompts[k - 1]).slice(0, -1))).toBe(true);
    const last = outputs(prompts.at(-1)!);
    for (const o of last) expect(heuristicTokens(o)).toBeLessThanOrEqual(MAX);
    const trimmed = events.filter((e) => e.type === "trimmed");
    expect(trimmed.reduce((n, e) => n + e.outputs, 0)).toBe(over.length);
    const archive = store.get("default")!.archive!;
    for (const whole of over) {
      const ref = Object.keys(archive).find((r) => archive[r].results?.[0] === whole)!;
      expect(ref).toBeDefined();
      expect(last.some((o) => o.includes(`archived as ${ref}`))).toBe(true);
      expect(recall(archive, ref, { limit: 1_000_000 })).toContain(whole);
    }
  });

  it("compactionStep: two runs over the same history send byte-identical prompts", async () => {
    const run = async () => {
      const prompts: ModelMessage[][] = [];
      const prepareStep = compactionStep({ contextWindow: 1_000_000, maxToolOutputTokens: MAX });
      await generateText({ model: replayModel(prompts), tools, prompt: task, stopWhen: stepCountIs(turns.length), prepareStep });
      return prompts;
    };
    const [a, b] = [await run(), await run()];
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(outputs(a.at(-1)!).filter((o) => o.includes("[output trimmed #out-"))).toHaveLength(over.length);
  });

  it("rejects a limit that is not a number of tokens", () => {
    expect(() => compactionMiddleware({ contextWindow: 1000, maxToolOutputTokens: -1 })).toThrow(/maxToolOutputTokens/);
  });
});
