// redact: secrets never cross a compaction boundary. Shapes, not known strings; linear-time patterns.
import { KUBERNETES_DATA, NOT_SECRET, SHAPES, type Shape, looksRandom, mixedRun } from "./shapes.js";

export const REDACTED = "[REDACTED]";
const KEY_BLOCK = "[REDACTED PRIVATE KEY]";
/** The vendor prefix of a token (`sk-proj-`, `xoxb-`, `ghp_`), or its first four characters (never a UUID's first group). */
function prefixOf(value: string): string {
  return /^[A-Za-z][A-Za-z\d]{0,6}[-_.](?:[a-z]{2,8}[-_])?/.exec(value)?.[0] ?? value.slice(0, 4);
}

/** Values of 24 characters or more keep a short prefix, so a log reader can tell which key it was. */
function mask(value: string): string {
  return value.length > 23 ? `${prefixOf(value)}…${REDACTED}` : REDACTED;
}

const BEGIN = /-----BEGIN[A-Z\d ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END[A-Z\d ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** A line break, real or escaped in JSON, and the indentation of a YAML block. */
const BREAK = String.raw`(?:\r?\n|\\r\\n|\\n)[ \t]{0,16}`;
/** A cut-off block's body: whole lines of base64, then a partial one that is long enough to be key material. */
const KEY_BODY = new RegExp(String.raw`(?:${BREAK}[A-Za-z\d+/=]{1,100}(?=\r?\n|\\[rn]|$))*(?:${BREAK}[A-Za-z\d+/=]{16}[A-Za-z\d+/=]*(?![\w-]))?`, "y");
/** A body line: indentation, then 16 to 100 base64 characters. */
const BODY_LINE = /^[ \t]{0,16}[A-Za-z\d+/=]{16,100}$/;

/** Where the line ending just before `i` starts, by the line break before it (real or escaped). */
function lineBefore(text: string, i: number, floor: number): [start: number, end: number] | undefined {
  const end = text[i - 1] === "\n" ? i - (text[i - 2] === "\r" ? 2 : 1) : text.startsWith("\\n", i - 2) ? i - (text.startsWith("\\r", i - 4) ? 4 : 2) : -1;
  if (end < floor) return undefined;
  const window = text.slice(Math.max(floor, end - 120), end); // a body line is never longer
  const start = Math.max(window.lastIndexOf("\n") + 1, window.lastIndexOf("\\n") + 2, 0) + Math.max(floor, end - 120);
  return [start, end];
}

/**
 * Key material before an END whose BEGIN was cut away (the output's head was dropped): the base64
 * lines right before it, walked back line by line, become the marker with the END.
 */
function redactOrphanBodies(text: string): string {
  let out = "";
  let at = 0;
  END.lastIndex = 0;
  for (let m = END.exec(text); m; m = END.exec(text)) {
    let start = m.index;
    for (let line = lineBefore(text, start, at); line && BODY_LINE.test(text.slice(...line)); line = lineBefore(text, start, at)) start = line[0];
    if (start === m.index) continue;
    out += text.slice(at, start) + KEY_BLOCK;
    at = END.lastIndex;
  }
  return out + text.slice(at);
}

/**
 * Private key blocks become one marker. A scan with two cursors, never a backtracking pattern: each
 * BEGIN runs to the next END, or, when the block was cut off (no END before the next BEGIN), to the
 * end of its base64 body.
 */
function redactKeyBlocks(text: string): string {
  if (!text.includes("PRIVATE KEY")) return text;
  let out = "";
  let at = 0;
  let end: RegExpExecArray | null = null;
  let ends = true; // once no END follows, none follows a later BEGIN either: never search twice
  BEGIN.lastIndex = 0;
  for (let begin = BEGIN.exec(text); begin; begin = BEGIN.exec(text)) {
    // an END still ahead serves every BEGIN before it: each END is found once
    if (ends && (!end || end.index < BEGIN.lastIndex)) {
      END.lastIndex = BEGIN.lastIndex;
      end = END.exec(text);
      ends = end !== null;
    }
    const next = text.indexOf("-----BEGIN", BEGIN.lastIndex);
    let stop: number;
    if (end && (next < 0 || next > end.index)) stop = end.index + end[0].length;
    else {
      KEY_BODY.lastIndex = BEGIN.lastIndex;
      KEY_BODY.exec(text);
      stop = KEY_BODY.lastIndex;
    }
    out += text.slice(at, begin.index) + KEY_BLOCK;
    at = stop;
    BEGIN.lastIndex = stop;
  }
  out += text.slice(at);
  return out.includes("-----END") ? redactOrphanBodies(out) : out;
}

/** `needed`: the shape's prefilter is known to hold (for a window of a longer text). */
export function apply(text: string, shape: Shape, needed = false): string {
  if (!needed && shape.needs && !shape.needs.test(text)) return text;
  return text.replace(shape.pattern, (match: string, ...args: unknown[]) => {
    const at = args[args.length - 2] as number;
    const group = shape.group?.find((g) => args[g - 1] !== undefined);
    const value = group ? (args[group - 1] as string) : match;
    // already masked (a kept prefix ends in "…"), or an id
    if (/…|REDACTED\]/.test(value) || NOT_SECRET.test(value)) return match;
    // a CSRF token (<meta name="csrf-token" content="…">) guards a form, it grants nothing
    if (/(?:csrf|xsrf)[^\n]{0,40}$/i.test(text.slice(Math.max(0, at - 40), at))) return match;
    if (group && shape.random?.includes(group) && !looksRandom(value)) return match;
    if (shape.valid && !shape.valid(value, text.slice(Math.max(0, at - 64), at), text[at + match.length] ?? "", match)) return match;
    if (!group) return mask(value);
    const i = match.lastIndexOf(value);
    return match.slice(0, i) + mask(value) + match.slice(i + value.length);
  });
}

/**
 * What is redacted text by text, even in a batch: key blocks, and Kubernetes data only where a Secret
 * is (`manifest`: known to be one, when the text is a window of a longer one).
 */
function redactBlocks(text: string, manifest = false): string {
  return apply(redactKeyBlocks(text), KUBERNETES_DATA, manifest);
}

function redactShapes(text: string): string {
  for (const shape of SHAPES) text = apply(text, shape);
  return text;
}

/** A JSON `\u` or URL `%` escape of a printable ASCII character. */
const ESCAPE_NEAR = /\\u00[2-7]|%[2-7]/;
const ESCAPE = /\\u00([2-7][\dA-Fa-f])|%([2-7][\dA-Fa-f])/g;
/** What an escape is decoded to: the characters of tokens, names and URLs, never a quote or a space. */
const DECODED = /[\w+/=.~:@&?-]/;
/** The characters of a run around an escape; the rest of a run, from where it is. */
const RUN = /[\w+/=.~:@&?%\\-]/;
const RUN_ON = /[\w+/=.~:@&?%\\-]*/y;

const DECODE = new RegExp(ESCAPE); // its own lastIndex: decoding runs inside the scan with ESCAPE
const decode = (run: string) =>
  run.replace(DECODE, (e, u?: string, p?: string) => {
    const c = String.fromCharCode(parseInt(u ?? p ?? "", 16));
    return DECODED.test(c) ? c : e;
  });

/**
 * Secrets written with escapes (a token with one `\u0042` in JSON arguments, a URL-encoded query in a
 * redirect): each run around an escape is decoded and redacted with what follows it on its line (64
 * characters and the token they end in, escapes decoded too) and 48 characters before it; where that
 * finds a secret, the decoded, redacted window stands in. Windows are bounded and overlap by at most
 * 64 characters: linear.
 */
function redactEncoded(text: string): string {
  if (!ESCAPE_NEAR.test(text)) return text;
  let out = "";
  let at = 0;
  ESCAPE.lastIndex = 0;
  for (let m = ESCAPE.exec(text); m; m = ESCAPE.exec(text)) {
    let start = m.index;
    while (start > at && RUN.test(text[start - 1])) start--;
    RUN_ON.lastIndex = ESCAPE.lastIndex;
    RUN_ON.exec(text);
    const end = RUN_ON.lastIndex;
    ESCAPE.lastIndex = end;
    if (end - start < 8) continue; // decoded, under 6 characters: no secret
    // the rest of the line: 64 characters, and the token running on past them (never half of it)
    let stop = Math.min(text.length, end + 64);
    while (stop < end + 256 && stop < text.length && RUN.test(text[stop])) stop++;
    const nl = text.slice(end, stop).indexOf("\n");
    if (nl >= 0) stop = end + nl;
    // every escape in the window is decoded: one window serves those with 64 characters after them
    const plain = decode(text.slice(start, stop));
    ESCAPE.lastIndex = Math.max(end, stop - 64);
    if (plain.length === stop - start) continue;
    let before = text.slice(Math.max(at, start - 48), start);
    before = before.slice(before.lastIndexOf("\n") + 1);
    const window = before + plain;
    const clean = redactShapes(window);
    if (clean === window || !clean.startsWith(before)) continue;
    out += text.slice(at, start) + clean.slice(before.length);
    at = ESCAPE.lastIndex = stop;
  }
  return out + text.slice(at);
}

/** Replaces every recognised secret in `text`; everything else is returned as it was. */
export function redact(text: string): string {
  return redactEncoded(redactShapes(redactBlocks(text)));
}

/** Whether a Secret manifest's `kind`, wherever it stands, would redact a data entry in `text`. */
function secretDataIn(text: string): boolean {
  return apply(text, KUBERNETES_DATA, true) !== text;
}

/** A window of a longer text, redacted as the whole would redact it, given whether the whole is a Secret manifest. */
function redactWindow(text: string, manifest: boolean): string {
  return redactEncoded(redactShapes(redactBlocks(text, manifest)));
}

/** What streaming redaction (./stream.ts, loaded lazily) works with: handed over, not imported, so no chunk is shared. */
export const streamKit = { redact, redactWindow, secretDataIn, bodyLine: BODY_LINE, manifestKind: KUBERNETES_DATA.needs! };
export type StreamKit = typeof streamKit;

/** A run of token characters long enough to be a key. */
const TOKEN_RUN = /[\w+/=~-]{16}[\w+/=~-]*/g;

/**
 * An error message, safe to report: redacted whole, then every run with 16 letters and digits mixed
 * masked too (a provider echoes a key in whatever form it was sent, even one no shape knows), ids
 * excepted; capped last, so no cut can leave a piece of a secret.
 */
export function redactMessage(text: string, max = 500): string {
  const clean = redact(text).replace(TOKEN_RUN, (run) => (NOT_SECRET.test(run) || !mixedRun(run, 16) ? run : mask(run)));
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/**
 * Redaction as the summary stage receives it: the lazily loaded modules take it from the pass rather
 * than importing it, so a bundle of `import { plan }` (which never redacts) does not carry it in a
 * chunk shared with them (esbuild groups code by the files an entry reaches, not by what it runs).
 */
export interface Redactor {
  redact(text: string): string;
  redactMany(texts: string[]): string[];
  redactMessage(text: string, max?: number): string;
  streamKit: StreamKit;
}

/**
 * Joins texts apart from each other: no shape matches across a newline followed by NUL, since
 * every pattern stops at whitespace or needs a word or quote character where NUL stands.
 */
const SEPARATOR = "\n\u0000\n";

/**
 * `redact` over many texts in one pass of each pattern (a compaction redacts hundreds of turns:
 * one scan of the joined text costs a fraction of hundreds of short scans).
 */
export function redactMany(texts: string[]): string[] {
  if (texts.length < 2 || texts.some((t) => t.includes("\u0000"))) return texts.map(redact);
  const out = redactShapes(texts.map((t) => redactBlocks(t)).join(SEPARATOR)).split(SEPARATOR);
  // escapes are decoded text by text (their windows never cross a text's end)
  return out.length === texts.length ? out.map(redactEncoded) : texts.map(redact); // never expected; stay correct anyway
}

export const redactor: Redactor = { redact, redactMany, redactMessage, streamKit };
