// The prefilters that let the trigger scan (src/redact/triggers.ts) skip shapes that once ran on every
// text: every match of a shape's pattern holds its prefilter (`needs`, `gate`), on text built to reach
// the shape; a prefilter rewritten to give words holds where the former one held, and only there.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { wordsOf } from "../src/redact/triggers.js";
import type { Shape } from "../src/redact/shapes.js";
import { SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";

const { shapes } = completed(core).streamKit;
const shapeOf = (start: string) => shapes.find((s) => s.pattern.source.startsWith(start))!;

/** Text around what `core` generates: random pieces, the catalogue's examples and seeds, separators. */
const around = (core: fc.Arbitrary<string>) => {
  const piece = fc.oneof(core, fc.constantFrom(...SHAPE_EXAMPLES, ...adversarialSeeds(), " ", "\n", ".", "|", ":", "-", "=", "//", "@"), fc.string({ maxLength: 6 }));
  return fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(""));
};

/** Asserts every match of `shape` in texts around `core` holds its prefilter, and that the texts do reach it. */
function holdsInEveryMatch(shape: Shape, core: RegExp) {
  let reached = 0;
  fc.assert(
    fc.property(around(fc.stringMatching(core)), (t) => {
      shape.pattern.lastIndex = 0;
      for (let m = shape.pattern.exec(t); m; m = shape.pattern.exec(t)) {
        reached++;
        if (shape.needs) expect(shape.needs.test(m[0]), `${shape.needs} in ${JSON.stringify(m[0])}`).toBe(true);
        if (shape.gate) expect(shape.gate(m[0]), `gate in ${JSON.stringify(m[0])}`).toBe(true);
        if (!m[0]) shape.pattern.lastIndex++;
      }
    }),
    { numRuns: 300 },
  );
  expect(reached).toBeGreaterThan(100);
}

describe("a prefilter given to a shape that had none", () => {
  it("a JWT holds `.eyJ`", () => holdsInEveryMatch(shapeOf("(?<![\\w-])eyJ"), /^eyJ[\w-]{8,12}\.eyJ[\w-]{8,12}(?:\.[\w-]{0,9})?$/));
  it("a Discord bot token holds a run of 27 word characters", () => holdsInEveryMatch(shapeOf("(?<![A-Za-z\\d]{3})[MNO]"), /^[MNO][A-Za-z\d]{23,26}\.[\w-]{6}\.[\w-]{27,30}$/));
  it("a URL's credentials hold `//`, an .npmrc token `:_auth`", () =>
    holdsInEveryMatch(shapeOf("\\/\\/(?:"), /^(?:\/\/[a-z]{0,4}:[\w!%]{1,8}@|\/\/[A-Za-z\d]{20,23}@|[a-z]{1,4}\.[a-z]{2,3}\/[a-z/]{0,4}:_(?:auth|AUTH|authToken|AuthTOKEN)=[\w+/=]{8,10})$/));
  it("a secret URL parameter holds its name and `=`", () =>
    holdsInEveryMatch(shapeOf("[?&;](?:passw"), /^[?&;](?:passw(?:or)?d|pwd|PWD|PassWord|[\w.-]{0,4}(?:token|secret|key|sig|signature|auth|credential|TOKEN|Key|SIGnature))=[a-z\d%]{8,10}$/));
  it("a value piped into a command that reads a secret holds `echo` or `printf`, and `|`", () =>
    holdsInEveryMatch(shapeOf("\\b(?:echo|printf)(?:[ \\t]{1,4}-[neE]"), /^(?:echo|ECHO|printf|PrintF)(?: -n)? (?:[a-z\d]{4,8}|'[a-z ]{1,6}') ?\| ?(?:gh secret set X|chpasswd|docker login|TOKEN|Login)$/));
});

describe("a prefilter reworded to give words", () => {
  // each the same test as the one it replaced, on text dense in what either reads
  const same = (now: RegExp, before: RegExp, alphabet: string[]) =>
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }), (p) => {
        const t = p.join("");
        expect(now.test(t), JSON.stringify(t)).toBe(before.test(t));
      }),
      { numRuns: 5000 },
    );

  it("Facebook's `\\d\\|\\w`, by digit", () => {
    const needs = shapeOf("\\b\\d{15,16}\\|").needs!;
    same(needs, /\d\|\w/, ["0", "5", "9", "|", "a", "_", "-", " ", "||", "Z"]);
    expect(wordsOf(needs)).toEqual([..."0123456789"].map((d) => `${d}|`));
  });

  it("the invisible characters, one alternative each", () => {
    const needs = shapeOf("\\[REDACTED\\]((?:[\\u200b").needs!;
    same(needs, /[\u200b-\u200d\u2060\ufeff]/, ["\u200a", "\u200b", "\u200c", "\u200d", "\u200e", "\u205f", "\u2060", "\u2061", "\ufefe", "\ufeff", "\uff00", "a", " "]);
    expect(wordsOf(needs)).toEqual(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]);
  });

  it("words are read from alternatives outside groups: `ldap(?:search|add|…)` gives `ldap`, not `add`", () => {
    expect(wordsOf(/ldap(?:search|add|modify)|sqlcmd|mosquitto_(?:pub|sub)/)).toEqual(["ldap", "sqlcmd", "mosquitto_"]);
    // an escaped `|` is a literal, a `\b` before a word is dropped; a `|` in a class parts nothing
    expect(wordsOf(/a\|b|\be3|x\/\/y|\*:/)).toEqual(["a|b", "e3", "x//y", "*:"]);
    expect(wordsOf(/ab|c[|]d/)).toBeUndefined();
  });
});
