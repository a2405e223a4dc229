// The whole-text scans of the redaction engine, rewritten for speed (issue 29, round 6), tell exactly
// what the plain patterns they replace told: the trigger scan's automaton against the pattern of every
// word over the lower-cased text (test/support/redact-oracle.ts), on texts made of the words, their
// pieces in either case and the characters whose lower case is ASCII, and on the real texts; a
// `context` shape's prefilters read whole against them read where that pattern finds a word.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { KUBERNETES_DATA } from "../src/redact/shapes.js";
import { triggersOf, wordsOf } from "../src/redact/triggers.js";
import { windowsOf } from "../src/redact/window.js";
import { SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";
import { trajectories } from "./support/fixtures.js";
import * as old from "./support/redact-oracle.js";
import { negatives, positives } from "./support/secrets.js";
import { strings } from "./support/spans.js";

const kit = completed(core).streamKit;
const known = completed(core, ["Tr0ub4dor&3", "(start)|end", "hunter2\\x", "é-café-ü", "a.b*c+d?"]).streamKit;
const FORMS = [/abc?d|ef+g|hi{0,2}j/, /ab|abc|bcd|b/i, /ab\.cd|\(?ef|g\|h/, /x?yz|[ab]cd|ee/i, /ki|ik|kik/i, /aa|aaa|a{3}b/];
/** Prefilter lists: the catalogues', window.ts's (`far`, `long`, `context`, each by its `lite` first), and forms with words inside others. */
const lists = [
  kit.shapes.map((s) => s.needs),
  known.shapes.map((s) => s.needs),
  [KUBERNETES_DATA.needs],
  FORMS,
  ...(["far", "long", "context"] as const).map((k) => kit.shapes.filter((s) => s[k]).map((s) => s.lite?.[0] ?? s.needs)),
];
const REAL = [...trajectories().flatMap((t) => strings(t.messages)), ...positives().map((p) => p.line), ...negatives().map((n) => n.line), ...adversarialSeeds(), ...SHAPE_EXAMPLES];

/** Texts of the words of `prefilters`: whole, cut, in mixed case, k and i as K and İ (whose lower cases are ASCII), joined by anything. */
function textsOf(prefilters: (RegExp | undefined)[]): fc.Arbitrary<string> {
  const words = [...new Set(prefilters.flatMap((r) => wordsOf(r) ?? []))];
  const word = fc.constantFrom(...words, "x");
  const cut = fc.tuple(word, fc.nat(), fc.nat()).map(([w, a, b]) => w.slice(Math.min(a, b) % (w.length + 1), Math.max(a, b) % (w.length + 1) || undefined));
  const odder = (c: string, n: number) => (n === 2 && c === "k" ? "\u212a" : n === 2 && c === "i" ? "\u0130" : n ? c.toUpperCase() : c);
  const cased = fc.tuple(fc.oneof(word, cut), fc.infiniteStream(fc.nat(2))).map(([w, flips]) => [...w].map((c) => odder(c, flips.next().value)).join(""));
  const odd = fc.constantFrom("\u212a", "\u0130", "\u0307", "é", "\u00df", "😀", "\ud800", " ", "\n", "_", "-", "\0");
  return fc.array(fc.oneof({ weight: 3, arbitrary: cased }, { weight: 1, arbitrary: odd }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), { maxLength: 12 }).map((p) => p.join(""));
}

describe("the trigger scan's automaton", () => {
  /** The scan of `prefilters` tells of every `texts` what the former pattern told (`shown`: what a failure prints of a text). */
  const agrees = (prefilters: (RegExp | undefined)[], texts: fc.Arbitrary<string>, numRuns: number, shown = (t: string) => t) => {
    const scan = triggersOf(prefilters);
    const oracle = old.triggersBefore(prefilters);
    fc.assert(
      fc.property(texts, (t) => {
        expect([...scan(t)], JSON.stringify(shown(t))).toEqual([...oracle(t)]);
      }),
      { numRuns },
    );
  };

  it("tells of every text what the pattern of all words over its lower case told (property)", () => {
    for (const prefilters of lists) agrees(prefilters, textsOf(prefilters), 300);
  });

  it("tells the same of texts across the chunks it reads, an ASCII chunk (read as it is) beside one that is not (lower-cased) (property)", () => {
    for (const prefilters of lists.slice(0, 4)) {
      const text = fc.tuple(textsOf(prefilters), fc.nat(24), textsOf(prefilters), fc.boolean()).map(([a, n, b, far]) => `${"x".repeat(8192 - n)}${a}${far ? "y".repeat(8192) : ""}${b}`);
      agrees(prefilters, text, 150, (t) => t.slice(8160));
    }
  });

  it("tells the same with a table of 600 words of 8 letters (property)", () => {
    let seed = 7;
    const letters = () => Array.from({ length: 8 }, () => "abcdefghijklmnopqrstuvwxyz"[(seed = (seed * 48271) % 2147483647) % 26]).join("");
    const many = Array.from({ length: 600 }, (_, i) => new RegExp(letters(), i % 2 ? "i" : ""));
    agrees(many, textsOf(many), 200);
  });

  it("tells of every real text what that pattern told: fixtures, corpus, adversarial seeds, and all of them as one text", () => {
    for (const prefilters of lists) {
      const scan = triggersOf(prefilters);
      const oracle = old.triggersBefore(prefilters);
      for (const text of [...REAL, REAL.join("\n")]) expect([...scan(text)], JSON.stringify(text.slice(0, 80))).toEqual([...oracle(text)]);
    }
  });

  it("finds words inside and across others, and only in the case the lower case gives", () => {
    const scan = triggersOf([/sshpass/, /pass/i, /password/i, /ssh-keygen/, /key/i]);
    expect([...scan("SSHPASSWORD")]).toEqual([1, 2, 2, 0, 0]);
    expect([...scan("ssh-keygen")]).toEqual([0, 0, 0, 1, 2]);
    expect([...scan("\u212aey pas\u0130sword")]).toEqual([0, 0, 0, 0, 2]); // U+212A lowers to k; U+0130 to i and a dot
    expect([...triggersOf([/sid/i, /si/i])("s\u0130d")]).toEqual([0, 2]);
    // across the chunks it reads at a time, and a surrogate pair cut there
    for (let n = 8180; n < 8195; n++) expect([...scan(`${"x".repeat(n)}SSHPASS😀key`)], String(n)).toEqual([1, 2, 0, 0, 2]);
    expect([...scan("")]).toEqual([0, 0, 0, 0, 0]);
  });
});

describe("a `context` shape's prefilters, read whole", () => {
  it("tell what they told where the scan found a word of theirs (property and real texts)", () => {
    for (const k of [kit, known]) {
      const contexts = k.shapes.filter((s) => s.context).map((s) => s.lite?.[0] ?? s.needs);
      expect(contexts.length).toBeGreaterThan(0);
      const oracle = old.triggersBefore(contexts);
      const before = (text: string) => ((hit) => contexts.some((r, j) => hit[j] && r!.test(text)))(oracle(text));
      const { contextIn } = windowsOf(k);
      fc.assert(
        fc.property(textsOf(contexts), (text) => {
          expect(contextIn(text), JSON.stringify(text)).toBe(before(text));
        }),
        { numRuns: 500 },
      );
      for (const text of REAL) expect(contextIn(text)).toBe(before(text));
    }
  });
});
