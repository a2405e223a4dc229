// The core's contract edges (issue 18): untrusted state and options, length-limit finish reasons,
// a tail that alone is over the window, orphan-heavy plans, keys named __proto__.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CompactionInputError, compact, estimateTokens, plan, workersAI, type ChatMessage, type CompactorState } from "../src/index.js";
import { convert } from "../src/convert.js";
import { openAIChunk } from "../src/summarizers/openai.js";
import { openAIChat } from "../src/dialects/openai.js";
import { resolveSettings } from "../src/options.js";
import { planViews } from "../src/plan/index.js";
import { shrinkArguments } from "../src/prune/stand-ins.js";
import { redactor as core } from "../src/redact/index.js";
import { windowed } from "../src/redact/window.js";
import { trajectory } from "./support/fixtures.js";
import { transcript } from "./support/arbitraries.js";
import { assistant, call, filler, sys, user } from "./support/build.js";
import { validity } from "./support/validity.js";
import { completed } from "../src/redact/more.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(core);

/** Redaction with its window functions, as pruning receives it. */
const redactor = windowed(core);

const long = [sys(), user("start"), assistant(filler(200)), user(filler(600)), assistant(filler(600)), user(filler(600)), assistant("ok"), user("now this"), assistant("done")];
const base: CompactorState = { version: 1, compactions: 0, strikes: 0, fallbackStreak: 0, cooldowns: {} };
const withState = (state: unknown) => ({ contextWindow: 2000, state: state as CompactorState });

describe("state from an earlier pass is validated, never trusted into arithmetic", () => {
  it.each([
    ["a ratio that is not a number", { calibration: { ratio: "abc", samples: 1 } }, /state\.calibration/],
    ["a negative ratio", { calibration: { ratio: -3, samples: 1 } }, /state\.calibration/],
  ])("%s is dropped with a warning, and counts stay finite and positive", async (_, bad, warning) => {
    const state = { ...base, ...bad };
    const p = plan(long, withState(state));
    expect(p.tokens.perMessage.every((t) => Number.isFinite(t) && t > 0)).toBe(true);
    expect(p.shouldCompact).toBe(true);
    const r = await compact(long, withState(state));
    expect(r.report.mode).not.toBe("noop");
    expect(r.report.warnings.join("\n")).toMatch(warning);
    expect(r.state.calibration).toBeUndefined();
  });

  it("a counter given as a string stays a number", async () => {
    const r = await compact(long, withState({ ...base, compactions: "5" }));
    expect(r.state.compactions).toBe(1);
    expect(r.report.warnings.join("\n")).toMatch(/state\.compactions/);
  });

  it("a cooldown beyond the Date range is dropped, not a RangeError", async () => {
    const state = { ...base, cooldowns: { "summarizer#0": { until: 1e300, kind: "timeout", failures: 1 }, ok: { until: 5, kind: "timeout", failures: 1 } } };
    const r = await compact(long, { ...withState(state), summarizer: async () => "## Active task\n- x", now: () => 0 });
    expect(r.report.mode).toBe("summary");
    expect(r.report.warnings.join("\n")).toMatch(/state\.cooldowns\.summarizer#0/);
    expect(r.state.cooldowns.ok).toEqual({ until: 5, kind: "timeout", failures: 1 });
  });

  it("a state that is not one at all is still a RangeError naming options.state", () => {
    expect(() => plan(long, withState("nope"))).toThrow(/options\.state/);
    expect(() => plan(long, withState({ version: 2 }))).toThrow(/options\.state/);
  });
});

describe("options are checked with clear errors", () => {
  it.each([
    ["dialect named __proto__", { dialect: "__proto__" }, /options\.dialect/],
    ["dialect named toString", { dialect: "toString" }, /options\.dialect/],
    ["protectedTools that is a number", { protectedTools: 5 }, /protectedTools/],
    ["protectedTools with a number in it", { protectedTools: ["Read", 5] }, /protectedTools/],
    ["summarizer list with null", { summarizer: [null] }, /summarizer/],
    ["summarizer that is a string", { summarizer: "gpt" }, /summarizer/],
    ["onEvent that is not a function", { onEvent: 5 }, /onEvent/],
    ["now that is not a function", { now: 5 }, /now/],
    ["focus that is not a string", { focus: 5 }, /focus/],
  ])("%s is a RangeError", async (_, bad, message) => {
    const o = { contextWindow: 2000, force: true, ...bad } as never;
    await expect(compact(long, o)).rejects.toThrow(RangeError);
    await expect(compact(long, o)).rejects.toThrow(message);
  });

  it("dialect names are looked up as own properties only, in the converters too", () => {
    for (const name of ["__proto__", "toString", "constructor", "gemini"]) {
      expect(() => convert(long, { from: name as never, to: "anthropic" }), name).toThrow(/unknown dialect/);
      expect(() => convert(long, { from: "openai", to: name as never }), name).toThrow(RangeError);
    }
  });

  it("countTokens must answer finite non-negative numbers", () => {
    for (const answer of ["3", -1, Number.NaN, Infinity]) {
      expect(() => plan(long, { contextWindow: 2000, countTokens: () => answer as number })).toThrow(/countTokens must return/);
    }
    expect(plan(long, { contextWindow: 2000, countTokens: (t) => t.length }).tokens.total).toBeGreaterThan(0);
  });

  it("cyclic, BigInt and very deep unknown content parts are estimated, not thrown on", async () => {
    const cyclic: Record<string, unknown> = { type: "mystery" };
    cyclic.self = cyclic;
    let deep: unknown[] = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const part of [cyclic, { type: "mystery", n: 10n }, { type: "mystery", deep }]) {
      const input = [...long.slice(0, 3), { role: "user", content: [part] }, ...long.slice(3)] as ChatMessage[];
      expect(plan(input, { contextWindow: 2000 }).tokens.total).toBeGreaterThan(0);
      expect((await compact(input, { contextWindow: 2000 })).report.mode).not.toBe("noop");
      expect(estimateTokens(input)).toBeGreaterThan(0);
    }
  });
});

describe("finish reasons that mean the length limit are truncations", () => {
  it.each(["length", "max_tokens", "model_length", "MAX_TOKENS", "max_output_tokens", "context_length_exceeded", "token_limit"])("%s", (reason) => {
    expect(() => openAIChunk({ choices: [{ index: 0, delta: { content: "x" }, finish_reason: reason }] }, { finished: false })).toThrow(
      expect.objectContaining({ kind: "truncated" }),
    );
  });

  it.each(["stop", "eos", "eos_token", "tool_calls", "end_turn"])("%s is a whole answer", (reason) => {
    const state = { finished: false };
    openAIChunk({ choices: [{ index: 0, delta: {}, finish_reason: reason }] }, state);
    expect(state.finished).toBe(true);
  });

  it("a Workers AI stream that ends with model_length falls back instead of being the summary", async () => {
    const sse = 'data: {"choices":[{"index":0,"delta":{"content":"## Active task\\n- half"}}]}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"model_length"}]}\n\ndata: [DONE]\n\n';
    const s = workersAI({ run: async () => new Response(sse).body! }, "@cf/test");
    const r = await compact(long, { contextWindow: 2000, summarizer: s });
    expect(r.report.mode).toBe("fallback");
    expect(r.report.failures[0]).toMatchObject({ kind: "truncated" });
  });
});

describe("a tail that alone keeps the transcript over the window", () => {
  const write = call("Write", { file_path: "/src/big.ts", content: "x".repeat(400_000) }, "File written.");
  const input = [sys(), user("a task"), assistant("a plan"), user("go on"), assistant("on it"), user("write the file"), ...write, assistant("Written."), user("thanks, now run it"), assistant("Running.")];

  it("has its oversized tool calls shrunk, reported, and the result stays valid", async () => {
    const r = await compact(input, { contextWindow: 32_000, force: true });
    expect(r.report.mode).toBe("prune");
    expect(r.report.tokensAfter).toBeLessThan(plan(input, { contextWindow: 32_000 }).tokens.threshold);
    expect(r.report.partitions.tail.start).toBeLessThanOrEqual(6); // the Write is in the tail
    expect(r.report.pruned.map((p) => p.index)).toContain(6);
    expect(r.report.warnings.join("\n")).toMatch(/tail/);
    expect(validity("openai", r.messages)).toEqual([]);
    const written = r.messages.find((m) => "tool_calls" in m && m.tool_calls);
    const args = JSON.parse((written as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0].function.arguments);
    expect(args.file_path).toBe("/src/big.ts");
    expect(r.messages).toContain(input[9]); // the latest request is never touched
  });

  it("also without force, and never a silent no-op over the window", async () => {
    const r = await compact(input, { contextWindow: 32_000 });
    expect(r.report.mode).toBe("prune");
    expect(r.report.tokensAfter).toBeLessThan(24_000);
  });

  it("never prunes results the model has not read yet (after the last assistant turn) while the request fits the window", async () => {
    const reads = [...call("Read", { file_path: "/src/a.ts" }, "a".repeat(60_000)), ...call("Read", { file_path: "/src/b.ts" }, "b".repeat(60_000))];
    // The two reads answer one turn whose results the model has yet to see.
    const inFlight = [reads[0], reads[2], reads[1], reads[3]].map((m, i) => (i === 0 ? { ...m, tool_calls: [...m.tool_calls!, ...reads[2].tool_calls!] } : m)).filter((_, i) => i !== 1);
    const session = [sys(), user("a task"), assistant("a plan"), user("read both files"), ...inFlight];
    const r = await compact(session, { contextWindow: 48_000, force: true });
    for (const m of session.slice(-2)) expect(r.messages).toContain(m);
    expect(r.report.warnings.join("\n")).toMatch(/over the threshold of \d+ by \d+ tokens/);
    // Over the window (a provider would refuse the request) they are shrunk instead, reported.
    const over = await compact(session, { contextWindow: 32_000, force: true });
    expect(over.report.pruned.map((p) => [p.index, p.kind])).toEqual([[5, "shrunk"], [6, "shrunk"]]);
    expect(over.report.tokensAfter).toBeLessThanOrEqual(24_000);
  });

  it("keeps the in-flight turn's own calls whole too (a Write the model will read 'written' for)", async () => {
    const older = call("Write", { file_path: "/src/a.ts", content: "a".repeat(36_000) }, "File written.");
    const latest = call("Write", { file_path: "/src/b.ts", content: "b".repeat(36_000) }, "File written.");
    const session = [sys(), user("write both files"), assistant("Writing."), user("go"), ...older, ...latest];
    const r = await compact(session, { contextWindow: 6000, headMessages: 2, force: true });
    expect(r.messages).toContain(latest[0]);
    expect(r.messages).toContain(latest[1]);
  });

  it("says by how much and why when shrinking is not enough", async () => {
    const huge = [sys(), user(`read this: ${filler(30_000)}`), assistant("ok")];
    const r = await compact(huge, { contextWindow: 8000, force: true });
    expect(r.report.tokensAfter).toBeGreaterThan(6000);
    expect(r.report.warnings.join("\n")).toMatch(/over the threshold of \d+ by \d+ tokens/);
  });
});

describe("plan is linear in orphan tool results after the head", () => {
  it("plans 4,000 orphans with about four times the work of 1,000", () => {
    const orphans = (n: number) => [sys(), user("go"), ...Array.from({ length: n }, (_, i) => ({ role: "tool", tool_call_id: `x${i}`, content: "r" }) as ChatMessage), user("next")];
    // A window so large that the head takes every orphan along.
    // Counted, not timed: how often the planner reads a message view.
    const reads = (n: number) => {
      let count = 0;
      const views = orphans(n).map((m) => new Proxy(openAIChat.view(m), { get: (t, k) => (count++, Reflect.get(t, k)) }));
      planViews(views, resolveSettings({ contextWindow: 10_000_000, headMessages: 1 }), undefined, false);
      return count;
    };
    expect(reads(4000)).toBeLessThan(reads(1000) * 6); // quadratic would be 16 times
  });
});

describe("shrinking tool arguments keeps every key", () => {
  it("a __proto__ key stays an own property", () => {
    const args = `{"__proto__":{"polluted":"${"y".repeat(600)}"},"path":"a"}`;
    const shrunk = JSON.parse(shrinkArguments(args, redactor)!);
    expect(Object.keys(shrunk)).toEqual(["__proto__", "path"]);
    expect(Object.getPrototypeOf(shrunk)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("arbitrary JSON as state and as each option", () => {
  const keys = ["state", "contextWindow", "maxOutputTokens", "threshold", "headMessages", "tailTokens", "protectedTools", "imageTokens", "tools", "focus", "force", "dialect", "system", "summarizer", "countTokens", "onEvent", "now", "runway", "signal"];
  const { messages } = trajectory("swe-agent__gpt4_default__pydicom-1458");

  it("never throws anything but CompactionInputError or RangeError, and a valid transcript stays valid", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys), fc.jsonValue(), fc.boolean(), transcript, async (key, value, real, generated) => {
        const input = real ? (messages as ChatMessage[]) : generated;
        const options = { contextWindow: 3000, force: true, [key]: value } as never;
        try {
          const r = await compact(input, options);
          if (!validity("openai", input).length) expect(validity("openai", r.messages)).toEqual([]);
          expect(Number.isFinite(r.report.tokensAfter)).toBe(true);
          expect(typeof r.state.compactions).toBe("number");
        } catch (e) {
          if (!(e instanceof CompactionInputError || e instanceof RangeError)) throw e;
          expect((e as Error).message).toMatch(/^(context-compactor: |messages)/);
        }
      }),
      { numRuns: 500 },
    );
  });
});
