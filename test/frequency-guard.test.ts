// Issue 25: the frequency guard. Passes that each save something (so the back-off never sees them) but
// leave the transcript over its threshold, several in a short span, pause automatic compaction.
import { describe, expect, it } from "vitest";
import { compact, createCompactor, plan, type ChatMessage, type CompactorState } from "../src/index.js";

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(" ");
/** A pinned request too big for the window: every pass summarizes the new turns and stays over. */
const start = (): ChatMessage[] => [{ role: "user", content: `Refactor the parser. ${words(3000, "req")}` }];
const turn = (k: number): ChatMessage[] => [{ role: "assistant", content: words(900, `a${k}_`) }, { role: "user", content: `next ${k}` }];

async function loop(turns: number, clock: (k: number) => number, force = false) {
  let messages = start();
  let state: CompactorState | undefined;
  const modes: string[] = [];
  const warnings: string[] = [];
  for (let k = 0; k < turns; k++) {
    messages = [...messages, ...turn(k)];
    const r = await compact(messages, { contextWindow: 12_000, state, now: () => clock(k), force });
    modes.push(r.report.mode);
    warnings.push(...r.report.warnings);
    state = r.state;
    messages = r.messages;
  }
  return { modes, warnings, state: state!, messages };
}

describe("frequency guard", () => {
  it("three effective passes in a short span that each stay over the threshold pause automatic compaction", async () => {
    const { modes, warnings, state, messages } = await loop(8, (k) => 1_000_000 + k * 5_000);
    const passes = modes.filter((m) => m === "summary").length;
    expect(passes).toBe(3); // on main: a summary every turn
    expect(modes.slice(-3)).toEqual(["noop", "noop", "noop"]);
    expect(warnings.some((w) => /3 passes within 10 minutes each left the transcript over its threshold .* automatic compaction pauses until/.test(w))).toBe(true);
    expect(state.pausedUntil).toBeGreaterThan(1_000_000);
    const p = plan(messages, { contextWindow: 12_000, state, now: () => 1_000_000 + 8 * 5_000 });
    expect(p.shouldCompact).toBe(false);
    expect(p.reason).toMatch(/^paused by the frequency guard until .*; use force to compact now/);
    // The pause ends on time, and force overrides it.
    expect(plan(messages, { contextWindow: 12_000, state, now: () => state.pausedUntil! + 1 }).shouldCompact).toBe(true);
    expect((await compact(messages, { contextWindow: 12_000, state, force: true, now: () => 1_100_000 })).report.mode).toBe("summary");
  });

  it("the same passes spread over more than the span never pause", async () => {
    const { modes, warnings } = await loop(7, (k) => k * 400_000);
    expect(modes.slice(2)).toEqual(["summary", "summary", "summary", "summary", "summary"]); // the first two: nothing between head and tail yet
    expect(warnings.join("\n")).not.toContain("automatic compaction pauses");
  });

  it("passes that get under the threshold are not counted: a long session compacting now and then is never paused", async () => {
    let messages: ChatMessage[] = [{ role: "user", content: "Write the report." }];
    let state: CompactorState | undefined;
    let passes = 0;
    for (let k = 0; k < 40; k++) {
      messages = [...messages, { role: "assistant", content: words(300, `s${k}_`) }, { role: "user", content: `go on ${k}` }];
      const r = await compact(messages, { contextWindow: 6_000, state, now: () => k });
      if (r.report.mode !== "noop") passes++;
      expect(r.report.warnings.join("\n")).not.toContain("automatic compaction pauses");
      state = r.state;
      messages = r.messages;
    }
    expect(passes).toBeGreaterThan(3);
    expect(state!.pausedUntil).toBeUndefined();
  });

  it("the state fields are checked: unusable ones are dropped with a warning", async () => {
    const c = createCompactor({ contextWindow: 12_000 });
    const bad = { ...c.state, recentPasses: ["soon"], pausedUntil: Number.NaN } as unknown as CompactorState;
    const r = await compact(start(), { contextWindow: 12_000, state: bad });
    expect(r.report.warnings).toContain("state.recentPasses: must be an array of times in the Date range (dropped)");
    expect(r.report.warnings).toContain("state.pausedUntil: must be a number, not NaN (dropped)");
    expect(r.state.recentPasses).toBeUndefined();
  });
});
