// seams: a token split across two messages (issue 26). Each message's text is redacted alone, so the
// rest of a token at the start of the next message is a bare run no rule can tell from an id. Where
// one text ends in a run of token characters and the next begins with one, their join is redacted
// too, and when it masks what the two alone do not, both parts are masked. Redaction is handed in
// (the archive must not load it); nothing is imported, so this stays a few hundred bytes.

/** Characters a token, a key or an assigned value runs through (a split falls inside such a run). */
const TOKEN_CHAR = /[\w+/=.\-]/;
/** The mask; the same string as ./index.ts's REDACTED (not imported: see above). */
const MASK = "[REDACTED]";
/** How far before the tail run a credential's name may stand (window.ts's NAME_REACH). */
const NAME_REACH = 96;

/**
 * `clean` (each of `raw` redacted alone) with the parts of a secret split across adjacent texts
 * masked: for texts i-1 and i where `adjacent(i - 1)`, raw i-1 ending in a token run and raw i
 * beginning with one, the tail of raw i-1 (its run and NAME_REACH before it, for a name) joined with
 * raw i's head run is redacted; when that differs from the two redacted alone, a secret crosses the
 * seam: text i-1's tail becomes the join's redaction (which keeps only a listed vendor prefix; the
 * mask alone if anything is left after it) and text i's head run the mask. Reads each text's tail and
 * head once: linear.
 */
export function maskSeams(raw: string[], clean: string[], redact: (text: string) => string, adjacent = (_: number) => true): string[] {
  const out = [...clean];
  for (let i = 1; i < raw.length; i++) {
    const [left, right] = [raw[i - 1], raw[i]];
    let [run, head] = [left.length, 0];
    while (run && TOKEN_CHAR.test(left[run - 1])) run--;
    while (TOKEN_CHAR.test(right[head] ?? " ")) head++;
    if (run === left.length || !head || !adjacent(i - 1)) continue;
    const [tail, rest] = [left.slice(Math.max(0, run - NAME_REACH)), right.slice(0, head)];
    const [alone, restAlone, joined] = [tail, rest, tail + rest].map(redact);
    if (joined === alone + restAlone) continue;
    if (out[i - 1].endsWith(alone)) out[i - 1] = out[i - 1].slice(0, -alone.length) + (joined.endsWith("]") ? joined : MASK);
    if (out[i].startsWith(restAlone)) out[i] = MASK + out[i].slice(restAlone.length);
  }
  return out;
}
