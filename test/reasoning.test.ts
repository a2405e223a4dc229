// Issue 25: reasoning pruned from old turns (AI SDK pruneMessages' reasoning option, ADK thought pruning),
// where the provider's rules allow, reported and archived; never the current turn's or tool loop's.
import { describe, expect, it } from "vitest";
import { aiSdkMessages, anthropicMessages, compact, recall, type AnthropicMessage, type ChatMessage, type ModelMessage } from "../src/index.js";
import { languageModelPrompt } from "../src/ai-sdk/index.js";
import { anthropicValidity, aiSdkValidity, openAIValidity } from "./support/validity.js";

const thought = (k: number) => `Let me think about step ${k}: ${"weighing the options carefully, ".repeat(60)}`;
const opts = { contextWindow: 3000, tailTokens: 300, runway: 0 };

describe("OpenAI-compatible reasoning fields (reasoning_content, reasoning)", () => {
  const input = (): ChatMessage[] => {
    const m: ChatMessage[] = [{ role: "system", content: "You are terse." }, { role: "user", content: "Plan the migration." }];
    for (let k = 0; k < 6; k++) m.push({ role: "assistant", content: `Step ${k} done.`, reasoning_content: thought(k) }, { role: "user", content: `ok ${k}` });
    m.push({ role: "assistant", content: "Last step.", reasoning_content: thought(99) });
    return m;
  };

  it("prunes old turns' reasoning (reported, archived), keeps the latest turn's, and a prune alone can suffice", async () => {
    const messages = input();
    const r = await compact(messages, opts);
    expect(r.report.mode).toBe("prune");
    const reasoning = r.report.pruned.filter((p) => p.kind === "reasoning");
    expect(reasoning.length).toBeGreaterThan(0);
    for (const p of reasoning) {
      expect(p.tokensAfter).toBeLessThan(p.tokensBefore);
      expect(p.index).toBeLessThan(messages.length - 2); // before the latest request
      expect(r.messages[p.index].reasoning_content).toBeUndefined();
      expect(r.messages[p.index].content).toBe(messages[p.index].content);
      const back = recall(r.archive!, String(p.index))!;
      expect(back).toContain(`(reasoning) ${thought((p.index - 2) / 2)}`.slice(0, 200));
    }
    expect(r.messages.at(-1)).toBe(messages.at(-1)); // the latest turn's reasoning stays
    expect(openAIValidity(r.messages)).toEqual([]);
  });
});

describe("Anthropic thinking blocks", () => {
  const signed = (k: number) => ({ type: "thinking", thinking: thought(k), signature: `sig-${k}` });
  const input = (): AnthropicMessage[] => {
    const m: AnthropicMessage[] = [{ role: "user", content: "Refactor the module." }];
    for (let k = 0; k < 6; k++) {
      m.push({ role: "assistant", content: [signed(k), { type: "text", text: `Done ${k}.` }] }, { role: "user", content: `next ${k}` });
    }
    // The current tool loop: its signed thinking must reach the API as it was.
    m.push({ role: "assistant", content: [signed(50), { type: "tool_use", id: "t1", name: "Read", input: { path: "a.ts" } }] });
    m.push({ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "export const a = 1;" }] });
    m.push({ role: "assistant", content: [signed(51), { type: "tool_use", id: "t2", name: "Read", input: { path: "b.ts" } }] });
    m.push({ role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "export const b = 2;" }] });
    return m;
  };

  it("prunes thinking before the latest request only; the tool loop's signed thinking stays byte for byte", async () => {
    const messages = input();
    const r = await compact(messages, { ...opts, dialect: anthropicMessages, headMessages: 1 });
    const reasoning = r.report.pruned.filter((p) => p.kind === "reasoning");
    expect(reasoning.length).toBeGreaterThan(0);
    const latestUser = messages.map((m) => typeof m.content === "string").lastIndexOf(true);
    for (const p of reasoning) expect(p.index).toBeLessThan(latestUser);
    for (const m of messages.slice(latestUser)) expect(r.messages).toContain(m);
    expect(anthropicValidity(r.messages)).toEqual([]);
    expect(recall(r.archive!, String(reasoning[0].index))).toContain("(reasoning) Let me think");
  });
});

describe("AI SDK reasoning parts", () => {
  it("prunes old reasoning parts, keeps the latest turn's", async () => {
    const m: ModelMessage[] = [{ role: "user", content: "Plan it." }];
    for (let k = 0; k < 6; k++) m.push({ role: "assistant", content: [{ type: "reasoning", text: thought(k) }, { type: "text", text: `Step ${k}.` }] }, { role: "user", content: `ok ${k}` });
    m.push({ role: "assistant", content: [{ type: "reasoning", text: thought(9) }, { type: "text", text: "Final." }] });
    const r = await compact(m, { ...opts, dialect: aiSdkMessages });
    expect(r.report.mode).toBe("prune");
    const reasoning = r.report.pruned.filter((p) => p.kind === "reasoning");
    expect(reasoning.length).toBeGreaterThan(0);
    for (const p of reasoning) expect((r.messages[p.index].content as { type: string }[]).some((x) => x.type === "reasoning")).toBe(false);
    expect(r.messages.at(-1)).toBe(m.at(-1));
    expect(aiSdkValidity(r.messages)).toEqual([]);
  });

  it("an assistant turn that held only reasoning keeps a note, never an empty content providers refuse", async () => {
    const m: ModelMessage[] = [{ role: "user", content: "Plan it." }];
    for (let k = 0; k < 6; k++) m.push({ role: "assistant", content: [{ type: "reasoning", text: thought(k) }] }, { role: "user", content: `ok ${k}` });
    m.push({ role: "assistant", content: "Final." });
    const r = await compact(m, { ...opts, dialect: aiSdkMessages });
    const pruned = r.report.pruned.filter((p) => p.kind === "reasoning").map((p) => p.index);
    expect(pruned.length).toBeGreaterThan(0);
    for (const i of pruned) expect(r.messages[i].content).toBe("[reasoning pruned]");
  });
});

describe("the AI SDK provider-level prompt (LanguageModelV3Prompt, what compactionMiddleware sees)", () => {
  it("prunes old reasoning parts; every user and assistant content stays an array of parts", async () => {
    // The V3 prompt: content always parts, reasoning with providerOptions (a signature), and an
    // assistant turn of reasoning and a call only, which leaves no text part behind.
    const reasoning = (k: number) => ({ type: "reasoning", text: thought(k), providerOptions: { anthropic: { signature: `sig-${k}` } } });
    const m = [{ role: "system", content: "You are terse." }, { role: "user", content: [{ type: "text", text: "Plan it." }] }] as ModelMessage[];
    for (let k = 0; k < 5; k++) {
      const text = k === 2 ? [] : [{ type: "text", text: `Step ${k}.` }]; // k = 2: a step that only thought
      m.push({ role: "assistant", content: [reasoning(k), ...text] } as ModelMessage, { role: "user", content: [{ type: "text", text: `ok ${k}` }] });
    }
    m.push({ role: "assistant", content: [reasoning(7), { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a.ts" } }] } as ModelMessage);
    m.push({ role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "export const a = 1;" } }] });
    m.push({ role: "user", content: [{ type: "text", text: "ok, go on" }] });
    m.push({ role: "assistant", content: [reasoning(9), { type: "text", text: "Final." }] } as ModelMessage);
    const r = await compact(m, { ...opts, dialect: languageModelPrompt });
    const pruned = r.report.pruned.filter((p) => p.kind === "reasoning");
    expect(pruned.map((p) => p.index)).toContain(6);
    // Nothing but reasoning: a note keeps the turn (an empty assistant message is refused), as in Anthropic's.
    expect(r.messages[6].content).toEqual([{ type: "text", text: "[reasoning pruned]" }]);
    for (const p of pruned) {
      expect(p.index).toBeLessThan(m.length - 2); // before the latest request
      expect((r.messages[p.index].content as { type: string }[]).some((x) => x.type === "reasoning")).toBe(false);
      expect(recall(r.archive!, String(p.index))).toContain("(reasoning) Let me think");
    }
    for (const msg of r.messages) if (msg.role === "user" || msg.role === "assistant") expect(Array.isArray(msg.content), JSON.stringify(msg)).toBe(true);
    expect(r.messages.at(-1)).toBe(m.at(-1));
    expect(aiSdkValidity(r.messages)).toEqual([]);
  });
});

describe("Claude Code's tool loop: results with a reminder beside them", () => {
  it("a user message of [tool_result, text] does not end the loop: the loop's thinking stays", async () => {
    const signed = (k: number) => ({ type: "thinking", thinking: thought(k), signature: `sig-${k}` });
    const m: AnthropicMessage[] = [{ role: "user", content: "Old request." }];
    for (let k = 0; k < 4; k++) m.push({ role: "assistant", content: [signed(k), { type: "text", text: `Old ${k}.` }] }, { role: "user", content: `old ${k}` });
    m.push({ role: "user", content: "Fix the bug." });
    m.splice(m.length - 2, 1); // keep alternation: the last "old" user turn gives way to the request
    const loopStart = m.length;
    for (let k = 0; k < 4; k++) {
      m.push({ role: "assistant", content: [signed(10 + k), { type: "tool_use", id: `u${k}`, name: "Read", input: { path: `f${k}.ts` } }] });
      m.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `u${k}`, content: "ok" }, { type: "text", text: "<system-reminder>todo list unchanged</system-reminder>" }] });
    }
    const r = await compact(m, { ...opts, dialect: anthropicMessages, headMessages: 1, force: true });
    for (const p of r.report.pruned.filter((x) => x.kind === "reasoning")) expect(p.index).toBeLessThan(loopStart - 1);
    expect(r.report.pruned.some((x) => x.kind === "reasoning")).toBe(true);
    expect(r.report.partitions.middle.end).toBeGreaterThan(loopStart); // part of the loop was in the middle
    for (const msg of m.slice(r.report.partitions.tail.start + 1)) expect(r.messages).toContain(msg);
    expect(anthropicValidity(r.messages)).toEqual([]);
  });
});
