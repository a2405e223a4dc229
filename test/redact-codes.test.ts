// The run finders of src/redact/shapes.ts read a text's char codes as bytes (`codesOf`: each UTF-16 unit
// its code below 128, 128 past ASCII, then a 0). Since round 11 the bytes past ASCII are read by tables
// without a branch (V8 threw away the finders' optimized code at a fresh process's first text past ASCII);
// they must read as the former loop (test/support/redact-oracle.ts) read them, text after text: the buffer
// is kept, grown for a long text and let go after it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codesOf } from "../src/redact/shapes.js";
import { formerCodes } from "./support/redact-oracle.js";
import { trajectories } from "./support/fixtures.js";

const codes = (text: string) => [...codesOf(text).subarray(0, text.length + 1)];
/** Units of every UTF-8 length: ASCII, two bytes, three, a surrogate pair (four), and lone surrogates (U+FFFD's three). */
const unit = fc.constantFrom("a", "Z", "0", "=", " ", "\n", "\0", "\x7f", "\x80", "é", "ÿ", "Ω", "—", "…", "中", "\uffff", "🙂", "\u{10ffff}", "\ud800", "\udfff");
const text = fc.oneof(
  fc.array(unit, { maxLength: 60 }).map((u) => u.join("")),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.tuple(fc.array(unit, { maxLength: 8 }), fc.nat(3000)).map(([u, n]) => u.join("").repeat(Math.ceil(n / Math.max(1, u.length)))), // long: the buffer grows, then shrinks
);

describe("a text's char codes as the run finders read them", () => {
  it("are read as the former loop read them, text after text (property)", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (texts) => {
        for (const t of texts) expect(codes(t)).toEqual(formerCodes(t));
      }),
      { numRuns: 2000 },
    );
  });

  it("are read alike on every string of the fixtures", () => {
    const strings = trajectories().flatMap((t) => t.messages.map((m) => JSON.stringify(m)));
    expect(strings.some((s) => /[^\0-\x7f]/.test(s))).toBe(true);
    for (const s of strings) expect(codes(s)).toEqual(formerCodes(s));
  });
});
