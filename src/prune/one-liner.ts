// Informative one-line stand-ins for pruned tool outputs and shrunk arguments. What they quote comes
// from the whole output or arguments redacted, before any line, value or clip is taken from them: a
// piece of a secret, or a line without the text around it (the END after a key's body, a Secret's
// kind, a name on the line before), no longer has a shape to recognise.

const TARGET_KEYS = ["command", "cmd", "file_path", "path", "filename", "pattern", "query", "url", "description"];

function parseObject(args: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(args);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// A pass describes each call several times (prune, then the summary) and most arguments are short:
// those are parsed once. Bounded, so a long-lived isolate holds no more than a few hundred strings.
const parsedArguments = new Map<string, Record<string, unknown> | undefined>();
const CACHED_ARGUMENTS = 512;
const CACHED_ARGUMENT_CHARS = 4096;

/** Tool-call arguments as an object; undefined when they are not a JSON object. Treat the result as read-only. */
export function parseArguments(args: string): Record<string, unknown> | undefined {
  if (args.length > CACHED_ARGUMENT_CHARS) return parseObject(args);
  if (parsedArguments.has(args)) return parsedArguments.get(args);
  if (parsedArguments.size >= CACHED_ARGUMENTS) parsedArguments.clear();
  const parsed = parseObject(args);
  parsedArguments.set(args, parsed);
  return parsed;
}

/**
 * Whitespace folded, cut to `max` characters with an ellipsis: between words when one ends in the last
 * 40 characters, so any piece of a token left at the cut is at least 40 long, enough for redaction to
 * recognise its shape.
 */
export function clip(s: string, max: number): string {
  const flat = s.slice(0, max * 4).replace(/\s+/g, " ").trim(); // whitespace folding needs no more than this
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(" ", max - 1);
  // A space before the ellipsis: glued to a word, "…" would make it look already masked to `redact`.
  return `${flat.slice(0, space > max - 41 ? space : max - 2)} …`;
}

/**
 * `Bash command="npm test"`: the tool and what it was pointed at. The values come from the whole
 * arguments redacted (a sibling argument may say what a value is), then each decoded value again.
 */
export function describeCall(name: string | undefined, args: string | undefined, redact: (text: string) => string): string {
  const parsed = args ? parseArguments(redact(args)) : undefined;
  const targets: string[] = [];
  if (parsed) {
    for (const key of TARGET_KEYS) {
      const v = parsed[key];
      if (typeof v === "string" && v) targets.push(`${key}=${JSON.stringify(clip(redact(v), 120))}`);
      if (targets.length === 2) break;
    }
  }
  return [name ? redact(name) : "tool", ...targets].join(" ");
}

const EXIT_CODE =
  /\b(?:exit(?:ed)?[ _-]?(?:code|status)|exited with(?: code)?|return[ _]?code|returncode)\b["']?\s*[:=]?\s*(-?\d{1,3})\b/i;
export function exitCode(output: string): number | undefined {
  const m = EXIT_CODE.exec(output.length > 20000 ? output.slice(0, 4000) + output.slice(-4000) : output);
  return m ? Number(m[1]) : undefined;
}

const ERROR_WORD = /\b(?:error|exception|traceback|failed|failure|fatal|panic|denied|not found)\b/i;

/** The first line of a redacted output that looks like an error (in the first 20,000 characters), else the first non-empty line. */
function salientLine(output: string): string | undefined {
  const head = output.length > 20_000 ? output.slice(0, 20_000) : output;
  // Find the word, then widen to its line: one scan, no backtracking over long lines.
  const word = ERROR_WORD.exec(head);
  if (word) {
    const start = head.lastIndexOf("\n", word.index) + 1;
    const end = head.indexOf("\n", word.index);
    return quote(output, start, 160);
  }
  const first = /\S/.exec(head);
  return first ? quote(output, first.index, 100) : undefined;
}

/** The line of `output` that starts at `start`, whole (even past the scanned head), then clipped. */
function quote(output: string, start: number, max: number): string {
  const end = output.indexOf("\n", start);
  return clip(output.slice(start, end < 0 ? output.length : end).trim(), max);
}

/** 12345 → "12,345", without Intl (slow, and not needed for a count). */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function countLines(s: string): number {
  let n = 1;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

export function prunedOutputLine(call: string, output: string, images: number, redact: (text: string) => string): string {
  const facts = [`${thousands(output.length)} chars`, `${countLines(output)} lines`];
  const code = exitCode(output);
  if (code !== undefined) facts.push(`exit ${code}`);
  if (images) facts.push(`${images} image${images > 1 ? "s" : ""}`);
  const line = salientLine(redact(output));
  return `[output pruned] ${call} → ${facts.join(", ")}${line ? `; ${JSON.stringify(line)}` : ""}`;
}

/** `later`: the reference of the newest copy (`#212`, `#1.45`), not a message index, which another pass would shift. */
export function duplicateLine(call: string, later: string): string {
  return `[output pruned] ${call} → identical to the output at ${later}`;
}

const LEAF_LIMIT = 200;

const TOKEN_CHAR = /[\w+/=.~-]/;
/**
 * Where a long string leaf is cut: before the run of token characters the limit falls in, so no token
 * is split (half a token is a secret no shape recognises any more), and never inside a surrogate pair.
 */
function leafCut(v: string): number {
  let i = LEAF_LIMIT;
  while (i > 0 && TOKEN_CHAR.test(v[i - 1]) && TOKEN_CHAR.test(v[i])) i--;
  if (i > 0 && i < LEAF_LIMIT) return i;
  const c = v.charCodeAt(LEAF_LIMIT - 1);
  return c >= 0xd800 && c <= 0xdbff ? LEAF_LIMIT - 1 : LEAF_LIMIT;
}

function shrinkValue(v: unknown, redacted: (text: string) => string): unknown {
  if (typeof v === "string") {
    if (v.length <= LEAF_LIMIT) return v;
    const clean = redacted(v); // decoded from JSON: redacted again, whole, before the cut
    if (clean.length <= LEAF_LIMIT) return clean;
    const cut = leafCut(clean);
    return `${clean.slice(0, cut)} ...[truncated ${clean.length - cut} chars]`; // spaced: glued, it would end a shape
  }
  if (Array.isArray(v)) return v.map((x) => shrinkValue(x, redacted));
  // fromEntries defines own properties: a "__proto__" key stays a key, never a prototype.
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shrinkValue(x, redacted)]));
  return v;
}

/**
 * Long string leaves cut short; the result is still valid JSON. Undefined when not JSON or not smaller.
 * The arguments are redacted whole first: a leaf alone may not say what it holds.
 */
export function shrinkArguments(args: string, redacted: (text: string) => string): string | undefined {
  let shrunk: string;
  try {
    shrunk = JSON.stringify(shrinkValue(JSON.parse(redacted(args)), redacted));
  } catch {
    return undefined; // not JSON, or nested deeper than the stack: left as it is
  }
  return shrunk.length < args.length ? shrunk : undefined;
}
