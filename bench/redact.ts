// Secret redaction: throughput on real transcripts and on adversarial input, recall per kind on the
// corpus, false positives, and the module's size. Medians of several runs, after a warm-up.
import { redact } from "../src/index.js";
import { redactMany } from "../src/redact/index.js";
import { trajectories } from "../test/support/fixtures.js";
import { negatives, positives, secretValue } from "../test/support/secrets.js";
import { bundleSize, median, table } from "./lib.js";

const RUNS = 9;

/** Median MB/s of `fn` over `chars` characters of input. */
function throughput(chars: number, fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return chars / 1e6 / (median(ms) / 1000);
}

/** Every string of a transcript: what a compaction hands to redaction, one text per content and argument. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Prefixes of every shape and the characters its repeats consume, each repeated to 100 KB. */
const ADVERSARIAL = ["sk-", "ghp_", "eyJhbGciOiJIUzI1NiJ9.", "-----BEGIN PRIVATE KEY-----", "password=", "key=", "://a:", "Bearer ", "aB3_", "0123456789abcdef", "M", '"'];

export async function redactBench(): Promise<string> {
  const all = trajectories();
  const json = all.map((t) => JSON.stringify(t.messages)).join("\n");
  const texts = all.flatMap((t) => strings(t.messages));
  const textChars = texts.reduce((n, t) => n + t.length, 0);
  const mb = (n: number) => (n / 1e6).toFixed(2);
  const speed: (string | number)[][] = [
    [`the ${all.length} fixture transcripts, as one JSON text: \`redact\``, mb(json.length), throughput(json.length, () => redact(json)).toFixed(1)],
    [`their ${texts.length} strings, one batch: \`redactMany\` (as a compaction calls it)`, mb(textChars), throughput(textChars, () => redactMany(texts)).toFixed(1)],
  ];
  const adversarial: number[] = [];
  for (const seed of ADVERSARIAL) {
    const text = seed.repeat(Math.ceil(100_000 / seed.length)).slice(0, 100_000);
    const rate = throughput(text.length, () => redact(text));
    adversarial.push(rate);
    speed.push([`100 KB of ${JSON.stringify(seed)} repeated`, mb(text.length), rate.toFixed(1)]);
  }

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
    `\n\nSlowest adversarial input: ${Math.min(...adversarial).toFixed(1)} MB/s (every pattern is linear; see the property test in test/redact.test.ts). ` +
    `The redaction module is ${size.gzip.toLocaleString("en-US")} bytes gzip (${size.minified.toLocaleString("en-US")} minified).\n\n` +
    `Corpus (test/fixtures/secrets): recall **${pct(caught, lines)}** (${caught}/${lines} positives whose secret value is gone), ` +
    `false positives **${pct(fps.length, negatives().length)}** (${fps.length}/${negatives().length}: ${fps.map((f) => f.kind).join(", ") || "none"}). ` +
    "How the secret value of a line is read is documented at the top of test/redact.test.ts.\n\n" +
    table(["kind", "lines", "caught", "recall"], perKind)
  );
}
