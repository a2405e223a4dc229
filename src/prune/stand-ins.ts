// Informative one-line stand-ins for pruned tool outputs and shrunk arguments. What they quote is
// redacted as the whole output or arguments redact it, before any line, value or clip is taken from
// them: a piece of a secret, or a line without the text around it (the END after a key's body, a
// Secret's kind, a name on the line before), no longer has a shape to recognise. Only a window around
// what is quoted is read where that tells the same (`redactFrom`, `readTo`).
import { clip, exitCode, LEAF_LIMIT, redactedArguments, type Redaction } from "../facts/call.js";

const ERROR_WORD = /\b(?:error|exception|traceback|failed|failure|fatal|panic|denied|not found)\b/i;

/** Where the line to quote starts, and the most of it quoted. */
type Salient = [start: number, max: number];

/** Where the line to quote starts, and its length: the first with an error word (in the first 20,000 characters), else the first non-empty one. */
function salient(output: string): Salient | undefined {
  const head = output.length > 20_000 ? output.slice(0, 20_000) : output;
  // Find the word, then widen to its line: one scan, no backtracking over long lines.
  const word = ERROR_WORD.exec(head);
  if (word) return [head.lastIndexOf("\n", word.index) + 1, 160];
  const first = /\S/.exec(head);
  return first ? [first.index, 100] : undefined;
}

/**
 * The salient line of an output (`at`: where it starts in the raw output), redacted as the whole output
 * redacts it (the END after a key's body, a name on the line before, a Secret's kind anywhere), reading
 * only a window around it where that tells the same.
 */
function salientLine(output: string, at: Salient | undefined, r: Redaction): string | undefined {
  if (!at) return undefined;
  const [start, max] = at;
  const end = output.indexOf("\n", start);
  const clean = r.redactFrom(output, start, end < 0 ? output.length : end); // the whole line: masks may shorten it
  if (clean !== undefined) return quote(clean, 0, max);
  const whole = r.redact(output);
  const again = whole === output ? at : salient(whole); // nothing masked: the same line
  return again && quote(whole, ...again);
}

/** The line of `output` that starts at `start`, whole (even past the scanned head), then clipped. */
function quote(output: string, start: number, max: number): string {
  const end = output.indexOf("\n", start);
  return clip(output.slice(start, end < 0 ? output.length : end).trim(), max);
}

/** 12345 → "12,345" (a count: an integer ≥ 0), without Intl (slow) or a pattern (compiled twice in a fresh process). */
export function thousands(n: number): string {
  const digits = String(n);
  let out = digits.slice(0, ((digits.length + 2) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

function countLines(s: string): number {
  let n = 1;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * What a one-liner says of an output that redaction does not change: its size, lines, exit status and
 * images, and where its salient line starts: read once an output, and kept with its view across
 * passes (src/prune/index.ts `known`).
 */
export interface OutputFacts {
  stated: string;
  at: Salient | undefined;
}

/** An output's `OutputFacts`; `exit` gives its exit status (a thunk, as `verdict` takes it: a default value would read the output again for each output with none). */
export function outputFacts(output: string, images: number, exit = () => exitCode(output)): OutputFacts {
  const facts = [`${thousands(output.length)} chars`, `${countLines(output)} lines`];
  const code = exit();
  if (code !== undefined) facts.push(`exit ${code}`);
  if (images) facts.push(`${images} image${images > 1 ? "s" : ""}`);
  return { stated: facts.join(", "), at: salient(output) };
}

/** The one-liner of an output: its facts, and its salient line quoted through `r`. */
export function prunedOutputLine(call: string, output: string, images: number, r: Redaction, facts = outputFacts(output, images)): string {
  const line = salientLine(output, facts.at, r);
  return `[output pruned] ${call} → ${facts.stated}${line ? `; ${JSON.stringify(line)}` : ""}`;
}

/** `later`: the reference of the newest copy (`#212`, `#1.45`), not a message index, which another pass would shift. */
export function duplicateLine(call: string, later: string): string {
  return `[output pruned] ${call} → identical to the output at ${later}`;
}

const TOKEN_CHAR = /[\w+/=.~-]/;
/**
 * Where a long string leaf is cut: before the run of token characters the limit falls in, so no token
 * is split (half a token is a secret no shape recognises any more), unless the whole limit is one run
 * (a piece that long still has the shape), and never inside a surrogate pair.
 */
function leafCut(v: string): number {
  let i = LEAF_LIMIT;
  while (i > 0 && TOKEN_CHAR.test(v[i - 1]) && TOKEN_CHAR.test(v[i])) i--;
  if (i > 0 && i < LEAF_LIMIT) return i;
  const c = v.charCodeAt(LEAF_LIMIT - 1);
  return c >= 0xd800 && c <= 0xdbff ? LEAF_LIMIT - 1 : LEAF_LIMIT;
}

/** A string leaf `v` of the redacted tree shrunk, `length` that of the call's own leaf there. */
function shrinkLeaf(v: string, length: number, redact: (text: string) => string): string {
  if (length <= LEAF_LIMIT) return v;
  const clean = redact(v); // decoded from JSON: redacted again, whole, before the cut
  if (clean.length <= LEAF_LIMIT && length === v.length) return clean;
  const cut = clean.length <= LEAF_LIMIT ? clean.length : leafCut(clean);
  return `${clean.slice(0, cut)} ...[truncated ${length - cut} chars]`; // spaced: glued, it would end a shape
}

/** `v` of the redacted tree shrunk, `raw` the same place in the call's own (its leaves' lengths). */
function shrinkValue(v: unknown, raw: unknown, redact: (text: string) => string): unknown {
  if (typeof v === "string") return shrinkLeaf(v, typeof raw === "string" ? raw.length : v.length, redact);
  if (v === null || typeof v !== "object") return v;
  const raws = raw !== null && typeof raw === "object" ? Object.values(raw) : []; // once: not per child
  if (Array.isArray(v)) return v.map((x, i) => shrinkValue(x, raws[i], redact));
  // fromEntries defines own properties: a "__proto__" key stays a key, never a prototype.
  return Object.fromEntries(Object.entries(v).map(([k, x], i) => [k, shrinkValue(x, raws[i], redact)]));
}

/**
 * Long string leaves cut short; the result is still valid JSON. Undefined when not JSON or not smaller.
 * The arguments are redacted as a whole first: a leaf alone may not say what it holds.
 */
export function shrinkArguments(args: string, r: Redaction, trees = redactedArguments(args, r)): string | undefined {
  if (!trees) return undefined;
  let shrunk: string;
  try {
    // Nothing masked (and every draft): each leaf is its own length, shrunk as JSON.stringify writes it,
    // in the same order, without a shrunk copy of the tree (~2× faster: most of a draft's arguments)
    shrunk = trees.clean === trees.raw
      ? JSON.stringify(trees.clean, (_, v: unknown) => (typeof v === "string" ? shrinkLeaf(v, v.length, r.redact) : v))
      : JSON.stringify(shrinkValue(trees.clean, trees.raw, r.redact));
  } catch {
    return undefined; // nested deeper than the stack: left as it is
  }
  return shrunk.length < args.length ? shrunk : undefined;
}
