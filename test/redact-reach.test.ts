// A shape whose every match starts near a word of its prefilter (`reach`) is tried only before the words the
// trigger scan found (round 13), not at every start of the text: the scan tells where each word ends as the
// text's lower case holds it, every match of such a shape holds a word ending that near its start, and
// `apply` near the words, and the shapes in turn over a scanned text, find exactly what the pattern's exec
// finds at every start (the former reading, kept as the oracle: `apply` without the words).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apply, redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import type { Shape } from "../src/redact/shapes.js";
import { triggersOf, wordsOf } from "../src/redact/triggers.js";
import { ESCAPED_EXAMPLES, SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";
import { trajectories } from "./support/fixtures.js";
import { negatives, positives } from "./support/secrets.js";
import { strings } from "./support/spans.js";

const kit = completed(core).streamKit;
const reaching = kit.shapes.filter((s) => s.reach);
const REAL = [...trajectories().flatMap((t) => strings(t.messages)), ...positives().map((p) => p.line), ...negatives().map((n) => n.line), ...adversarialSeeds(), ...SHAPE_EXAMPLES];

/** Where the words of `prefilter` end in `text`, read from its lower case (which must be as long). */
function wordEnds(prefilter: RegExp, text: string): number[] {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) throw new Error("a lower case of another length");
  const ends = new Set<number>();
  for (const w of wordsOf(prefilter)!) for (let i = lower.indexOf(w); i >= 0; i = lower.indexOf(w, i + 1)) ends.add(i + w.length);
  return [...ends].sort((a, b) => a - b);
}

const scans = new Map<RegExp[], ReturnType<typeof triggersOf>>();
/** What the scan of `prefilters` tells of where the words of the `k`th end in `text` (-1: not known), in order, once each. */
function endsOf(prefilters: RegExp[], text: string, k: number): number[] {
  const at: number[] = [];
  (scans.get(prefilters) ?? scans.set(prefilters, triggersOf(prefilters)).get(prefilters)!)(text, undefined, at);
  const ends = new Set<number>();
  for (let i = 0; i < at.length; i += 2) if (at[i] === k) ends.add(at[i + 1]);
  return [...ends].sort((a, b) => a - b);
}

/** A match of each shape at least (the catalogue's examples lack some). */
const MATCHES = [
  "curl -u admin:Zx81fQ2mN7pLk",
  "hdbsql -u SYSTEM -p Zx81fQ2mN7",
  "a3f9c2e7b1d04f6a8e2c9b7d5f1a3c6e-us21",
  "https://hooks.slack.com/services/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",
  "Cookie: sessionid=Zx81fQ2mN7pLk3vT9",
  "Authorization: Basic dXNlcjpQdzl4UTd6TGszdlQ5",
  'DB_ENCRYPTION_KEY="Zx81fQ2mN7pLk"',
];

/** Texts of the shapes' words and examples: whole, cut, in mixed case, with K, İ, é, a surrogate pair and escapes between, near a chunk's end. */
function textsOf(shapes: Shape[]): fc.Arbitrary<string> {
  const words = [...new Set(shapes.flatMap((s) => wordsOf(s.needs) ?? []))];
  const examples = [...SHAPE_EXAMPLES, ...ESCAPED_EXAMPLES, ...MATCHES].filter((e) => shapes.some((s) => apply(e, s) !== e));
  const word = fc.constantFrom(...words);
  const cased = fc.tuple(word, fc.infiniteStream(fc.nat(2))).map(([w, flips]) => [...w].map((c) => (flips.next().value === 1 ? c.toUpperCase() : c === "k" && flips.next().value === 2 ? "\u212a" : c)).join(""));
  const piece = fc.oneof(
    { weight: 3, arbitrary: cased },
    { weight: 2, arbitrary: fc.constantFrom(...examples) },
    { weight: 2, arbitrary: fc.constantFrom("=", ": ", '": "', " ", "\n", "\\n", "_", "-", ".", "/", "?", "&", "'", '"', "é", "😀", "\u212a", "%41", "\\u0041", "Basic ", "session_id=", "cookie: ") },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z\d+/=_-]{4,40}$/) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
  const body = fc.array(piece, { maxLength: 12 }).map((p) => p.join(""));
  return fc.oneof(body, fc.tuple(fc.nat(40), body).map(([n, b]) => `${"x ".repeat(4096).slice(n)}${b}`));
}

const PASS = [/pass/i];

describe("the trigger scan's word ends", () => {
  const prefilters = reaching.map((s) => s.needs!);

  it("are where each word of a prefilter ends in the text's lower case, across the chunks it reads and past ASCII (property)", () => {
    fc.assert(
      fc.property(textsOf(reaching), fc.nat(prefilters.length - 1), (t, k) => {
        expect(endsOf(prefilters, t, k), JSON.stringify(t.slice(-200))).toEqual(wordEnds(prefilters[k], t));
      }),
      { numRuns: 1500 },
    );
  });

  it("are told where the text is ASCII, or past it, in chunk after chunk, and not known (-1) in a chunk whose lower case is longer (İ's)", () => {
    const pass = PASS;
    expect(endsOf(pass, "a pass, PASS", 0)).toEqual([6, 12]);
    expect(endsOf(pass, "é😀 pass \u212a pass", 0)).toEqual([8, 15]);
    for (let n = 8185; n < 8195; n++) {
      expect(endsOf(pass, `${"x".repeat(n)}pass é pass`, 0), String(n)).toEqual([n + 4, n + 11]);
      expect(endsOf(pass, `${"é".repeat(n)}PASS x pass`, 0), String(n)).toEqual([n + 4, n + 11]);
    }
    expect(endsOf(pass, "\u0130 pass", 0)).toEqual([-1]);
    expect(endsOf(pass, `\u0130${"x".repeat(8191)}pass`, 0)).toEqual([8196]); // (the İ is in the chunk before)
    expect(endsOf(pass, "", 0)).toEqual([]);
  });

  it("are where each word ends in every real text", () => {
    for (const text of REAL) if (text.toLowerCase().length === text.length) for (let k = 0; k < prefilters.length; k++) expect(endsOf(prefilters, text, k)).toEqual(wordEnds(prefilters[k], text));
  });
});

describe("a shape tried only before its words", () => {
  it("is the secret names, session cookies, base64-wrapped credentials and webhooks", () => {
    expect(reaching.length).toBe(4);
    expect(reaching.filter((s) => s.find || s.lite)).toEqual([]); // (its own pattern, tried near the words instead of a finder's)
  });

  /** Whether every match of `shape` in `text` holds a word of its prefilter ending within its reach from the match's start. */
  const reached = (shape: Shape, text: string) => {
    const ends = wordEnds(shape.needs!, text);
    const pattern = new RegExp(shape.pattern.source, shape.pattern.flags);
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const at = m.index;
      expect(
        ends.some((e) => e > at && e <= at + shape.reach!),
        `${shape.pattern.source.slice(0, 40)}: ${JSON.stringify(m[0])}`,
      ).toBe(true);
    }
  };

  it("holds a word of its prefilter ending within its reach from each match's start: in every real text and in generated ones (property)", () => {
    for (const text of REAL) if (text.toLowerCase().length === text.length) for (const shape of reaching) reached(shape, text);
    fc.assert(
      fc.property(textsOf(reaching), (t) => {
        if (t.toLowerCase().length === t.length) for (const shape of reaching) reached(shape, t);
      }),
      { numRuns: 1500 },
    );
  });

  it("masks near the words the scan found exactly what its exec at every start masks (property)", () => {
    for (const shape of reaching) {
      const alone = [shape.needs!];
      const words = (t: string) => ((ends) => (ends.includes(-1) ? undefined : ends))(endsOf(alone, t, 0));
      for (const text of REAL) expect(apply(text, shape, false, undefined, words(text))).toBe(apply(text, shape));
      fc.assert(
        fc.property(textsOf([shape]), (t) => {
          expect(apply(t, shape, false, undefined, words(t)), JSON.stringify(t.slice(-200))).toBe(apply(t, shape));
        }),
        { numRuns: 400 },
      );
    }
  });

  it("leaves the shapes in turn masking what each, read at every start, masks in turn (property)", () => {
    const former = (t: string) => kit.shapes.reduce((text, shape) => apply(text, shape), t);
    for (const text of REAL.slice(0, 3000)) expect(kit.redactShapes(text)).toBe(former(text));
    fc.assert(
      fc.property(textsOf(reaching), (t) => {
        expect(kit.redactShapes(t), JSON.stringify(t.slice(-200))).toBe(former(t));
      }),
      { numRuns: 800 },
    );
  });
});
