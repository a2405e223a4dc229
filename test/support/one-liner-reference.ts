// The pruned output's one-liner as it was written before its facts could be learnt once a pass
// (src/prune/stand-ins.ts at 7bb0ea2): every fact read from the output on each call, and the salient
// line of a whole redacted output found by reading it again. The oracle of test/one-liners-once.
import { clip, exitCode, type Redaction } from "../../src/facts/call.js";
import { thousands } from "../../src/prune/stand-ins.js";

const ERROR_WORD = /\b(?:error|exception|traceback|failed|failure|fatal|panic|denied|not found)\b/i;

function salient(output: string): [start: number, max: number] | undefined {
  const head = output.length > 20_000 ? output.slice(0, 20_000) : output;
  const word = ERROR_WORD.exec(head);
  if (word) return [head.lastIndexOf("\n", word.index) + 1, 160];
  const first = /\S/.exec(head);
  return first ? [first.index, 100] : undefined;
}

function salientLine(output: string, r: Redaction): string | undefined {
  const at = salient(output);
  if (!at) return undefined;
  const [start, max] = at;
  const end = output.indexOf("\n", start);
  const clean = r.redactFrom(output, start, end < 0 ? output.length : end);
  if (clean !== undefined) return quote(clean, 0, max);
  const whole = r.redact(output);
  const again = salient(whole);
  return again && quote(whole, ...again);
}

function quote(output: string, start: number, max: number): string {
  const end = output.indexOf("\n", start);
  return clip(output.slice(start, end < 0 ? output.length : end).trim(), max);
}

function countLines(s: string): number {
  let n = 1;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

export function prunedOutputLineReference(call: string, output: string, images: number, r: Redaction, exit = () => exitCode(output)): string {
  const facts = [`${thousands(output.length)} chars`, `${countLines(output)} lines`];
  const code = exit();
  if (code !== undefined) facts.push(`exit ${code}`);
  if (images) facts.push(`${images} image${images > 1 ? "s" : ""}`);
  const line = salientLine(output, r);
  return `[output pruned] ${call} → ${facts.join(", ")}${line ? `; ${JSON.stringify(line)}` : ""}`;
}
