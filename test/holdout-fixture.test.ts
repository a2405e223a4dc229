// The blind holdout corpus (test/fixtures/secrets-holdout) is what its generator writes, and it is
// well formed: every secret sits in its line, every kind lives in one split, both splits are real.
// This checks the corpus only; measuring the redactor on it is `npx tsx bench/holdout.ts`.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeCell, loadHoldout } from "../bench/holdout.js";
import { escapeCell, generate } from "../tools/gen-holdout.mjs";

const dir = new URL("fixtures/secrets-holdout/", import.meta.url);
const { positives, negatives } = loadHoldout();

describe("secrets holdout corpus", () => {
  it("is exactly what tools/gen-holdout.mjs generates (values are seeded, not hand-edited)", () => {
    const g = generate();
    const pos = ["kind\tsplit\tsecret\tline", ...g.positives.map((p) => [p.kind, p.split, p.secret, p.line].map(escapeCell).join("\t"))].join("\n") + "\n";
    const neg = ["kind\tsplit\tline", ...g.negatives.map((n) => [n.kind, n.split, n.line].map(escapeCell).join("\t"))].join("\n") + "\n";
    expect(readFileSync(new URL("positives.tsv", dir), "utf8")).toBe(pos);
    expect(readFileSync(new URL("negatives.tsv", dir), "utf8")).toBe(neg);
  });

  it("decodes cell escapes in one pass, so escaped JSON inside a line survives", () => {
    for (const s of ["a\\u0026b", "x\\\\n\ny", "tab\there", "C:\\\\temp\\new", "\\"]) expect(decodeCell(escapeCell(s))).toBe(s);
  });

  it("puts every secret in its line, long enough that its absence means something", () => {
    for (const p of positives) {
      expect(p.secret.length, p.kind).toBeGreaterThanOrEqual(8);
      expect(p.line.includes(p.secret), `${p.kind}: ${p.secret}`).toBe(true);
    }
  });

  it("keeps each kind whole in one split, with at least 60 kinds and both splits holding about half", () => {
    const splitOf = new Map<string, Set<string>>();
    for (const p of positives) splitOf.set(p.kind, (splitOf.get(p.kind) ?? new Set()).add(p.split));
    expect(splitOf.size).toBeGreaterThanOrEqual(60);
    for (const [kind, splits] of splitOf) expect(splits.size, kind).toBe(1);
    const dev = [...splitOf.values()].filter((s) => s.has("dev")).length;
    expect(Math.abs(dev - (splitOf.size - dev))).toBeLessThanOrEqual(2);
    const devNeg = negatives.filter((n) => n.split === "dev").length;
    expect(Math.abs(devNeg - (negatives.length - devNeg))).toBeLessThanOrEqual(1);
    expect(negatives.length).toBeGreaterThanOrEqual(100);
  });
});
