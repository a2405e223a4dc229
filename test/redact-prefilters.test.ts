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

const kit = completed(core).streamKit;
const { shapes } = kit;
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
  it("a session cookie holds `=`", () => holdsInEveryMatch(shapeOf("(?:sess(?:ion)?|sid)"), /^(?:sess|SESSION|sid|Sid)[\w.-]{0,4}=[A-Za-z\d%]{8,10}$/));
  it("a base64-wrapped credential holds `auth`, `Basic`, or a run of 24 of base64's that starts as one does", () =>
    holdsInEveryMatch(shapeOf("(?<![\\w+/=-])(?:LS0tLS1CRUdJT"), /^(?:(?:ew|ey|e3|LS0tLS1CRUdJT)[A-Za-z\d+/]{22,26}={0,2}|Basic [A-Za-z\d+/]{8,10}|"auth": "[A-Za-z\d+/]{8,10}=?)$/));
});

describe("a prefilter narrowed to what every match holds", () => {
  // `pass|pw` read the prose-password rule (a pattern a fresh process compiles in ~1–3 ms) for every text
  // saying "passed" or holding "pw" in a random run; each of its matches starts `password`, `passphrase`,
  // `passwd` or `pw` and an operator
  const shape = shapeOf("(?<![\\w$.@-])(?:pass(?:word");
  it("a password in prose holds `passw`, `passp` or `pw` and `:` or `=`", () =>
    holdsInEveryMatch(shape, /^(?:[Pp][Aa][Ss][Ss](?:[Ww][Oo][Rr][Dd]|phrase|wd)(?: (?:for|of|ON) [\w.@-]{1,6}){0,1} (?:is|WAS) (?:[a-z]{2,7}(?: [a-z]{2,7}){2,3}|[\w!#%]{3,9})|(?:pw|PW|Pw) {0,2}[:=] {0,3}[\w!#%]{3,9}|[Pp]assphrase {1,2}(?:[a-z]{2,7} ){2,4}[a-z]{2,7})$/));
  it("holds only where `pass|pw` held", () =>
    fc.assert(
      fc.property(fc.array(fc.constantFrom("pass", "Passw", "PASSP", "pw", "pW", " ", "\t", ":", "=", "ed", "a", "word"), { maxLength: 12 }), (p) => {
        const t = p.join("");
        if (shape.needs!.test(t)) expect(/pass|pw/i.test(t), JSON.stringify(t)).toBe(true);
      }),
      { numRuns: 3000 },
    ));
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

  it("a .pgpass line's `:(?:\\d{1,5}|\\*):`, by digit", () => {
    const needs = shapeOf("^(?:[\\w.-]{1,253}|\\*):").needs!;
    same(needs, /:(?:\d{1,5}|\*):/, [":", "0", "1", "9", "*", "a", "::", "12345", " "]);
    expect(wordsOf(needs)).toEqual([..."0123456789"].map((d) => `:${d}`).concat(":*:"));
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

describe("a shape's matches found by hand", () => {
  /** Every match of `pattern` in `text` (through `find`, if given): its index and every group. */
  const matchesOf = (pattern: RegExp, text: string, find = (p: RegExp, t: string) => p.exec(t)) => {
    const out: (string | number | undefined)[][] = [];
    pattern.lastIndex = 0;
    for (let m = find(pattern, text); m; m = find(pattern, text)) out.push([m.index, ...m]);
    return out;
  };
  const run = (n: number, c: string) => Array.from({ length: n }, (_, i) => c[(i * 7 + n) % c.length]).join("");

  it("the vendor tokens' are what the pattern's exec finds: near runs of 13 word characters, 20 of base64's, tokens with their run far in (property)", () => {
    const shape = shapeOf("\\b(?:(?=[");
    expect(shape.find).toBeDefined();
    const PIECES = [
      ...SHAPE_EXAMPLES,
      ...[12, 13, 14, 23, 24, 25, 40].flatMap((n) => [run(n, "aZ9_"), run(n, "-a_B1"), `-${run(n, "xY")}`]),
      ...[19, 20, 21, 30].map((n) => run(n, "a/B+9=")),
      ...["dp.ab.", "dp.ct.scope-name.", "access_token$production$", "access_token$sandbox$", ".atlasv1.", "sha256~", "hvs.", "s.", "sl.u.", "ya29.", "1//0", "v1.0-", "SG."],
      ...["AKIA", "ghp_", "xoxb-", "sk-", "glpat-", "EAA", "ATATT", "00", "dapi", "A3-"],
    ];
    const piece = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, fc.constantFrom(" ", "\n", ".", "-", "/", "=", '"', "_", "a", "Z", "9", "é"), fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (p) => {
        const t = p.join("");
        expect(matchesOf(shape.pattern, t, shape.find), JSON.stringify(t)).toEqual(matchesOf(shape.pattern, t));
      }),
      { numRuns: 4000 },
    );
  });

  it("a printed value's are the matches its check may take: after a line that shows a secret within its last 64 characters (property)", () => {
    const shape = shapeOf("\\n([^\\s]{4,512})");
    expect(shape.find).toBeDefined();
    const exec = { ...shape, find: undefined };
    // lines of commands that show a secret (spaced or not, glued to a word), names, values, and runs that
    // put a word either side of 64 back or a value either side of 512; "\r\n" and "\n" between
    const word = fc.oneof(
      fc.constantFrom("echo", "cat", "printf", "terraform output", "terraform\t\toutput", "base64 -d", "vault kv get", "op read", "op\tread", "get-secret-value", "secrets versions access", "jsonpath", "xecho", "cat_"),
      fc.constantFrom("$DB_PASSWORD", "token", "SECRET", "|", "="),
      fc.integer({ min: 0, max: 70 }).map((n) => "a".repeat(n)),
      fc.integer({ min: 508, max: 516 }).map((n) => "k".repeat(n)),
      fc.stringMatching(/^[\w+/=.-]{3,9}$/),
    );
    const line = fc.oneof(
      fc.tuple(fc.array(word, { maxLength: 5 }), fc.constantFrom(" ", "", "\t")).map(([w, gap]) => w.join(gap)),
      fc.stringMatching(/^[\w+/=.-]{4,12}$/),
      fc.constantFrom("cat$SECRET_KEY", "xecho$TOKEN", "a=1;echo$PASSWORD"), // a command that is a value's line too
      // a command glued to a word, starting right at 64 back or beside it: the check's cut starts a word there
      fc.tuple(fc.constantFrom("echo", "cat", "op read", "base64 -d"), fc.integer({ min: -2, max: 2 })).map(([c, d]) => `x${c} $DB_PASSWORD${"b".repeat(64 + d - c.length - 13)}`),
    );
    let masked = 0;
    fc.assert(
      // (after a run of lines each a match the check turns down, the finder looks for the next command)
      fc.property(fc.nat(12), fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n", "\n\n")), { maxLength: 40 }), (run, lines) => {
        const t = "ls\n" + "file.txt\n".repeat(run) + lines.map(([l, b]) => l + b).join("");
        const out = kit.apply(t, shape, true);
        expect(out, JSON.stringify(t)).toBe(kit.apply(t, exec, true));
        if (out !== t) masked++;
      }),
      { numRuns: 4000 },
    );
    expect(masked).toBeGreaterThan(80);
  });
});

describe("one scan for a text's shapes, a Secret's kind and its escapes", () => {
  it("redacts as key blocks, a Secret's data, the shapes and the escapes read in turn without it (property)", () => {
    const kit = completed(core).streamKit;
    const plain = (t: string) => {
      const notes: (number | string)[] = []; // (the values the shapes mask, handed to the escape pass: round 13)
      return kit.redactEncoded(kit.redactShapes(kit.apply(kit.redactKeyBlocks(t), kit.kubernetes, kit.kubernetes.needs!.test(t)), undefined, undefined, notes), notes);
    };
    const PIECES = [
      ...SHAPE_EXAMPLES,
      ...adversarialSeeds(),
      ...["%41", "%2F", "%7e", "%2", "\\u0041", "\\u00", "\\u004", "\\", "\\\\", "%", "ghp_", "kind: Secret\n", 'kind: "secret"', "KIND: SECRET", "\n  password: cGFzc3dvcmQxMjM0NTY3OA==\n"],
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAv9Qx2Lm7RtYu1Io3Pa8Sd5Fg0Hj4Kl7Zx2Cw9\n-----END RSA PRIVATE KEY-----",
      "-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEAv9Qx2Lm7RtYu1Io3Pa8Sd5Fg0Hj4",
    ];
    const text = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, fc.constantFrom(" ", "\n", "=", ":", '"'), fc.string({ maxLength: 5 })), { maxLength: 10 }).map((p) => p.join(""));
    fc.assert(
      fc.property(text, (t) => {
        expect(kit.redact(t), JSON.stringify(t)).toBe(plain(t));
      }),
      { numRuns: 3000 },
    );
  });
});
