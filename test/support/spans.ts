// What redaction removed from a text, span by span, and which shape removed it: the precision
// review of the fixture transcripts (test/redact-precision.test.ts, bench/redact.ts).
import { REDACTED, apply, redact, redactor } from "../../src/redact/index.js";
import { completed } from "../../src/redact/more.js";
import { KUBERNETES_DATA } from "../../src/redact/shapes.js";

/** The whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts). */
const whole = completed(redactor);

export interface Span {
  /** The original text the marker stands for (a kept vendor prefix excluded). */
  text: string;
  /** The shape that removes it alone: the start of its pattern, or "key block" / "encoded". */
  shape: string;
}

const MARKER = new RegExp(`…\\${REDACTED.slice(0, -1)}\\]|\\[REDACTED(?: PRIVATE KEY)?\\]`, "g");
const LABEL = (source: string) => source.replace(/\\\\/g, "\\").slice(0, 48);

/** The shape that alone removes `span` from `text`. */
function shapeOf(text: string, span: string): string {
  for (const shape of [KUBERNETES_DATA, ...whole.streamKit.shapes]) if (!apply(text, shape).includes(span)) return LABEL(shape.pattern.source);
  return span.includes("PRIVATE KEY") || /^[A-Za-z\d+/=\s\\nr]+$/.test(span) ? "key block" : "encoded (\\u or %XX decoded)";
}

/** The spans `redact` removed from `text`: the original between the kept pieces around each marker. */
export function spans(text: string): Span[] {
  const out = redact(text);
  if (out === text) return [];
  const kept = out.split(MARKER);
  const found: Span[] = [];
  let at = text.indexOf(kept[0]) + kept[0].length;
  for (const piece of kept.slice(1)) {
    const next = piece ? text.indexOf(piece, at) : text.length;
    if (next < 0) break; // text decoded around an encoded secret: the rest no longer lines up
    const span = text.slice(at, next);
    found.push({ text: span, shape: shapeOf(text, span) });
    at = next + piece.length;
  }
  return found;
}

/** The lines of every string of some transcripts' messages (`strings`), those longer than `min` characters. */
export const linesOf = (transcripts: { messages: unknown }[], min = 0): string[] =>
  transcripts
    .flatMap((t) => strings(t.messages))
    .flatMap((s) => s.split("\n"))
    .filter((l) => l.length > min);

/** Every string of a JSON value: what a compaction hands to redaction, one text per content and argument. */
export function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}
