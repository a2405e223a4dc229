// Secret redaction: throughput on real transcripts and on adversarial input, recall per kind on the
// corpus, false positives, and the module's size. Medians of several runs, after a warm-up.
import type * as Entry from "../src/index.js";
import type * as Catalogue from "../src/redact/index.js";
import type * as More from "../src/redact/more.js";
import type * as Stream from "../src/redact/stream.js";
import type * as Window from "../src/redact/window.js";
import { ESCAPED_EXAMPLES, adversarialSeeds, repeatTo } from "../test/support/adversarial.js";
import { trajectories } from "../test/support/fixtures.js";
import { negatives, positives, secretValue } from "../test/support/secrets.js";
import { spans, strings } from "../test/support/spans.js";
import { bundleSize, median, packaged, table } from "./lib.js";

/**
 * The code timed: src/ bundled as an app ships it (`packaged`), loaded by `redactBench`: the package's
 * `redact`, the whole catalogue as a pass that rewrites reads it (`redactMany`), streaming redaction.
 */
let redact: typeof Entry.redact;
let redactMany: (texts: string[]) => string[];
let streamKit: () => Catalogue.StreamKit;
let redactedStream: typeof Stream.redactedStream;

const ROUNDS = 9;

/** Median MB/s of `fn` over `chars` characters of input. */
function throughput(chars: number, fn: () => unknown): number {
  return rates([[chars, fn]])[0];
}

/**
 * Median MB/s of each `fn` over its `chars` characters, timed in turn round by round (after three
 * rounds untimed), so that a slow stretch of the machine hits them alike: timed one after another, the
 * one a slow stretch fell on read slowest, and the slowest of a dozen close inputs was that one.
 */
function rates(runs: [chars: number, fn: () => unknown][], rounds = ROUNDS): number[] {
  const ms = runs.map((): number[] => []);
  for (let r = 0; r < rounds + 3; r++)
    for (const [k, [, fn]] of runs.entries()) {
      const t = performance.now();
      fn();
      if (r >= 3) ms[k].push(performance.now() - t);
    }
  return runs.map(([chars], k) => chars / 1e6 / (median(ms[k]) / 1000));
}

/**
 * Escape-dense text and URL-encoded logs (issue 29): an escape every few characters, each line a
 * region of its own to decode, alone and beside the separators like every seed.
 */
const ESCAPE_DENSE = ["a\\u00410\n", "ab\\u0041", "x\\u002dy\\u002dz ", '{"q":"a\\u0026b\\u0026c"}\n', "GET /srv%2Fapp%2Fdata%2Fx%3Fy%3D1 HTTP/1.1\n", "%41%42%43", "password=a\\u0041b "];

/**
 * Text where every candidate reaches a shape's checks (round 6's review): a CSRF word before each
 * prose password, runs as long as a bare token's, a CSRF name before each token (read for what it names).
 */
const CHECK_DENSE = ["xsrf password is hunter2x, ", "Zq8wR2xT7wLpK3vN9mB4cX6j ", "csrf-token: Zq8wR2xT7wLpK3vN9mB4cX6j ", '<meta name="csrf-token" content="Zq8wR2xT7wLpK3vN9mB4cX6j">'];

/** Separators a seed is paired with: each ends or restarts a shape. */
const RUNS = ["-", "_", ".", " ", "\n", "=", ":", "/", "a", "0", '"', "\\n", "@", "|", "~", "%"];

/**
 * The slowest adversarial inputs: every prefix of every shape (test/support/adversarial.ts), alone and
 * beside each separator, screened at 32 KB, the 64 slowest again at 256 KB, and the 8 slowest of those
 * measured at 1 MB. Each screen keeps the faster of two runs (a pause for the collector or another
 * process only ever adds time), and at 32 KB the fixed costs of a call bunch the slowest dozens within
 * 10 %: one screen alone once left the slowest input, escape-dense text, out of the 8.
 */
function slowest(): [unit: string, text: string][] {
  const units = [...adversarialSeeds(), ...ESCAPE_DENSE, ...CHECK_DENSE].flatMap((seed) => [seed, ...RUNS.flatMap((r) => [r + seed, seed + r])]);
  const screen = (candidates: string[], chars: number, keep: number) =>
    candidates
      .map((u): [string, number] => {
        const text = repeatTo(u, chars);
        let best = Infinity;
        for (let i = 0; i < 2; i++) {
          const t = performance.now();
          redact(text);
          best = Math.min(best, performance.now() - t);
        }
        return [u, best];
      })
      .sort((a, b) => b[1] - a[1])
      .slice(0, keep)
      .map(([u]) => u);
  return screen(screen(units, 32_000, 64), 1 << 18, 8).map((u) => [u, repeatTo(u, 1 << 20)]);
}

/**
 * Thousands of escape windows after one that every shape masks something in (round 10's review): each
 * shape's example with one letter escaped, a line each, then 1 MB of short escaped lines. Every shape
 * then reads the windows, and an escape pass that read each shape in each window ran at ~7 MB/s.
 */
function afterEveryShape(): [line: string, text: string][] {
  const head = ESCAPED_EXAMPLES.join("\n") + "\n";
  return ["a%41bcdefg\n", "x%3Dabcdefgh\n"].map((line) => [line, head + repeatTo(line, 1 << 20)]);
}

/**
 * A masked value before every escaped run (round 13): the shape pass notes each value it masks, and
 * the escape pass reads it in its marker's place (a value may name the run after it). A word that
 * names the run, and a random value no name is in, 1 MB each.
 */
const NAMED_RUNS = ["pwd=Bearer abcdefgh%41 ", "key=Zq8wR2xT7wLpK3vN9mB4cX6j %41bcdefgh "];

/** A summarizer that ignores its budget: 4,000 lines streamed in 40-character deltas, redacted as they come. */
function streaming(): number {
  const text = Array.from({ length: 4000 }, (_, i) => `- step ${i}: ran the suite in packages/core, token=abc, 118 passed\n`).join("");
  const deltas = Array.from({ length: Math.ceil(text.length / 40) }, (_, i) => text.slice(i * 40, i * 40 + 40));
  return throughput(text.length, () => {
    const s = redactedStream(streamKit(), () => {});
    for (const d of deltas) s.push(d);
    s.end();
  });
}

export async function redactBench(): Promise<string> {
  return packaged(["src/index.ts", "src/redact/index.ts", "src/redact/more.ts", "src/redact/stream.ts", "src/redact/window.ts"], async (bundle) => {
    ({ redact } = await bundle.load<typeof Entry>("index.js"));
    const { redactor } = await bundle.load<typeof Catalogue>("redact/index.js");
    const { completed } = await bundle.load<typeof More>("redact/more.js");
    ({ redactMany } = (await bundle.load<typeof Window>("redact/window.js")).windowed(completed(redactor)));
    streamKit = () => completed(redactor).streamKit;
    ({ redactedStream } = await bundle.load<typeof Stream>("redact/stream.js"));
    return measured();
  });
}

async function measured(): Promise<string> {
  const all = trajectories();
  const json = all.map((t) => JSON.stringify(t.messages)).join("\n");
  const texts = all.flatMap((t) => strings(t.messages));
  const textChars = texts.reduce((n, t) => n + t.length, 0);
  const mb = (n: number) => (n / 1e6).toFixed(2);
  const speed: (string | number)[][] = [
    [`the ${all.length} fixture transcripts, as one JSON text: \`redact\``, mb(json.length), throughput(json.length, () => redact(json)).toFixed(1)],
    [`their ${texts.length} strings, each alone: \`redactMany\` (as a compaction calls it)`, mb(textChars), throughput(textChars, () => redactMany(texts)).toFixed(1)],
  ];
  // each adversarial input as its row: its name, MB and rate
  // (the inputs at 1 MB timed in turn, round by round: `rates`)
  const inputs: [name: string, size: string, text: string][] = [
    ...slowest().map(([unit, text]): [string, string, string] => [`1 MB of ${JSON.stringify(unit).slice(0, 40)} repeated`, "1.05", text]),
    ...afterEveryShape().map(([line, text]): [string, string, string] => [`every shape's example with an escape, a line each, then 1 MB of ${JSON.stringify(line)} lines`, "1.06", text]),
    ...NAMED_RUNS.map((unit): [string, string, string] => [`1 MB of ${JSON.stringify(unit)} repeated (a value before each escaped run)`, "1.05", repeatTo(unit, 1 << 20)]),
  ];
  const timed = rates(inputs.map(([, , text]) => [text.length, () => redact(text)]));
  const adversarial = inputs.map(([name, size], k): [string, string, number] => [name, size, timed[k]]);
  for (const [name, size, rate] of adversarial) speed.push([name, size, rate.toFixed(1)]);
  const [slowestName, , slowestRate] = adversarial.reduce((a, b) => (b[2] < a[2] ? b : a));
  speed.push(["a 4,000-line summary streamed in 40-character deltas (`redactedStream`)", "", streaming().toFixed(1)]);

  // Precision on the fixture transcripts: every span removed, and the shapes that removed them.
  const fixtureSpans = all.flatMap((t) => strings(t.messages).flatMap((s) => spans(s).map((sp) => ({ ...sp, fixture: t.name }))));
  const fired = new Map<string, number>();
  for (const p of positives()) for (const sp of spans(p.line)) fired.set(sp.shape, (fired.get(sp.shape) ?? 0) + 1);
  const topShapes = [...fired].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([shape, n]) => [`\`${shape.replace(/\|/g, "\\|").replace(/`/g, "'")}…\``, n]);

  const kinds = new Map<string, { lines: number; caught: number }>();
  for (const p of positives()) {
    const caught = !redact(p.line).includes(secretValue(p.line));
    const k = kinds.get(p.kind) ?? { lines: 0, caught: 0 };
    kinds.set(p.kind, { lines: k.lines + 1, caught: k.caught + (caught ? 1 : 0) });
  }
  const lines = positives().length;
  const caught = [...kinds.values()].reduce((n, k) => n + k.caught, 0);
  const fps = negatives().filter((n) => redact(n.line) !== n.line);
  const perKind = [...kinds]
    .sort(([a, x], [b, y]) => x.caught / x.lines - y.caught / y.lines || a.localeCompare(b))
    .map(([kind, k]) => [kind, k.lines, k.caught, `${Math.round((k.caught / k.lines) * 100)} %`]);
  const size = await bundleSize("src/redact/index.ts");
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)} %`;

  return (
    table(["input", "MB", "MB/s"], speed) +
    `\n\nSlowest adversarial input: **${slowestRate.toFixed(1)} MB/s** (${slowestName}), of ${adversarialSeeds().length} prefixes of every shape and ${ESCAPE_DENSE.length} escape-dense lines and ${CHECK_DENSE.length} lines that reach every check, alone and beside ${RUNS.length} separators (screened at 32 KB, the 64 slowest at 256 KB, the 8 slowest of those above at 1 MB), the escape windows after every shape's example and ${NAMED_RUNS.length} masked values before escaped runs; the inputs at 1 MB timed in turn, round by round (${ROUNDS} rounds, medians) ` +
    "(work grows linearly: the 1 MB / 256 KB property test in test/redact.test.ts). Every rate times src/ bundled as an app ships it (`packaged` in bench/lib.ts), not tsx's transform. " +
    `The redaction module is ${size.gzip.toLocaleString("en-US")} bytes gzip (${size.minified.toLocaleString("en-US")} minified).\n\n` +
    `Corpus (test/fixtures/secrets): recall **${pct(caught, lines)}** (${caught}/${lines} positives whose secret value is gone), ` +
    `false positives **${pct(fps.length, negatives().length)}** (${fps.length}/${negatives().length}: ${fps.map((f) => f.kind).join(", ") || "none"}). ` +
    "How the secret value of a line is read is documented at the top of test/redact.test.ts.\n\n" +
    table(["kind", "lines", "caught", "recall"], perKind) +
    `\n\nPrecision on the ${all.length} fixture transcripts (${mb(textChars)} MB of strings): **${fixtureSpans.length} spans redacted** ` +
    `(${(fixtureSpans.length / (textChars / 1e6)).toFixed(1)} per MB)${fixtureSpans.length ? `: ${fixtureSpans.map((s) => `${s.fixture}: ${JSON.stringify(s.text)}`).join("; ")}` : ""}; ` +
    "test/redact-precision.test.ts lists every span and fails on any not reviewed. The shapes that fired most on the corpus positives:\n\n" +
    table(["shape (start of its pattern)", "spans"], topShapes)
  );
}
