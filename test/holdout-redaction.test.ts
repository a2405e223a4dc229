// Redaction on the blind holdout corpus (test/fixtures/secrets-holdout) may not fall below the levels
// reached when its rules were last changed (issue 17). Aggregate counts only, per split: the check
// split is never tuned on, so no line of it is printed here, even when a number falls.
import { describe, expect, it } from "vitest";
import { TARGET, measureHoldout } from "../bench/holdout.js";

/** Reached on both splits: positives caught (at least) and negatives changed (at most). */
const REACHED = {
  dev: { caught: 166, positives: 166, falsePositives: 0, negatives: 59 },
  check: { caught: 173, positives: 177, falsePositives: 0, negatives: 59 },
};

describe("redaction on the blind holdout corpus", () => {
  const result = measureHoldout();

  it.each(["dev", "check"] as const)("%s split: recall and false positives no worse than reached", (split) => {
    const r = result[split];
    const reached = REACHED[split];
    expect({ positives: r.positives, negatives: r.negatives }).toEqual({ positives: reached.positives, negatives: reached.negatives });
    expect(r.caught, `${split} positives caught`).toBeGreaterThanOrEqual(reached.caught);
    expect(r.falsePositives, `${split} negatives changed`).toBeLessThanOrEqual(reached.falsePositives);
  });

  it.each(["dev", "check"] as const)("%s split meets the users' bar: recall at least 0.92, false positives at most 0.05", (split) => {
    const r = result[split];
    expect(r.caught / r.positives).toBeGreaterThanOrEqual(TARGET.recall);
    expect(r.falsePositives / r.negatives).toBeLessThanOrEqual(TARGET.falsePositiveRate);
  });
});
