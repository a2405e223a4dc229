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
/** What the scan of `prefilters` tells of where the words of the `k`th end in `text`, in order, once each ([-1]: not told). */
function endsOf(prefilters: RegExp[], text: string, k: number): number[] {
  const at: number[] = [];
  (scans.get(prefilters) ?? scans.set(prefilters, triggersOf(prefilters)).get(prefilters)!)(text, undefined, at);
  if (at.length && at.every((e) => e === -1)) return [-1];
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

/** Whether a scan of `prefilters` may leave where words end untold in `text`: a lower case that is longer (İ's), or more than a word of a prefilter in 64 characters. */
function untold(prefilters: RegExp[], text: string): boolean {
  const lower = text.toLowerCase();
  let words = 0;
  for (const w of prefilters.flatMap((p) => wordsOf(p)!)) for (let i = lower.indexOf(w); i >= 0; i = lower.indexOf(w, i + 1)) words++;
  return lower.length !== text.length || words * 2 > text.length >> 5;
}

describe("the trigger scan's word ends", () => {
  const prefilters = reaching.map((s) => s.needs!);
  /** Where the scan tells them, they are where each word of prefilter `k` ends in the text's lower case; else the text is one it need not tell of. */
  const told = (t: string, k: number) => {
    const ends = endsOf(prefilters, t, k);
    if (ends[0] === -1) expect(untold(prefilters, t), JSON.stringify(t.slice(-200))).toBe(true);
    else expect(ends, JSON.stringify(t.slice(-200))).toEqual(wordEnds(prefilters[k], t));
    return ends[0] !== -1;
  };

  it("are where each word of a prefilter ends in the text's lower case, across the chunks it reads and past ASCII (property)", () => {
    let tells = 0;
    fc.assert(
      fc.property(textsOf(reaching), fc.nat(prefilters.length - 1), (t, k) => {
        if (told(t, k)) tells++;
      }),
      { numRuns: 1500 },
    );
    expect(tells).toBeGreaterThan(500); // (the generator reaches texts it tells of)
  });

  it("are told where the text is ASCII, or past it, in chunk after chunk, and not (-1) where a lower case is longer (İ's) or words are dense", () => {
    const pass = PASS;
    const pad = " ".repeat(200);
    expect(endsOf(pass, `a pass, PASS${pad}`, 0)).toEqual([6, 12]);
    expect(endsOf(pass, `é😀 pass \u212a pass${pad}`, 0)).toEqual([8, 15]);
    for (let n = 8185; n < 8195; n++) {
      expect(endsOf(pass, `${"x".repeat(n)}pass é pass`, 0), String(n)).toEqual([n + 4, n + 11]);
      expect(endsOf(pass, `${"é".repeat(n)}PASS x pass`, 0), String(n)).toEqual([n + 4, n + 11]);
    }
    expect(endsOf(pass, `\u0130 pass${pad}`, 0)).toEqual([-1]);
    expect(endsOf(pass, `\u0130${"x".repeat(8191)}pass`, 0)).toEqual([8196]); // (the İ is in the chunk before)
    expect(endsOf(pass, `${"pass ".repeat(100)}${pad}`, 0)).toEqual([-1]); // (a word in 5 characters)
    expect(endsOf(pass, `${"pass".padEnd(80).repeat(100)}`, 0)).toEqual(Array.from({ length: 100 }, (_, i) => i * 80 + 4)); // (one in 80)
    expect(endsOf(pass, "", 0)).toEqual([]);
  });

  it("are where each word ends in every real text the scan tells of, and it tells of the long ones", () => {
    for (const text of REAL) for (let k = 0; k < prefilters.length; k++) told(text, k);
    expect(REAL.filter((t) => t.length > 2000 && endsOf(prefilters, t, 0)[0] !== -1).length).toBeGreaterThan(20);
  });
});

describe("a shape tried only before its words", () => {
  it("is the secret names, session cookies and base64-wrapped credentials", () => {
    expect(reaching.length).toBe(3);
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

  it("leaves the shapes in turn masking what each, read at every start, masks in turn: on every real text, and on texts of each such shape's words and examples (property)", () => {
    // (the former reading: each shape's pattern by its exec at every start, or its own finder, none near the words)
    const former = (t: string) => kit.shapes.reduce((text, shape) => apply(text, shape), t);
    for (const text of REAL) expect(kit.redactShapes(text)).toBe(former(text));
    for (const shapes of [reaching, ...reaching.map((s) => [s])]) {
      let told = 0;
      fc.assert(
        fc.property(textsOf(shapes), (t) => {
          if (endsOf(shapes.map((s) => s.needs!), t, 0)[0] !== -1) told++;
          expect(kit.redactShapes(t), JSON.stringify(t.slice(-200))).toBe(former(t));
        }),
        { numRuns: 500 },
      );
      expect(told).toBeGreaterThan(100); // (the generator reaches texts whose words the scan tells of)
    }
  });
});
