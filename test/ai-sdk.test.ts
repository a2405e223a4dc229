// context-compactor/ai-sdk with the real `ai` package: generateText runs a recorded agent's tool loop
// (a fixture's own calls and results) on the SDK's mock model, through compactionStep and
// compactionMiddleware. What the model receives at every step is checked.
import { generateText, jsonSchema, simulateReadableStream, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage as AiModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { compactionMiddleware, compactionStep, languageModelPrompt, type AiSdkCompactionEvent, type SavedCompaction } from "../src/ai-sdk/index.js";
import { fromOpenAI } from "../src/convert.js";
import { aiSdkMessages, estimateTokens, recall, type Archive, type ModelMessage } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";
import { transcript } from "./support/arbitraries.js";
import { readmeBlocks, runBlock } from "./support/readme.js";
import { aiSdkValidity } from "./support/validity.js";

const WINDOW = 16_000;
const THRESHOLD = Math.floor(WINDOW * 0.75);
// The first task of a recorded session: 42 steps, ~34k tokens, the largest step ~5.7k.
const session = trajectory("claude-code-spotter__fa812bfe").messages;
const recorded = session.slice(0, session.findIndex((m, i) => i > 0 && m.role === "user"));
const task = recorded[0].content as string;
const turns = recorded.filter((m) => m.role === "assistant");
const results = new Map(recorded.filter((m) => m.role === "tool").map((m) => [m.tool_call_id!, String(m.content)]));
// Every tool the agent used, answering with the result it really got.
const tools = Object.fromEntries(
  [...new Set(turns.flatMap((t) => (t.tool_calls ?? []).map((c) => c.function.name)))].map((name) => [
    name,
    tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }), execute: async (_input, { toolCallId }) => results.get(toolCallId) ?? "" }),
  ]),
);

const tokensOf = (prompt: ModelMessage[]) => estimateTokens(prompt, { dialect: languageModelPrompt });
/** The mock provider counts 20 % more than the estimate: calibration should learn it. */
const PROVIDER_RATIO = 1.2;
const providerTokens = (prompt: ModelMessage[]) => Math.round(tokensOf(prompt) * PROVIDER_RATIO);
const usage = (input: number) => ({ inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } });

/** The recorded assistant turns, one per step; each prompt the model receives is kept. */
function replayModel(prompts: ModelMessage[][]) {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt as ModelMessage[]);
      const turn = turns[prompts.length - 1];
      const calls = (turn.tool_calls ?? []).map((c) => ({ type: "tool-call" as const, toolCallId: c.id, toolName: c.function.name, input: c.function.arguments }));
      return {
        content: [...(turn.content ? [{ type: "text" as const, text: String(turn.content) }] : []), ...calls],
        finishReason: { unified: calls.length ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
        usage: usage(providerTokens(prompt as ModelMessage[])),
        warnings: [],
      };
    },
  });
}

/** Whether `next` begins with every message of `prev`, unchanged: the provider's prompt cache holds. */
const extends_ = (next: ModelMessage[], prev: ModelMessage[]) => next.length > prev.length && JSON.stringify(next.slice(0, prev.length)) === JSON.stringify(prev);

/** What must hold of every prompt a model received. */
function checkPrompts(prompts: ModelMessage[][]) {
  expect(prompts).toHaveLength(turns.length);
  for (const [step, prompt] of prompts.entries()) {
    // Under the window as the provider counts it.
    expect(providerTokens(prompt), `step ${step}`).toBeLessThan(WINDOW);
    expect(aiSdkValidity(prompt), `step ${step}`).toEqual([]);
    // The task, the latest real user message, is kept verbatim at every step.
    const users = prompt.filter((m) => m.role === "user").map((m) => m.content);
    expect(users, `step ${step}`).toContainEqual([{ type: "text", text: task }]);
    // The provider-level prompt: user and assistant content is always an array of parts.
    for (const m of prompt) if (m.role !== "system") expect(Array.isArray(m.content), `step ${step}`).toBe(true);
  }
}

/** Steps whose prompt does not extend the previous one: where a compaction pass replaced the base. */
const rewrites = (prompts: ModelMessage[][]) => prompts.flatMap((p, i) => (i > 0 && !extends_(p, prompts[i - 1]) ? [i] : []));

describe("compactionStep (prepareStep) with the real generateText", () => {
  it("keeps a tool loop that outgrows the window under it, compacting once per threshold crossing", async () => {
    // The loop uncompacted really outgrows the window.
    const full = await generateText({ model: replayModel([]), tools, prompt: task, stopWhen: stepCountIs(turns.length) });
    const uncompacted = [{ role: "user", content: task }, ...full.response.messages] as ModelMessage[];
    expect(estimateTokens(uncompacted, { dialect: aiSdkMessages })).toBeGreaterThan(2 * WINDOW);

    const prompts: ModelMessage[][] = [];
    const events: AiSdkCompactionEvent[] = [];
    const store = new Map<string, SavedCompaction>();
    const result = await generateText({
      model: replayModel(prompts),
      tools,
      prompt: task,
      stopWhen: stepCountIs(turns.length),
      prepareStep: compactionStep({ contextWindow: WINDOW, store, onEvent: (e) => events.push(e) }),
    });
    expect(result.steps).toHaveLength(turns.length);
    checkPrompts(prompts);

    const applied = events.filter((e) => e.type === "applied");
    const passes = rewrites(prompts);
    // More than one crossing, each compacted once: every other step extends the prompt before it.
    expect(applied.length).toBeGreaterThanOrEqual(2);
    expect(passes).toHaveLength(applied.length);
    expect(applied.length).toBeLessThan(turns.length / 3);
    // A pass happens when, and only when, the transcript crossed the threshold (give or take the
    // calibration still learning the provider's count).
    prompts.forEach((prompt, step) => {
      if (!passes.includes(step)) expect(providerTokens(prompt), `step ${step}`).toBeLessThan(THRESHOLD * 1.05);
      else expect(providerTokens([...prompts[step - 1], ...prompt.slice(-2)]), `step ${step}`).toBeGreaterThan(THRESHOLD * 0.9);
    });
    // Every call kept its result: the last prompt answers every call it holds.
    const calls = prompts.at(-1)!.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === "tool-call") : []));
    expect(calls.length).toBeGreaterThan(0);

    // Usage calibrated the saved state (the provider counted 20 % more).
    const saved = store.get("default")!;
    expect(saved.state.calibration!.samples).toBeGreaterThan(0);
    expect(saved.state.calibration!.ratio).toBeGreaterThan(1.1);
    expect(saved.state.compactions).toBe(applied.length);
  });

  it("resumes from its store in a later run: the saved base replaces the prefix it stands for", async () => {
    const store = new Map<string, SavedCompaction>();
    const first: ModelMessage[][] = [];
    const run1 = await generateText({ model: replayModel(first), tools, prompt: task, stopWhen: stepCountIs(turns.length), prepareStep: compactionStep({ contextWindow: WINDOW, store }) });
    const passesBefore = store.get("default")!.state.compactions;

    // A new process: a fresh compactionStep, the same store, the whole history plus a follow-up.
    const history = [{ role: "user", content: task }, ...run1.response.messages, { role: "user", content: "Thanks. Summarize the CSS classes in one line." }] as AiModelMessage[];
    const second: ModelMessage[][] = [];
    const events: AiSdkCompactionEvent[] = [];
    await generateText({
      model: new MockLanguageModelV3({
        doGenerate: async ({ prompt }) => {
          second.push(prompt as ModelMessage[]);
          return { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: undefined }, usage: usage(100), warnings: [] };
        },
      }),
      messages: history,
      prepareStep: compactionStep({ contextWindow: WINDOW, store, onEvent: (e) => events.push(e) }),
    });
    const sent = second[0];
    expect(tokensOf(sent)).toBeLessThan(WINDOW);
    expect(aiSdkValidity(sent)).toEqual([]);
    expect(sent.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "Thanks. Summarize the CSS classes in one line." }] });
    // Under the threshold once the saved base stands in: no new pass, and the prompt is run 1's
    // last one (the provider's cache holds), its last step's answer, and the follow-up.
    expect(events.filter((e) => e.type === "applied")).toEqual([]);
    expect(store.get("default")!.state.compactions).toBe(passesBefore);
    expect(sent.length).toBeLessThan(history.length);
    expect(JSON.stringify(sent.slice(0, first.at(-1)!.length))).toBe(JSON.stringify(first.at(-1)));
  });
});

describe("compactionStep with a store", () => {
  it("names the key and the field of a store entry that is not a saved compaction", async () => {
    const store = new Map<string, SavedCompaction>([["chat-1", { state: { version: 1 }, base: "oops", replaced: 0, fingerprint: "x" } as never]]);
    const step = compactionStep({ contextWindow: WINDOW, store, sessionId: "chat-1" });
    await expect(step({ steps: [], stepNumber: 0, messages: [{ role: "user", content: "hi" }] })).rejects.toThrow('store entry "chat-1" is not a saved compaction: "base" is not an array of messages');
  });

  it("takes a transcript that does not start with the saved prefix as it is", async () => {
    const store = new Map<string, SavedCompaction>();
    // As long as the saved prefix, but another conversation: its fingerprint differs.
    const messages: AiModelMessage[] = Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i}` }) as AiModelMessage);
    store.set("default", { state: { version: 1, compactions: 1, strikes: 0, fallbackStreak: 0, cooldowns: {} }, base: [{ role: "user", content: "summary" }], replaced: 5, fingerprint: "not these" });
    const { messages: sent } = await compactionStep({ contextWindow: WINDOW, store })({ steps: [], stepNumber: 0, messages });
    expect(sent).toBe(messages);
  });
});

/** References the messages cite: `[output pruned #4.6]` stand-ins and the handoff's `#12` / `#1.45`. */
const citedRefs = (prompt: unknown[]) => [...new Set([...JSON.stringify(prompt).matchAll(/#\d+(?:\.\d+)?\b/g)].map((m) => m[0]))];

describe("the archive through the AI SDK integration (recall works with compactionStep and compactionMiddleware)", () => {
  it("each applied event carries its pass's archive, the store keeps them merged, and every reference a prompt cites resolves", async () => {
    const prompts: ModelMessage[][] = [];
    const events: AiSdkCompactionEvent[] = [];
    const store = new Map<string, SavedCompaction>();
    await generateText({ model: replayModel(prompts), tools, prompt: task, stopWhen: stepCountIs(turns.length), prepareStep: compactionStep({ contextWindow: WINDOW, store, onEvent: (e) => events.push(e) }) });
    const applied = events.filter((e) => e.type === "applied");
    expect(applied.length).toBeGreaterThanOrEqual(2);
    const collected: Archive = {};
    for (const e of applied) {
      expect(Object.keys(e.archive ?? {}).length, "a pass archives what it removed").toBeGreaterThan(0);
      Object.assign(collected, e.archive);
    }
    const saved = store.get("default")!;
    expect(Object.keys(saved.archive!)).toEqual(Object.keys(collected));
    // what the store keeps is plain JSON, and recall reads every reference any prompt cited from it
    const stored: Archive = JSON.parse(JSON.stringify(saved.archive));
    const refs = [...new Set(prompts.flatMap(citedRefs))];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(recall(stored, ref), ref).toMatch(new RegExp(`^${ref} `));
  });

  it("the middleware's applied events carry the archive too", async () => {
    const events: AiSdkCompactionEvent[] = [];
    const model = wrapLanguageModel({ model: replayModel([]), middleware: compactionMiddleware({ contextWindow: WINDOW, onEvent: (e) => events.push(e) }) });
    await generateText({ model, tools, prompt: task, stopWhen: stepCountIs(turns.length) });
    const applied = events.filter((e) => e.type === "applied");
    expect(applied.length).toBeGreaterThan(0);
    for (const e of applied) expect(Object.keys(e.archive ?? {}).length).toBeGreaterThan(0);
  });

  it("over archiveLimit the store evicts its oldest entries and the pass's report says which", async () => {
    const events: AiSdkCompactionEvent[] = [];
    const store = new Map<string, SavedCompaction>();
    const limit = 30_000;
    await generateText({ model: replayModel([]), tools, prompt: task, stopWhen: stepCountIs(turns.length), prepareStep: compactionStep({ contextWindow: WINDOW, store, archiveLimit: limit, onEvent: (e) => events.push(e) }) });
    const saved = store.get("default")!;
    expect(JSON.stringify(saved.archive).length).toBeLessThanOrEqual(limit);
    const warnings = events.flatMap((e) => (e.type === "applied" ? e.report.warnings : [])).filter((w) => w.includes("evicted from the store"));
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatch(/^archive: \d+ oldest stored entries \(#[\d.]+–#[\d.]+\) evicted from the store over archiveLimit 30000$/);
    // the evicted references are gone, the rest resolve
    const [, from] = /\((#[\d.]+)–/.exec(warnings[0])!;
    expect(saved.archive![from]).toBeUndefined();
  });

  it("rejects a stored archive that is not one, naming the key", async () => {
    const store = new Map<string, SavedCompaction>([["c", { state: { version: 1 }, base: [], replaced: 0, fingerprint: "x", archive: [] } as never]]);
    await expect(compactionStep({ contextWindow: WINDOW, store, sessionId: "c" })({ steps: [], stepNumber: 0, messages: [{ role: "user", content: "hi" }] })).rejects.toThrow('store entry "c" is not a saved compaction: "archive" is not an archive');
  });
});

describe("compactionStep on odd transcripts (property)", () => {
  it("never throws, keeps every step valid, and changes what was sent before only in a pass", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, fc.integer({ min: 800, max: 8000 }), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 12 }), async (chat, contextWindow, growth) => {
        const messages = fromOpenAI(chat, "ai-sdk").messages as AiModelMessage[];
        const events: AiSdkCompactionEvent[] = [];
        const step = compactionStep({ contextWindow, onEvent: (e) => events.push(e) });
        let previous: ModelMessage[] | undefined;
        let end = 0;
        for (const [stepNumber, n] of growth.entries()) {
          end = Math.min(messages.length, end + n);
          const passes = events.length;
          const input = messages.slice(0, end);
          const { messages: sent } = await step({ steps: [], stepNumber, messages: input });
          const pass = events.slice(passes).some((e) => e.type === "applied");
          // Valid whenever the input was, and after every pass (which pairs every call with a result).
          if (pass || aiSdkValidity(input as ModelMessage[]).length === 0) expect(aiSdkValidity(sent as ModelMessage[])).toEqual([]);
          // Between passes, each step's messages begin with the previous step's, unchanged.
          if (previous && !pass) expect(JSON.stringify(sent.slice(0, previous.length))).toBe(JSON.stringify(previous));
          previous = sent as ModelMessage[];
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("compactionMiddleware with the real generateText and wrapLanguageModel", () => {
  it("compacts the provider-level prompt before each call, once per threshold crossing", async () => {
    const prompts: ModelMessage[][] = [];
    const events: AiSdkCompactionEvent[] = [];
    const store = new Map<string, SavedCompaction>();
    const model = wrapLanguageModel({ model: replayModel(prompts), middleware: compactionMiddleware({ contextWindow: WINDOW, store, onEvent: (e) => events.push(e) }) });
    await generateText({ model, tools, system: "You explore code bases.", prompt: task, stopWhen: stepCountIs(turns.length) });
    checkPrompts(prompts);
    for (const p of prompts) expect(p[0]).toMatchObject({ role: "system" });
    const applied = events.filter((e) => e.type === "applied");
    expect(applied.length).toBeGreaterThanOrEqual(2);
    expect(rewrites(prompts)).toHaveLength(applied.length);
    expect(store.get("default")!.state.calibration!.samples).toBeGreaterThan(0);
  });

  it("with streamText, compacts before the call and calibrates from the stream's finish part", async () => {
    const prompts: ModelMessage[][] = [];
    const store = new Map<string, SavedCompaction>();
    const messages = fromOpenAI(session, "ai-sdk").messages as AiModelMessage[];
    const model = new MockLanguageModelV3({
      doStream: async ({ prompt }) => {
        prompts.push(prompt as ModelMessage[]);
        const parts = [
          { type: "stream-start" as const, warnings: [] },
          { type: "text-start" as const, id: "t" },
          { type: "text-delta" as const, id: "t", delta: "Done." },
          { type: "text-end" as const, id: "t" },
          { type: "finish" as const, usage: usage(providerTokens(prompt as ModelMessage[])), finishReason: { unified: "stop" as const, raw: undefined } },
        ];
        return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: null, initialDelayInMs: null }) };
      },
    });
    const result = streamText({ model: wrapLanguageModel({ model, middleware: compactionMiddleware({ contextWindow: 60_000, store }) }), messages });
    expect(await result.text).toBe("Done.");
    expect(tokensOf(messages as ModelMessage[])).toBeGreaterThan(60_000);
    expect(tokensOf(prompts[0])).toBeLessThan(60_000 * 0.75);
    expect(aiSdkValidity(prompts[0])).toEqual([]);
    expect(store.get("default")!.state.calibration?.samples).toBe(1);
  });

  it("leaves a prompt under the threshold untouched (same objects)", async () => {
    const middleware = compactionMiddleware({ contextWindow: WINDOW });
    const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];
    const params = await middleware.transformParams!({ type: "generate", params: { prompt }, model: new MockLanguageModelV3() });
    expect(params.prompt).toBe(prompt);
  });

  it("names the message and the problem for a malformed prompt", async () => {
    const middleware = compactionMiddleware({ contextWindow: WINDOW });
    const prompt = [{ role: "user", content: [{ type: "text", text: "hi" }] }, { role: "robot", content: [] }] as never;
    await expect(middleware.transformParams!({ type: "generate", params: { prompt }, model: new MockLanguageModelV3() })).rejects.toThrow(/1.*unknown role "robot"/);
  });
});

describe('README "With the AI SDK", run as written', () => {
  it("compacts two long recorded sessions (~270k tokens) for a 200k model, in the loop and through the middleware", async () => {
    const [block] = readmeBlocks("With the AI SDK");
    const messages = ["claude-code-spotter__4d5611e5-241a", "claude-code-spotter__fa812bfe-b295"].flatMap((name) => fromOpenAI(trajectory(name).messages, "ai-sdk").messages) as ModelMessage[];
    const window = { contextWindow: 200_000, dialect: aiSdkMessages };
    expect(estimateTokens(messages, window)).toBeGreaterThan(200_000);

    const prompts: ModelMessage[][] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt as ModelMessage[]);
        return { content: [{ type: "text", text: "Done." }], finishReason: { unified: "stop", raw: undefined }, usage: usage(providerTokens(prompt as ModelMessage[])), warnings: [] };
      },
    });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await runBlock(block, "ai-sdk", { model, tools: {}, messages });
    expect(log).toHaveBeenCalledWith("Done.");

    expect(prompts).toHaveLength(2); // one loop step, one middleware call
    for (const prompt of prompts) {
      // Compacted well under the window (pruned: old tool outputs shrink, every message keeps its place).
      expect(estimateTokens(prompt, { ...window, dialect: languageModelPrompt })).toBeLessThan(estimateTokens(messages, window) / 2);
      expect(aiSdkValidity(prompt)).toEqual([]);
    }
    expect(prompts[1].at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "Sum up what you did." }] });
  });
});

describe('README "With the AI SDK": the recall tool wired into the loop, run as written', () => {
  it("the model reads back, through recall, a message the pass removed and its prompt cites", async () => {
    const [, block] = readmeBlocks("With the AI SDK");
    const messages = ["claude-code-spotter__4d5611e5-241a", "claude-code-spotter__fa812bfe-b295"].flatMap((name) => fromOpenAI(trajectory(name).messages, "ai-sdk").messages) as ModelMessage[];
    const prompts: ModelMessage[][] = [];
    let asked: string | undefined;
    // The mock model asks for the first pruned output its compacted prompt cites, then answers.
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt as ModelMessage[]);
        const cited = /\[output pruned (#[\d.]+)\]/.exec(JSON.stringify(prompt))?.[1];
        if (!asked && cited) {
          asked = cited;
          return { content: [{ type: "tool-call", toolCallId: "r1", toolName: "recall", input: JSON.stringify({ ref: cited, limit: "500" }) }], finishReason: { unified: "tool-calls", raw: undefined }, usage: usage(100), warnings: [] };
        }
        return { content: [{ type: "text", text: "Done." }], finishReason: { unified: "stop", raw: undefined }, usage: usage(100), warnings: [] };
      },
    });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await runBlock(block, "ai-sdk-recall", { model, tools: {}, messages });
    expect(log).toHaveBeenCalledWith("Done.");
    expect(asked, "the compacted prompt cites a pruned output").toBeDefined();
    // The second step's prompt holds the recall result: the archived message, under its reference.
    const results = prompts[1].flatMap((m) => (m.role === "tool" && Array.isArray(m.content) ? m.content : [])) as { type: string; toolCallId: string; output: { type: string; value: string } }[];
    const output = results.find((p) => p.type === "tool-result" && p.toolCallId === "r1")!.output;
    expect(output.type).toBe("text");
    expect(output.value.slice(0, 60)).toMatch(new RegExp(`^${asked} tool\\n← result`));
    expect(output.value).toMatch(/\[characters 0–500 of \d+; call again with offset 500 for the rest\]$/);
  });
});
