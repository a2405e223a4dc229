// The text heuristic: one pass over the UTF-16 code units, charging the pieces o200k's
// pre-tokenizer cuts (words, digit triples, punctuation runs, whitespace runs) and dense scripts
// per character. The weights are fitted against exact o200k counts: bench/fit-estimate.ts.

/** What each event of the scan costs, in tokens; the order is the `W_*` indices below. */
export const WEIGHTS = [1.19, 0.19, 1.55, 0.08, 0.24, 0.59, 1.48, 0.72, 0.66, 0.72, 0.16, 0.92, 1.4];
export const FEATURES = [
  "word start",
  "letter past the 6th of a word",
  "digit triple",
  "punctuation run",
  "punctuation char",
  "newline run",
  "space run (2+)",
  "CJK ideograph",
  "kana",
  "hangul",
  "other letter (accented, Greek, Cyrillic…)",
  "symbol (U+2000–2E7F)",
  "astral code point (emoji)",
] as const;

// Character classes; letters first so `k <= OTHER` reads "is a letter".
const LOWER = 1;
const UPPER = 2;
const OTHER = 3;
const DIGIT = 4;
const SPACE = 5;
const NEWLINE = 6;
const PUNCT = 7;
const DENSE = 8;

/** The weighted count of `text`'s events; `w` is WEIGHTS, or a unit vector when fitting. */
export function scanTokens(text: string, w: ArrayLike<number>): number {
  let t = 0;
  let prev = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let k = DENSE;
    let f = -1; // the per-character weight of a dense or non-ASCII class
    if (c < 128) {
      k = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : c === 32 || c === 9 ? SPACE : c === 10 || c === 13 ? NEWLINE : PUNCT;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      f = 12;
      i++; // the low surrogate belongs to the same code point
    } else if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff)) f = 9;
    else if (c >= 0x3040 && c <= 0x30ff) f = 8;
    else if ((c >= 0x2e80 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef)) f = 7;
    else if (c >= 0x2000 && c < 0x2e80) f = 11;
    else k = OTHER;
    run = k === prev ? run + 1 : 0;
    if (k <= OTHER) {
      // A word starts after a non-letter, or at a capital after a lowercase letter (camelCase).
      if (prev > OTHER || prev === 0 || (k === UPPER && prev === LOWER)) t += w[0];
      if (k === OTHER) t += w[10];
      else if (run >= 6) t += w[1]; // long words split into several tokens
    } else if (k === DIGIT) {
      if (run % 3 === 0) t += w[2]; // o200k cuts numbers into triples
    } else if (k === PUNCT) {
      t += w[4];
      if (run === 0) t += w[3];
    } else if (k === NEWLINE) {
      if (run === 0) t += w[5];
    } else if (k === SPACE) {
      if (run === 1) t += w[6]; // a single space joins the next word
    } else t += w[f];
    prev = k;
  }
  return t;
}

/** Estimated o200k tokens of `text`. */
export function heuristicTokens(text: string): number {
  return Math.round(scanTokens(text, WEIGHTS));
}
