// `plan` checks only the state fields a plan reads (src/state.ts planState), so that `import { plan }`
// does not carry a pass's rules for the rest. Property: whatever the state holds, valid or not, plan
// says exactly what it says of the state a pass normalises (normalizeState), and refuses the same.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens, plan, type ChatMessage } from "../src/index.js";
import { normalizeState } from "../src/state.js";

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(" ");
const MESSAGES: ChatMessage[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: `Refactor the parser. ${words(400, "q")}` },
  ...Array.from({ length: 6 }, (_, k): ChatMessage[] => [
    { role: "assistant", content: words(300, `a${k}_`) },
    { role: "user", content: `next ${k}` },
  ]).flat(),
];

/** A value of any field: right, wrong, or of the wrong kind (NaN, strings, arrays, objects). */
const anything = fc.oneof(
  fc.integer({ min: -3, max: 10_000 }),
  fc.double(),
  fc.constantFrom(Number.NaN, 1e16, 0.4, 1.5, 4, "x", null, [], [1, "b"], ["a"], {}),
  fc.record({ ratio: fc.oneof(fc.double({ min: 0, max: 5 }), fc.constant("1")), samples: fc.oneof(fc.nat(), fc.constant(-1)) }),
  fc.record({ at: fc.oneof(fc.integer({ min: -1, max: 14 }), fc.constant(1.5)), reason: fc.oneof(fc.string(), fc.constant(3)), help: fc.oneof(fc.array(fc.string()), fc.constant([1])) }),
  fc.record({ tool: fc.record({ until: fc.oneof(fc.integer(), fc.constant("soon")), kind: fc.string(), failures: fc.nat() }) }),
);
const FIELDS = ["compactions", "strikes", "fallbackStreak", "backoffUntilTokens", "previousSummary", "calibration", "cooldowns", "recentPasses", "pausedUntil", "stalled", "sent", "other"];
const state = fc.record({
  version: fc.oneof(fc.constant(1), fc.constant(1), fc.constant(1), fc.constant(2)),
  ...Object.fromEntries(FIELDS.map((k) => [k, anything])),
}, { requiredKeys: ["version"] });

const outcome = (f: () => unknown) => {
  try {
    return { value: f() };
  } catch (e) {
    return { error: (e as Error).message };
  }
};

describe("plan reads the state as a pass does", () => {
  it("the same plan (and the same error) for any state as for the state a pass normalises", () => {
    fc.assert(
      fc.property(state, fc.integer({ min: 0, max: 2_000_000 }), (given, now) => {
        const options = { contextWindow: 6_000, now: () => now };
        const normalised = outcome(() => normalizeState(given).state);
        const direct = outcome(() => plan(MESSAGES, { ...options, state: given as never }));
        if ("error" in normalised) expect(direct).toEqual(normalised);
        else expect(direct).toEqual(outcome(() => plan(MESSAGES, { ...options, state: normalised.value as never })));
        const estimate = outcome(() => estimateTokens(MESSAGES, { state: given as never }));
        if (!("error" in normalised)) expect(estimate).toEqual(outcome(() => estimateTokens(MESSAGES, { state: normalised.value as never })));
      }),
      { numRuns: 300 },
    );
  });

  it("a stalled state and a paused one still hold the plan back (fields a plan reads are checked and used)", () => {
    const stalled = plan(MESSAGES, { contextWindow: 6_000, state: { version: 1, compactions: 1, strikes: 0, fallbackStreak: 0, cooldowns: {}, stalled: { at: 13, reason: "r", help: ["h"] } } });
    expect(stalled.reason).toMatch(/^stalled: r;/);
    const badStall = plan(MESSAGES, { contextWindow: 6_000, state: { version: 1, compactions: 1, strikes: 0, fallbackStreak: 0, cooldowns: {}, stalled: { at: 13, reason: 3, help: ["h"] } } as never });
    expect(badStall.shouldCompact).toBe(true);
  });
});
