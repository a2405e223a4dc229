// Issue 30 item 2: messages the caller pins survive every pass verbatim, in order, with their tool pairs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dialects, fromOpenAI } from "../src/convert.js";
import { HANDOFF_END, HANDOFF_PREFIX, compact, plan, type ChatMessage, type CompactOptions, type DialectName } from "../src/index.js";
import { anthropicTranscript, options, transcript } from "./support/arbitraries.js";
import { violations } from "./support/invariants.js";

const DIALECTS: DialectName[] = ["openai", "anthropic", "ai-sdk", "openai-responses"];

describe("pin", () => {
  it.each(DIALECTS)("%s: pinned messages always survive as the same objects, in order, and the output stays valid", async (dialect) => {
    const d = dialects[dialect];
    await fc.assert(
      fc.asyncProperty(transcript, options, fc.array(fc.nat(), { maxLength: 6 }), async (t, opts, picks) => {
        const c = fromOpenAI(t, dialect);
        const input = c.messages as unknown[];
        const chosen = new Set(picks.map((k) => k % Math.max(1, input.length)));
        const seen: number[] = [];
        const o = {
          ...opts,
          dialect: d,
          system: c.system,
          pin: (m: unknown, i: number) => (seen.push(i), input[i] === m && chosen.has(i)),
        } as CompactOptions<unknown>;
        const snapshot = JSON.stringify(input);
        const p = plan(input, o);
        const r = await compact(input, o);
        expect(violations({ input, snapshot, plan: p, result: r, dialect }).join("; ")).toBe("");
        const pinned = p.userPinned ?? [];
        for (const i of chosen) if (i < input.length) expect(pinned).toContain(i);
        if (r.report.mode === "noop" || r.report.mode === "aborted") return;
        expect(r.report.pinned?.indexes).toEqual(pinned);
        // Each pinned message is in the output as the same object, in input order; only the sanitizer's
        // repair of a pairing the input broke (reported) or the system prompt's note may touch one.
        const fixed = new Set([...r.report.sanitized.rewritten, ...r.report.sanitized.removedOrphanResults]);
        let last = -1;
        const wrong: string[] = [];
        for (const i of pinned) {
          if (fixed.has(i)) continue;
          let at = r.messages.indexOf(input[i]);
          if (at < 0 && i === 0 && d.view(input[0]).role === "system") at = 0;
          if (at < 0) wrong.push(`pinned message ${i} is missing`);
          else if (at <= last) wrong.push(`pinned message ${i} moved before an earlier pinned one`);
          last = at;
        }
        expect(wrong, JSON.stringify({ ...p, tokens: undefined, report: r.report, out: r.messages.map((m) => input.indexOf(m)) })).toEqual([]);
        expect(r.report.pruned.filter((x) => pinned.includes(x.index))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("anthropic as Claude Code writes it (system messages inside, cache breakpoints): pins survive, output valid", async () => {
    await fc.assert(
      fc.asyncProperty(anthropicTranscript, options, fc.array(fc.nat(), { maxLength: 6 }), async (input, opts, picks) => {
        const chosen = new Set(picks.map((k) => k % Math.max(1, input.length)));
        const o = { ...opts, dialect: dialects.anthropic, pin: (_m: unknown, i: number) => chosen.has(i) } as CompactOptions<unknown>;
        const snapshot = JSON.stringify(input);
        const p = plan(input, o);
        const r = await compact(input, o);
        expect(violations({ input, snapshot, plan: p, result: r, dialect: "anthropic" }).join("; ")).toBe("");
        if (r.report.mode === "noop" || r.report.mode === "aborted") return;
        const fixed = new Set([...r.report.sanitized.rewritten, ...r.report.sanitized.removedOrphanResults]);
        const at = p.userPinned!.filter((i) => !fixed.has(i)).map((i) => r.messages.indexOf(input[i]));
        expect(at.every((x, k) => x >= 0 && (k === 0 || x > at[k - 1]))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("a tail of system messages alone takes no merged handoff (property counterexample: Anthropic, the newest <env> last; it threw)", async () => {
    const input = [
      { role: "user", content: [{ type: "tool_result", tool_use_id: "orphan_call_1leg", content: "" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "call_1wcv", name: "Bash", input: {} }] },
      { role: "user", content: [] },
      { role: "assistant", content: [{ type: "tool_use", id: "call_1wcy", name: "Bash", input: { command: "" } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_1wcy", content: "duplicate output\n".repeat(20) },
          { type: "text", text: `${HANDOFF_PREFIX}\nolder turns\n\n## Goal\n- \n\n${HANDOFF_END}` },
        ],
      },
      { role: "system", content: [{ type: "text", text: "<env>inserted at 5</env>" }] },
    ];
    const o = { contextWindow: 800, maxOutputTokens: 6, threshold: 0.2, headMessages: 0, dialect: dialects.anthropic, pin: () => false } as CompactOptions<unknown>;
    const snapshot = JSON.stringify(input);
    const p = plan(input, o);
    expect(p.seam).not.toBe("merge");
    const r = await compact(input, o);
    expect(violations({ input, snapshot, plan: p, result: r, dialect: "anthropic" }).join("; ")).toBe("");
  });

  it("keeps a pinned tool call with its results, and a pinned result with its call", async () => {
    const big = "x".repeat(4000);
    const t: ChatMessage[] = [
      { role: "system", content: "agent" },
      { role: "user", content: "start" },
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "Read", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: `the contract ${big}` },
      { role: "assistant", content: "read it" },
      { role: "user", content: `more ${big}` },
      { role: "assistant", content: null, tool_calls: [{ id: "b", type: "function", function: { name: "Bash", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "b", content: `ls ${big}` },
      { role: "assistant", content: `done ${big}` },
      { role: "user", content: "next" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "go on" },
    ];
    const r = await compact(t, { contextWindow: 6000, headMessages: 1, force: true, pin: (_m, i) => i === 3 || i === 6 });
    for (const i of [2, 3, 6, 7]) expect(r.messages).toContain(t[i]);
    expect(r.report.pinned?.indexes).toEqual([2, 3, 6, 7]);
    expect(r.report.pinned?.tokens).toBeGreaterThan(2000);
    expect(r.report.mode).not.toBe("noop");
    const p = plan(t, { contextWindow: 6000, headMessages: 1, force: true, pin: (_m, i) => i === 3 || i === 6 });
    expect(p.pinned).toEqual(expect.arrayContaining([2, 3, 6, 7]));
  });

  it("pinning everything leaves nothing to compact, and the report says the pins hold it", async () => {
    const t: ChatMessage[] = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i} ${"words ".repeat(300)}` }) as ChatMessage);
    const r = await compact(t, { contextWindow: 2000, pin: () => true });
    expect(r.report.mode).toBe("noop");
    expect(r.messages).toBe(t);
    // Either plan sees there is nothing to remove, or the pass says what holds the tokens.
    expect(`${r.report.reason}\n${r.report.warnings.join("\n")}`).toMatch(/nothing can be compacted|pinned messages and fixed tokens alone hold/);
    // Pinning all but the last turns: the pass keeps the pins, and says they are what stays over.
    const most = await compact(t, { contextWindow: 2000, headMessages: 1, tailTokens: 0, force: true, pin: (_m, i) => i > 0 && i < 9 });
    for (let i = 1; i < 9; i++) expect(most.messages).toContain(t[i]);
  });

  it("rejects a pin that is not a function", () => {
    expect(() => plan([], { contextWindow: 1000, pin: true as never })).toThrow(/pin must be a function/);
  });
});
