// Known values (`secrets`) by the hundred: the catalogue a pass completes with them is read by the
// trigger scan's automaton (src/redact/triggers.ts), a table row for each character of its words,
// built again for each pass. The known values' prefilter gives it each form's first 8 characters, not
// the whole value (a thousand 64-character values took ~115 MB more than the former pattern); what
// is masked stays what a prefilter of the whole values masks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { wordsOf } from "../src/redact/triggers.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** `n` values of `length` characters from a seeded xorshift (as an app's keys are). */
function keys(n: number, length: number, seed = 7): string[] {
  let x = seed;
  const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0);
  return Array.from({ length: n }, () => Array.from({ length }, () => ALPHABET[next() % 64]).join(""));
}

describe("known values by the hundred", () => {
  it("give the trigger scan each form's first 8 characters, not the whole value", () => {
    const secrets = keys(300, 64);
    const known = completed(core, secrets).streamKit.shapes[0];
    const words = wordsOf(known.needs)!;
    expect(words.length).toBeGreaterThanOrEqual(300);
    expect(words.length).toBeLessThanOrEqual(300 * 5);
    expect(Math.max(...words.map((w) => w.length))).toBeLessThanOrEqual(8);
  });

  it("mask what a prefilter of the whole values masks, in every form, across the scan's chunks (property)", () => {
    const piece = fc.constantFrom("İ", "ß", "K", "é", "😀", "|", "\\", ".", "(", "*", "?", "$", '"', "'", " ", "-", "=", ":", "%", "+", "/", "pass");
    const secret = fc.array(fc.oneof(piece, fc.stringMatching(/^[A-Za-z0-9]{1,12}$/)), { minLength: 1, maxLength: 8 }).map((a) => a.join("")).filter((s) => s.length >= 4);
    const form = (s: string, k: number) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s), (() => { try { return btoa(s); } catch { return s; } })()][k];
    fc.assert(
      fc.property(fc.array(secret, { minLength: 1, maxLength: 4 }), fc.nat(3), fc.constantFrom(0, 8180, 8190), fc.string({ maxLength: 6 }), (secrets, k, pad, glue) => {
        const now = completed(core, secrets);
        const known = now.streamKit.shapes[0];
        // the former prefilter: the whole values' pattern
        const former = completed(core).streamKit.over([{ ...known, needs: new RegExp(known.pattern.source) }]);
        const text = `${"a".repeat(pad)}${glue}${form(secrets[0], k)}${glue} and ${secrets.join(" ")}`;
        expect(now.redact(text)).toBe(former.redact(text));
      }),
      { numRuns: 150 },
    );
  });
});
