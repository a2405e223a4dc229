// An unread tool output that alone would take the request over the window, cut to fit: its first and
// last lines kept, the error and exit lines between them kept, a note citing the whole in the archive.
import { SHRINK_MIN_KEEP } from "../options.js";

const NOTABLE = /^.*\b(?:error|exception|traceback|failed|failure|fatal|panic|exit(?:ed)?[ _-]?(?:code|status))\b.*$/gim;

/**
 * `text` (redacted whole) in about `max` characters, at least SHRINK_MIN_KEEP of each end: its head
 * and tail, the notable lines from between (each clipped, within a quarter of the room), and a note
 * saying what was cut and where the whole output is (`ref`).
 */
export function shrinkOutput(text: string, max: number, ref: string): string {
  const edge = Math.max(SHRINK_MIN_KEEP, Math.floor(max * 0.375));
  const head = text.slice(0, edge);
  const tail = text.slice(-edge);
  let room = edge * 0.6;
  const lines = (text.slice(edge, -edge).match(NOTABLE) ?? []).map((l) => l.slice(0, 300)).filter((l) => (room -= l.length) > 0);
  return `${head}\n[output shrunk ${ref}: kept the first ${edge} and the last ${edge} of ${text.length} characters${
    lines.length ? ` and ${lines.length} error lines from between` : ""
  }; whole it would not fit the context window. The whole output is archived as ${ref}]\n${lines.join("\n")}\n${tail}`;
}
