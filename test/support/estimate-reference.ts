// The estimate's rules written plainly, one branch per rule: the specification that the table-driven
// automaton in src/estimate/heuristic.ts must match exactly (test/estimate.test.ts, property test).
// This was the shipped scan until the automaton replaced it for speed.
import { denseClass } from "../../src/estimate/heuristic.js";

// Character classes; letters first so `k <= OTHER` reads "is a letter".
const LOWER = 1;
const UPPER = 2;
const OTHER = 3;
const DIGIT = 4;
const SPACE = 5;
const NEWLINE = 6;
const PUNCT = 7;
const DENSE = 8;

/** The weighted count of `text`'s events under weights `w`, rule by rule. */
export function referenceScan(text: string, w: number[]): number {
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
