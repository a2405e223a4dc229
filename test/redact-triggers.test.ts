// The trigger scan (src/redact/triggers.ts) skips a shape only where its prefilter fails: every text a
// shape's `needs` holds, generated from the prefilter itself and taken from the fixtures and the
// corpus, triggers the shape, and one it says holds (2) does hold; redaction through the scan is byte
// for byte the catalogue applied shape by shape.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { KUBERNETES_DATA } from "../src/redact/shapes.js";
import { triggersOf, wordsOf } from "../src/redact/triggers.js";
import { SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";
import { trajectories } from "./support/fixtures.js";
import { negatives, positives } from "./support/secrets.js";
import { strings } from "./support/spans.js";
import { shapesBefore, triggersBefore } from "./support/redact-oracle.js";

// the whole catalogue, and one with known values ahead of it (their prefilter is built from them)
const kit = completed(core).streamKit;
const known = completed(core, ["Tr0ub4dor&3", "(start)|end", "hunter2\\x", "é-café-ü", "a.b*c+d?"]).streamKit;
/** Prefilters of the forms a word is read from, and of forms none is: optional characters and groups, escapes, alternatives in groups. */
const FORMS = [/abc?d|ef+g|hi{0,2}j/, /(?:ab)?cd|x(?:yz|w)v/, /ab\.cd|\(?ef|g\|h/, /x?yz|[ab]cd|ee/i, /lo(?:gin|ck)|pa(?:ss)*wd/i, /\d\|\w|:\*:/];
const catalogues = [kit.shapes, known.shapes, [KUBERNETES_DATA], FORMS.map((needs) => ({ pattern: /$^/g, needs }))];

/** Real texts: the fixture transcripts' strings, the corpus lines, the adversarial seeds and examples. */
const REAL = [...trajectories().flatMap((t) => strings(t.messages)), ...positives().map((p) => p.line), ...negatives().map((n) => n.line), ...adversarialSeeds(), ...SHAPE_EXAMPLES];

/** Texts a prefilter holds, generated from it: `\b` dropped for the generator, cases mixed where it ignores case (each kept only where it does hold). */
function matching(needs: RegExp): fc.Arbitrary<string> {
  const plain = fc.stringMatching(new RegExp(needs.source.replace(/\\b/g, "")));
  const cased = needs.ignoreCase ? fc.tuple(plain, fc.infiniteStream(fc.boolean())).map(([s, flips]) => [...s].map((c) => (flips.next().value ? c.toUpperCase() : c)).join("")) : plain;
  return cased.filter((s) => needs.test(s));
}

describe("the trigger scan", () => {
  it("finds a word of each prefilter in every text it holds, generated from it (property)", () => {
    for (const shapes of catalogues) {
      const scan = triggersOf(shapes.map((s) => s.needs));
      shapes.forEach((shape, k) => {
        if (!shape.needs) return;
        fc.assert(
          fc.property(matching(shape.needs), fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), (match, before, after) => {
            expect(scan(before + match + after)[k], `${shape.needs} on ${JSON.stringify(before + match + after)}`).toBeGreaterThan(0);
          }),
          { numRuns: 150 },
        );
      });
    }
  });

  it("finds a word of each prefilter in every real text it holds: fixtures, corpus, adversarial seeds", () => {
    for (const shapes of catalogues) {
      const scan = triggersOf(shapes.map((s) => s.needs));
      for (const text of REAL) {
        const hit = scan(text);
        shapes.forEach((shape, k) => {
          const holds = !shape.needs || shape.needs.test(text);
          if (holds) expect(hit[k], `${shape.needs} on ${JSON.stringify(text.slice(0, 80))}`).toBeGreaterThan(0);
          if (hit[k] === 2) expect(holds, `${shape.needs} said to hold on ${JSON.stringify(text.slice(0, 80))}`).toBe(true);
        });
      }
    }
  });

  it("reads words where prefilters give them, so that it skips most shapes on most texts", () => {
    const worded = kit.shapes.filter((s) => wordsOf(s.needs));
    expect(worded.length).toBeGreaterThan(kit.shapes.length * 0.7);
    // an alternative that starts with a class, an optional character or a character alone gives none
    for (const needs of [/\d\|\w/, /(?:ab)?cd/, /x?yz/, /a|bc/, /[ab]cd/]) expect(wordsOf(needs), String(needs)).toBeUndefined();
    expect(wordsOf(/sqlplus|oracle|:1521/i)).toEqual(["sqlplus", "oracle", ":1521"]);
    // a prefilter that is its words alone, in either case, holds wherever one is: 2
    expect([...triggersOf([/ab|cd/i, /ab|cd/, /ab|c?d/i, /ab\.c/i])("xAB.C")]).toEqual([2, 1, 1, 2]);
    expect(wordsOf(/mongo(?:sh)?|define\(|\.atlas|abc?d|(?:x|y)z/)).toBeUndefined(); // the last starts with a group
    expect(wordsOf(/mongo(?:sh)?|define\(|\.atlas|abc?d|Q~/)).toEqual(["mongo", "define(", ".atlas", "ab", "q~"]);
    const scan = triggersOf(kit.shapes.map((s) => s.needs));
    const prose = scan("The build finished in 3.2 seconds; 118 tests passed.");
    expect(worded.filter((s) => prose[kit.shapes.indexOf(s)]).length).toBeLessThan(5);
  });

  it("redacts as the catalogue applied shape by shape does, with and without a context shape's context (property and real texts)", () => {
    const pieces = [...adversarialSeeds(), ...SHAPE_EXAMPLES, " ", "\n", "=", ":", "sqlplus ", "password ", "[REDACTED] "];
    const text = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), { maxLength: 14 }).map((p) => p.join(""));
    fc.assert(
      fc.property(text, fc.boolean(), (t, about) => {
        expect(kit.redactShapes(t, about)).toBe(shapesBefore(kit.shapes, t, about));
      }),
      { numRuns: 400 },
    );
    for (const t of REAL) expect(kit.redactShapes(t)).toBe(shapesBefore(kit.shapes, t));
  });

  it("tells what the scan that read every list for every word told (test/support/redact-oracle.ts): generated prefilters and texts, the catalogues on real texts", () => {
    // words from few letters, so that one often starts with another; some prefilters ignore case, some give no words
    const word = fc.stringMatching(/^[abc:(][abc]{0,4}$/);
    const prefilter = fc.tuple(fc.array(word, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([w, i]) => new RegExp(w.map((x) => x.replace(/[(]/g, "\\$&")).join("|"), i ? "i" : ""));
    // (the first gives words: a scan with none, an empty pattern, is no catalogue's)
    const prefilters = fc.array(fc.option(prefilter, { nil: undefined }), { maxLength: 8 }).map((l) => [/bc|ab/i, ...l]);
    fc.assert(
      fc.property(prefilters, fc.array(fc.oneof(word, fc.constantFrom(" ", "A", "B(", "\n")), { maxLength: 12 }), (list, pieces) => {
        const text = pieces.join("");
        expect([...triggersOf(list)(text)]).toEqual([...triggersBefore(list)(text)]);
      }),
      { numRuns: 500 },
    );
    for (const shapes of catalogues) {
      const [now, before] = [triggersOf, triggersBefore].map((t) => t(shapes.map((s) => s.needs)));
      for (const text of REAL) expect([...now(text)]).toEqual([...before(text)]);
    }
  });
});
