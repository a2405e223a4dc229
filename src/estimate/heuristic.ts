// The text heuristic: one pass over the UTF-16 code units, charging the pieces o200k's
// pre-tokenizer cuts (words, digit triples, punctuation runs, whitespace runs) and dense scripts
// per character. The weights are fitted against exact o200k counts: bench/fit-estimate.ts.

/** What each event of the scan costs, in tokens, in the order of FEATURES. */
export const WEIGHTS = [1.0, 0.38, 1.24, 0.25, 0.28, 0.42, 1.04, 0.72, 0.66, 0.71, 0.2, 0.65, 1.4, 1.12];
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
  "number after a space",
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

/** The weight index of a non-ASCII code point's class, or -1 for a letter of another script. */
function denseClass(c: number): number {
  if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff)) return 9; // hangul
  if (c >= 0x3040 && c <= 0x30ff) return 8; // kana
  if ((c >= 0x2e80 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef)) return 7; // CJK
  if (c >= 0x2000 && c < 0x2e80) return 11; // punctuation and symbols: dashes, quotes, arrows, boxes
  return c >= 0xd800 && c <= 0xdbff ? 12 : -1; // a high surrogate starts an astral code point
}

/**
 * The weighted count of `text`'s events; `w` is WEIGHTS, or a unit vector when fitting. Events are
 * counted in integers and weighted once at the end: the loop stays branch and increment only.
 */
export function scanTokens(text: string, w: number[]): number {
  let words = 0;
  let long = 0;
  let triples = 0;
  let puncts = 0;
  let punctRuns = 0;
  let newlines = 0;
  let spaces = 0;
  let others = 0;
  let spacedNumbers = 0;
  let dense = 0;
  let prev = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let k: number;
    if (c >= 97 && c <= 122) {
      // The common cases first, whole: a lowercase letter, then a space.
      if (prev === LOWER) {
        if (++run >= 6) long++;
      } else {
        if (prev !== UPPER && prev !== OTHER) words++;
        prev = LOWER;
        run = 0;
      }
      continue;
    }
    if (c === 32) {
      if (prev === SPACE) {
        if (++run === 1) spaces++;
      } else {
        prev = SPACE;
        run = 0;
      }
      continue;
    }
    if (c >= 97) {
      if (c < 128) k = PUNCT;
      else {
        const f = denseClass(c);
        k = f < 0 ? OTHER : DENSE;
        if (f >= 0) dense += w[f];
        if (f === 12) i++; // the low surrogate belongs to the same code point
      }
    } else if (c >= 65) k = c <= 90 ? UPPER : PUNCT;
    else if (c >= 48) k = c <= 57 ? DIGIT : PUNCT;
    else k = c === 32 || c === 9 ? SPACE : c === 10 || c === 13 ? NEWLINE : PUNCT;
    if (k === prev) {
      run++;
      if (k === PUNCT) puncts++;
      else if (k === UPPER) long += run >= 6 ? 1 : 0;
      else if (k === OTHER) others++;
      else if (k === DIGIT) triples += run % 3 === 0 ? 1 : 0; // o200k cuts numbers into triples
      else if (k === SPACE) spaces += run === 1 ? 1 : 0; // a single space joins the next word
      continue;
    }
    run = 0;
    if (k <= OTHER) {
      // A word starts after a non-letter, or at a capital after a lowercase letter (camelCase).
      if (prev > OTHER || prev === 0 || (k === UPPER && prev === LOWER)) words++;
      if (k === OTHER) others++;
    } else if (k === PUNCT) {
      puncts++;
      punctRuns++;
    } else if (k === DIGIT) {
      triples++;
      if (prev === SPACE) spacedNumbers++; // numbers take no leading space: it is a token of its own
    }
    else if (k === NEWLINE) newlines++;
    prev = k;
  }
  return words * w[0] + long * w[1] + triples * w[2] + punctRuns * w[3] + puncts * w[4] + newlines * w[5] + spaces * w[6] + others * w[10] + spacedNumbers * w[13] + dense;
}

/** Estimated o200k tokens of `text`. */
export function heuristicTokens(text: string): number {
  return Math.round(scanTokens(text, WEIGHTS));
}
