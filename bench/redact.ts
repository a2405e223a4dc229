// Secret redaction: throughput on real transcripts and adversarial input; recall per kind on the corpus.
import { redact } from "../src/index.js";
import { trajectories } from "../test/support/fixtures.js";
import { negatives, positives, secretValue } from "../test/support/secrets.js";
import { median, table } from "./lib.js";

function mbps(text: string, runs: number): number {
  const xs: number[] = [];
  redact(text);
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    redact(text);
    xs.push(performance.now() - t);
  }
  return text.length / 1e6 / (median(xs) / 1000);
}

export async function redactBench(): Promise<string> {
  const transcripts = trajectories().map((t) => JSON.stringify(t.messages)).join("\n");
  const speed: (string | number)[][] = [["the 17 fixture transcripts (JSON)", (transcripts.length / 1e6).toFixed(2), mbps(transcripts, 5).toFixed(1)]];
  for (const seed of ["sk-", "-----BEGIN PRIVATE KEY-----", "password=", "eyJhbGciOiJIUzI1NiJ9.eyJ", "aB3_", "0123456789abcdef"]) {
    const text = seed.repeat(Math.ceil(100_000 / seed.length)).slice(0, 100_000);
    speed.push([`100 KB of ${JSON.stringify(seed)} repeated`, "0.10", mbps(text, 5).toFixed(1)]);
  }

  const kinds = new Map<string, [number, number]>();
  for (const p of positives()) {
    const caught = !redact(p.line).includes(secretValue(p.line));
    const [k, n] = kinds.get(p.kind) ?? [0, 0];
    kinds.set(p.kind, [k + (caught ? 1 : 0), n + 1]);
  }
  const total = [...kinds.values()].reduce((a, [k, n]) => [a[0] + k, a[1] + n], [0, 0]);
  const fps = negatives().filter((n) => redact(n.line) !== n.line);
  const perKind = [...kinds.entries()].sort(([, a], [, b]) => a[0] / a[1] - b[0] / b[1]).map(([kind, [k, n]]) => [kind, n, k, `${Math.round((k / n) * 100)} %`]);
  return (
    table(["input", "MB", "MB/s"], speed) +
    `\n\nCorpus (../shared/fixtures/secrets): recall **${((total[0] / total[1]) * 100).toFixed(1)} %** (${total[0]}/${total[1]} positives whose secret value is gone), ` +
    `false positives **${((fps.length / negatives().length) * 100).toFixed(1)} %** (${fps.length}/${negatives().length}: ${fps.map((f) => f.kind).join(", ")}). ` +
    "How the secret value of a line is read is documented in test/support/secrets.ts.\n\n" +
    table(["kind", "lines", "caught", "recall"], perKind)
  );
}
