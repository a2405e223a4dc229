// A tool output cut to its first and last characters, the error and exit lines between them kept, and
// a note citing the whole in the archive: an unread output that alone would take the request over the
// window (shrinkOutput, by a pass), or one over maxToolOutputTokens when it is written (trim.ts).
import { SHRINK_MIN_KEEP } from "../options.js";

const NOTABLE = /^.*\b(?:error|exception|traceback|failed|failure|fatal|panic|exit(?:ed)?[ _-]?(?:code|status))\b.*$/gim;
/** A notable line longer than this is clipped. */
const NOTABLE_LINE_MAX = 300;

/** The notable (error, exit-status) lines of `text`, in order, each clipped. */
export const notableLines = (text: string): string[] => (text.match(NOTABLE) ?? []).map((l) => l.slice(0, NOTABLE_LINE_MAX));

/**
 * `text` as its first and last `edge` characters, the notable lines not wholly inside them, in order,
 * while they fit in `room` characters (one that does not is skipped, never cut), and a note saying
 * what was cut (`done`), why, and where the whole output is (`ref`).
 */
export function cutOutput(text: string, edge: number, room: number, ref: string, done: string, why: string): string {
  const lines: string[] = [];
  for (const m of text.matchAll(NOTABLE)) {
    const line = m[0].slice(0, NOTABLE_LINE_MAX);
    if (m.index + m[0].length > edge && m.index < text.length - edge && line.length < room && (room -= line.length + 1) >= 0) lines.push(line);
  }
  return `${text.slice(0, edge)}\n[output ${done} ${ref}: kept the first ${edge} and the last ${edge} of ${text.length} characters${
    lines.length ? ` and ${lines.length} error lines from between` : ""
  }; ${why}. The whole output is archived as ${ref}]\n${lines.join("\n")}\n${text.slice(text.length - edge)}`;
}

/**
 * `text` (redacted whole) in about `max` characters, at least SHRINK_MIN_KEEP of each end: its head
 * and tail, the notable lines from between (each clipped, within a quarter of the room), and a note
 * saying what was cut and where the whole output is (`ref`).
 */
export function shrinkOutput(text: string, max: number, ref: string): string {
  const edge = Math.max(SHRINK_MIN_KEEP, Math.floor(max * 0.375));
  return cutOutput(text, edge, edge * 0.6, ref, "shrunk", "whole it would not fit the context window");
}
