// Whether a value starts in a vendor's token format: `token` asks the vendor tokens' sticky alternation
// at the value's start (the pattern the finder tries where a token may start), where a pattern of its
// own anchored with `^` asked before round 11 (test/support/redact-oracle.ts): a fresh process compiled
// that ~1,650-character alternation twice. Both must decide alike on every value, whatever the finder
// left the sticky pattern's lastIndex at.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";
import { VENDOR, token } from "../src/redact/shapes.js";
import { formerToken } from "./support/redact-oracle.js";
import { trajectories } from "./support/fixtures.js";

/** VENDOR's top-level alternatives. */
function alternatives(source: string): string[] {
  const out: string[] = [];
  let [depth, from, inClass] = [0, 0, false];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && !depth) out.push(source.slice(from, i)), (from = i + 1);
  }
  return [...out, source.slice(from)];
}
/** Strings each alternative matches (its look-arounds and word boundaries left out: the oracle decides), cut short or run on. */
const formats = alternatives(VENDOR).map((alt) => fc.stringMatching(new RegExp(`^(?:${alt.replace(/\\b|\(\?<?[=!][^()]*\)/g, "")})$`)));
const value = fc.oneof(
  fc.tuple(fc.oneof(...formats), fc.nat(3), fc.string({ maxLength: 4 })).map(([t, cut, rest]) => t.slice(0, t.length - cut) + rest),
  fc.tuple(fc.stringMatching(/^[A-Za-z\d]{12,15}$/), fc.stringMatching(/^[\w-]{58,62}$/)).map(([s, b]) => `${s}.atlasv1.${b}`), // the one look-behind
  fc.string({ maxLength: 80 }),
);

describe("a value in a vendor's token format", () => {
  it("is told as the anchored pattern told it, on generated values and after the finder has read a text", () => {
    expect(fc.sample(value, 3000).filter(formerToken).length).toBeGreaterThan(300); // the generator reaches tokens, not only near misses
    fc.assert(
      fc.property(value, fc.string({ maxLength: 200 }), (v, text) => {
        redact(`${text} ghp_${"a1B2c3D4e5".repeat(4)} ${v}`); // the finder leaves the sticky pattern's lastIndex anywhere
        expect(token(v)).toBe(formerToken(v));
      }),
      { numRuns: 3000 },
    );
  });

  it("is told alike for every word of the fixtures", () => {
    const words = new Set(trajectories().flatMap((t) => JSON.stringify(t.messages).split(/[\s"'`,;(){}[\]<>\\]+/)));
    expect(words.size).toBeGreaterThan(1000);
    for (const w of words) expect(token(w), w).toBe(formerToken(w));
  });
});
