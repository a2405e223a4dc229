// The escape pass's regions (`regionsOf`) find each window's line break once, where main read every
// window's characters for one: the same regions on text built to put breaks, escapes and runs
// everywhere a window's ends may fall (test/support/escape-regions-reference.ts). Its decoded windows
// are made a string by TextDecoder: the same text as `fromCharCode` made, odd characters included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactEncoded, redactShapes, regionsOf } from "../src/redact/index.js";
import { ESCAPED_EXAMPLES } from "./support/adversarial.js";
import { regionsReference } from "./support/escape-regions-reference.js";
import { encodedReference } from "./support/escapes-reference.js";
import { trajectories } from "./support/fixtures.js";

const runs = (n: number) => fc.stringMatching(new RegExp(`^[A-Za-z\\d+/=._-]{0,${n}}$`));
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("%41", "\\u0041", "%2F", "\\u002d", "%7e", "%20", "\\\\u0041", "%4", "\n", "\r\n", "\n\n", " ", "\t", '"', "[REDACTED]") },
  { weight: 3, arbitrary: runs(12) },
  { weight: 1, arbitrary: runs(80) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));

describe("the escape pass's regions", () => {
  it("are main's on generated text: breaks, escapes and runs at every distance", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(regionsOf(t)).toEqual(regionsReference(t));
      }),
      { numRuns: 2000 },
    );
  });

  it("are main's on long lines and escape-dense ones, repeated past every window's reach", () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 60 }), (p, n) => {
        const t = p.join("").repeat(n);
        expect(regionsOf(t)).toEqual(regionsReference(t));
      }),
      { numRuns: 500 },
    );
  });

  it("are main's on the escaped examples and every fixture transcript", () => {
    const texts = [ESCAPED_EXAMPLES.join("\n"), ...trajectories().map((t) => JSON.stringify(t.messages))];
    for (const t of texts) expect(regionsOf(t)).toEqual(regionsReference(t));
    expect(texts.some((t) => regionsOf(t).length > 0)).toBe(true);
  });
});

describe("the escape pass's decoded windows", () => {
  // (made a string by a fatal TextDecoder, else by `fromCharCode`: an unpaired surrogate, a byte order
  // mark or U+FFFD must come out as the text has it)
  const odd = fc.constantFrom("\uD800", "\uDC00", "\uD83D\uDE00", "\uFEFF", "\uFFFD", "é", "\u2026");
  const withOdd = fc.array(fc.oneof(piece, odd, fc.constantFrom("password=a%41", "token: x\\u0041")), { maxLength: 30 }).map((p) => p.join(""));
  it("are the reference's on text with unpaired surrogates, byte order marks and U+FFFD", () => {
    fc.assert(
      fc.property(withOdd, (t) => {
        expect(redactEncoded(t)).toBe(encodedReference(t, redactShapes));
      }),
      { numRuns: 1000 },
    );
    // (between two masks of one window the decoded text stands in: an odd character there is written)
    const between = fc.tuple(odd, fc.constantFrom("token=ab%41cdefgh12 ", "password=x\\u0041yz9 "), fc.constantFrom("pwd=Q%41zzzz99w", "secret: k%41mmmmm7")).map(([o, a, b]) => a + o + " " + b);
    fc.assert(
      fc.property(between, (t) => {
        expect(redactEncoded(t)).toBe(encodedReference(t, redactShapes));
      }),
    );
    for (const t of ["\uFEFFab%41cdefgh", "token=ab%41cdefgh12 \uD800 pwd=Q%41zzzz99w", "ab%41cdefg\uFFFDhij"]) expect(redactEncoded(t)).toBe(encodedReference(t, redactShapes));
  });
});
