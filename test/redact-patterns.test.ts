// The shapes' patterns and prefilters, rewritten for speed (issue 29), find exactly what they found:
// each against its former self (test/support/redact-oracle.ts) on generated texts built from its own
// literals, the corpus lines, the shapes' examples and fixture text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apply, example, redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import type { Shape } from "../src/redact/shapes.js";
import { SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";
import { trajectories } from "./support/fixtures.js";
import * as old from "./support/redact-oracle.js";
import { negatives, positives } from "./support/secrets.js";
import { linesOf, strings } from "./support/spans.js";

const kit = completed(core).streamKit;
/** Real texts: the corpus lines, the shapes' examples, the adversarial seeds and lines of the fixtures. */
const REAL = [
  ...positives().map((p) => p.line),
  ...negatives().map((n) => n.line),
  ...SHAPE_EXAMPLES,
  ...adversarialSeeds(),
  ...linesOf(trajectories().slice(0, 3)).slice(0, 3000),
];
const texts = (pieces: string[]) =>
  fc
    .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: fc.constantFrom(...REAL) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 16 })
    .map((p) => p.join(""));

describe("documentation's example values, read by hand", () => {
  it("are what the former pattern found (property)", () => {
    const value = fc.string({ unit: fc.constantFrom("x", "X", "_", "/", "-", "E", "XAMPLE", "EXAMPLE", "a", "0", "xxxx", "XXXX"), maxLength: 14 });
    fc.assert(
      fc.property(value, (v) => {
        expect(example(v), v).toBe(old.EXAMPLE.test(v));
      }),
      { numRuns: 5000 },
    );
    for (const v of ["", "x", "_xxxx", "_xxx", "/XXXX", "-xXxx", "a-xxxxx", "AKIAIOSFODNN7EXAMPLE", "EXAMPLE", "xxxx", "_XXXXxxxx", "sk_live_xxxxxxxx"]) expect(example(v), v).toBe(old.EXAMPLE.test(v));
  });
});

describe("a password flag's shape is read only where the text holds its flag", () => {
  // (a password flag's shape reads up to eight arguments before the flag, each an atomic run)
  const flagged = kit.shapes.filter((s) => s.gate && s.pattern.source.includes(String.raw`(?=(\S{0,255}))`));
  const PIECES = ["mysql", "mariadb", "mongosh", "docker login", "sshpass", "redis-cli", "ssh-keygen", "openssl", "ldapsearch", "sqlcmd", "zip", "smbclient", " ", "\t", "\\\n", "-p", "-P", "-a", "-N", "-k", "-w", "-U", "-u", "--", "'Hunter2Pass9'", "Hn4vQ8xL2wRt", "admin%Hunter2Pass9", "-pHunter2Pass9", "x", "\n"];
  it("covers every password flag's shape", () => {
    expect(flagged.length).toBe(11);
  });
  it("redacts as without the gate (property)", () => {
    fc.assert(
      fc.property(texts(PIECES), (t) => {
        for (const s of flagged) expect(apply(t, s)).toBe(apply(t, { ...s, gate: undefined }));
      }),
      { numRuns: 500 },
    );
    for (const t of REAL) for (const s of flagged) expect(apply(t, s)).toBe(apply(t, { ...s, gate: undefined }));
  });
});

/** Every match of `pattern` in `text`, as `apply` finds them (through `find`, if given): its index and every group. */
function matchesOf(pattern: RegExp, text: string, find = (p: RegExp, t: string) => p.exec(t)): (string | number | undefined)[][] {
  const out: (string | number | undefined)[][] = [];
  pattern.lastIndex = 0;
  for (let m = find(pattern, text); m; m = find(pattern, text)) out.push([m.index, ...m]);
  return out;
}
const shapeOf = (source: string) => kit.shapes.find((s) => s.pattern.source === source)!;

describe("the generic assignment, tried only before a value's run", () => {
  const shape: Shape = shapeOf(old.ASSIGNED.source);
  const run = (n: number, c = "aB3+~-_") => Array.from({ length: n }, (_, i) => c[(i * 7 + (n % 5)) % c.length]).join("");
  const name = (n: number) => run(n, "aB3_.-");
  const PIECES = [
    "--", "-", "=", "==", ":", ": ", " ", "  ", "\t", "\n", "\\", '"', "'", ".", "/", "+", "~", "_", "x", "API_TOKEN", "a.b-c", "public_key", "site-key",
    run(1), run(12), run(19), run(20), run(21), run(40), run(60), run(61), run(73), run(119), run(120), run(121), run(200), "Zx81fQ2mN7pLk3vT9wRy4uHs", "kR9vX2mQ7pL4wZ8nB3tY6hJ1",
  ];
  // an assignment spelled out: a name (up to past 60), quotes, spaces and an operator, a value's run (up to past 120) and what ends it
  const PARTS = [
    ["", " ", "\n", "x", ".", "-", "--", "--" + name(40), "--" + name(41), name(55), name(59), name(60), name(61), "a.b-c", "k"],
    ["", "\\", '"', "'", '\\"', "\\'"],
    ["", " ", "  ", "    ", "     ", "\t\t"],
    ["=", ":", "", " ", "::", "=="],
    ["", " ", "    ", "     "],
    ["", '"', "'", '\\"', "\\"],
  ];
  const ENDS = ["", "=", "==", "===", " ", ".", "/", '"', "\n", "a"];
  const assignment = fc
    .tuple(fc.tuple(...PARTS.map((p) => fc.constantFrom(...p))), fc.integer({ min: 18, max: 123 }), fc.constantFrom(...ENDS))
    .map(([parts, n, end]) => parts.join("") + run(n) + end);
  it("finds what the former pattern found in every assignment spelled out of these parts", () => {
    let spelled = [""];
    for (const p of PARTS) spelled = spelled.flatMap((s) => p.map((x) => s + x));
    for (const s of spelled)
      for (const t of [s + run(19) + " ", s + run(20) + "==/", s + run(120) + "=", s + run(121) + "\n"]) expect(matchesOf(shape.pattern, t, shape.find), t).toEqual(matchesOf(old.ASSIGNED, t));
  });
  it("finds what the former pattern found in assignments spelled out (property)", () => {
    expect(shape.find).toBeDefined();
    fc.assert(
      fc.property(fc.array(fc.oneof(assignment, fc.constantFrom(...PIECES)), { maxLength: 6 }), (parts) => {
        const t = parts.join("");
        expect(matchesOf(shape.pattern, t, shape.find)).toEqual(matchesOf(old.ASSIGNED, t));
      }),
      { numRuns: 3000 },
    );
  });
  it("finds what the former pattern found over the whole text (property)", () => {
    fc.assert(
      fc.property(texts(PIECES), (t) => {
        expect(matchesOf(shape.pattern, t, shape.find)).toEqual(matchesOf(old.ASSIGNED, t));
      }),
      { numRuns: 3000 },
    );
  });
  it("on the corpus, the examples, the seeds and the fixtures' texts", () => {
    for (const t of REAL) expect(matchesOf(shape.pattern, t, shape.find)).toEqual(matchesOf(old.ASSIGNED, t));
    const whole = trajectories().flatMap((t) => strings(t.messages)).join("\n");
    expect(matchesOf(shape.pattern, whole, shape.find)).toEqual(matchesOf(old.ASSIGNED, whole));
  });
});
