// redact: secrets never cross a compaction boundary. Shapes, not known strings; linear-time patterns.
import { NOT_SECRET, SHAPES, looksRandom } from "./shapes.js";

export const REDACTED = "[REDACTED]";
const KEY_BLOCK = "[REDACTED PRIVATE KEY]";
/** Values at least this long keep a short prefix, so a log reader can tell which key it was. */
const KEEP_PREFIX_FROM = 24;

/** The vendor prefix of a token (`sk-proj-`, `xoxb-`, `ghp_`), or its first four characters. */
function prefixOf(value: string): string {
  const vendor = /^[A-Za-z][A-Za-z0-9]{0,9}[-_.](?:[a-z]{2,8}[-_])?/.exec(value)?.[0];
  return vendor && vendor.length <= 12 ? vendor : value.slice(0, 4);
}

function mask(value: string): string {
  return value.length >= KEEP_PREFIX_FROM ? `${prefixOf(value)}…${REDACTED}` : REDACTED;
}

const BEGIN = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const KEY_BODY = /(?:[A-Za-z0-9+/=\r\n]|\\n)*/y;

/**
 * Private key blocks become one marker. A scan with two cursors, never a backtracking pattern: each
 * BEGIN runs to the next END, or, when the block was cut off, to the end of its base64 body.
 */
function redactKeyBlocks(text: string): string {
  if (!text.includes("PRIVATE KEY")) return text;
  let out = "";
  let at = 0;
  let ends = true; // once no END follows, none follows a later BEGIN either: never search twice
  BEGIN.lastIndex = 0;
  for (let begin = BEGIN.exec(text); begin; begin = BEGIN.exec(text)) {
    END.lastIndex = BEGIN.lastIndex;
    const end: RegExpExecArray | null = ends ? END.exec(text) : null;
    ends = end !== null;
    let stop: number;
    if (end) stop = END.lastIndex;
    else {
      KEY_BODY.lastIndex = BEGIN.lastIndex;
      KEY_BODY.exec(text);
      stop = KEY_BODY.lastIndex;
    }
    out += text.slice(at, begin.index) + KEY_BLOCK;
    at = stop;
    BEGIN.lastIndex = stop;
  }
  return out + text.slice(at);
}

function redactShapes(text: string): string {
  let out = text;
  for (const shape of SHAPES) {
    if (shape.needs && !shape.needs.test(out)) continue;
    out = out.replace(shape.pattern, (match: string, ...groups: unknown[]) => {
      const group = typeof shape.group === "number" ? shape.group : shape.group?.find((g) => groups[g - 1] !== undefined);
      const value = group ? (groups[group - 1] as string | undefined) : match;
      if (!value || value.includes(REDACTED) || NOT_SECRET.test(value)) return match;
      if (shape.entropy && !looksRandom(value)) return match;
      if (shape.valid && !shape.valid(value)) return match;
      if (!group) return mask(value);
      const at = match.lastIndexOf(value);
      return match.slice(0, at) + mask(value) + match.slice(at + value.length);
    });
  }
  return out;
}

/** Replaces every recognised secret in `text`; everything else is returned as it was. */
export function redact(text: string): string {
  return redactShapes(redactKeyBlocks(text));
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
  const out = redactShapes(texts.map(redactKeyBlocks).join(SEPARATOR)).split(SEPARATOR);
  return out.length === texts.length ? out : texts.map(redact); // never expected; stay correct anyway
}
