// The text heuristic: one pass over the UTF-16 code units, charging the pieces o200k's
// pre-tokenizer cuts (words, digit triples, punctuation runs, whitespace runs) and dense scripts
// per character. The weights are fitted against exact o200k counts: bench/fit-estimate.ts.
//
// The pass is a table-driven automaton: each character is looked up as its class, and each pair of
// classes moves the state through one table lookup and adds the cost of the two states it passes.
// No branch depends on the text, which is what makes it ~750 MB/s here (a scan with a branch per
// rule ran at ~200; one with a branch for non-ASCII ~500, its optimized code thrown away at the
// first non-ASCII character; one lookup a character ~610: the chain of dependent lookups through
// the state was the scan's time, and a pair a lookup halves it. Two halves of a text read side by
// side, two chains, were no faster: the loads are the limit then).
// The rules it encodes are spelled out plainly in test/support/estimate-reference.ts, which the
// property test holds it to.

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

// Character classes (the automaton's input); letters first so `k <= OTHER` reads "is a letter". A
// const enum: the bundle holds its members as the numbers they are (top-level consts were variables).
const enum CharClass {
  LOWER,
  UPPER,
  OTHER,
  DIGIT,
  SPACE,
  NEWLINE,
  PUNCT,
  DENSE,
  /** A high surrogate: it and the unit after it are one astral code point, charged once. */
  ASTRAL,
}

/**
 * The code units charged apart from letters of other scripts, as [from, to, weight index]; a later
 * range wins over an earlier one (kana inside CJK).
 */
const DENSE_RANGES: [from: number, to: number, f: number][] = [
  [0x2000, 0x2e7f, 11], // punctuation and symbols: dashes, quotes, arrows, boxes
  [0x2e80, 0x9fff, 7], // CJK
  [0xf900, 0xfaff, 7],
  [0xff00, 0xffef, 7],
  [0x3040, 0x30ff, 8], // kana
  [0xac00, 0xd7af, 9], // hangul
  [0x1100, 0x11ff, 9],
  [0xd800, 0xdbff, 12], // a high surrogate starts an astral code point
];

/** The weight index of a non-ASCII code point's class, or -1 for a letter of another script. */
export function denseClass(c: number): number {
  let f = -1;
  for (const [from, to, w] of DENSE_RANGES) if (c >= from && c <= to) f = w;
  return f;
}

/** A state: the class of the run the last character belongs to, its position in it, and what entering it counts. */
interface State {
  cls: number;
  /** 1-based position in the run, capped where the rules stop telling positions apart. */
  pos: number;
  /** Indexes into WEIGHTS of the events counted on entering this state. */
  events: number[];
}

interface Automaton {
  states: State[];
  /** The class (index into KINDS) of every UTF-16 code unit: looked up, never computed, by the scan. */
  kinds: Uint8Array;
  /**
   * The state after two characters, at `state << 8 | first kind << 4 | second kind`, and the state
   * between them (after one character whatever the second).
   */
  two: Uint8Array;
  between: Uint8Array;
}

/** The classes the rules tell apart, as [class, dense weight index]: a code unit's kind is its index here. */
const KINDS = [
  [CharClass.LOWER, -1], [CharClass.UPPER, -1], [CharClass.OTHER, -1], [CharClass.DIGIT, -1], [CharClass.SPACE, -1], [CharClass.NEWLINE, -1], [CharClass.PUNCT, -1],
  [CharClass.DENSE, 7], [CharClass.DENSE, 8], [CharClass.DENSE, 9], [CharClass.DENSE, 11], [CharClass.ASTRAL, 12],
];
/** The kind of a code unit of dense weight index f (7, 8, 9, 11, 12). */
const kindOf = (f: number) => (f < 10 ? f : f - 1);

/** Built once on first use: no work at import. */
let automaton: Automaton | undefined;

function build(): Automaton {
  const states: State[] = [{ cls: -1, pos: 0, events: [] }];
  const index = new Map<string, number>([["-1 0 ", 0]]); // by key: a search of the list was most of the first pass's build
  const find = (cls: number, pos: number, events: number[]): number => {
    const key = `${cls} ${pos} ${events}`;
    let i = index.get(key);
    if (i === undefined) index.set(key, (i = states.push({ cls, pos, events }) - 1));
    return i;
  };
  // The rules: the state after a character of class k (and dense weight index f), from a run of
  // class `cls` at position `pos`.
  const step = ({ cls, pos }: State, k: number, f: number): number => {
    const same = cls === k;
    if (cls === CharClass.ASTRAL) return find(CharClass.DENSE, 1, []); // the low half of an astral code point: already charged
    switch (k) {
      case CharClass.LOWER:
      case CharClass.UPPER: {
        if (same) return find(k, Math.min(pos + 1, 7), pos + 1 >= 7 ? [1] : []); // letters past the 6th
        // A word starts after a non-letter, or at a capital after a lowercase letter (camelCase).
        const starts = cls > CharClass.OTHER || cls < 0 || (k === CharClass.UPPER && cls === CharClass.LOWER);
        return find(k, 1, starts ? [0] : []);
      }
      case CharClass.OTHER:
        return find(CharClass.OTHER, 1, cls >= CharClass.LOWER && cls <= CharClass.OTHER ? [10] : [0, 10]);
      case CharClass.DIGIT: // o200k cuts numbers into triples; a number takes no leading space: that is a token of its own
        if (same) return find(CharClass.DIGIT, (pos % 3) + 1, pos % 3 === 0 ? [2] : []);
        return find(CharClass.DIGIT, 1, cls === CharClass.SPACE ? [2, 13] : [2]);
      case CharClass.SPACE: // a single space joins the next word; a run of two or more is a token
        return same ? find(CharClass.SPACE, Math.min(pos + 1, 3), pos === 1 ? [6] : []) : find(CharClass.SPACE, 1, []);
      case CharClass.NEWLINE:
        return same ? find(CharClass.NEWLINE, 2, []) : find(CharClass.NEWLINE, 1, [5]);
      case CharClass.PUNCT:
        return same ? find(CharClass.PUNCT, 2, [4]) : find(CharClass.PUNCT, 1, [3, 4]);
      default: // dense: each character charged by its script
        return find(k, 1, [f]);
    }
  };
  const one = new Uint8Array(256 << 4); // a state is a byte: at most 256 of them
  for (let s = 0; s < states.length; s++) KINDS.forEach(([k, f], j) => (one[(s << 4) | j] = step(states[s], k, f)));
  // Two characters a step: the scan's time is the chain of dependent lookups through the state, which this halves.
  const two = new Uint8Array(states.length << 8);
  const between = new Uint8Array(states.length << 8);
  for (let s = 0; s < states.length; s++) {
    for (let a = 0; a < KINDS.length; a++) {
      for (let b = 0; b < KINDS.length; b++) {
        const x = (s << 8) | (a << 4) | b;
        between[x] = one[(s << 4) | a];
        two[x] = one[(between[x] << 4) | b];
      }
    }
  }
  // Filled by ranges: a call per code unit would cost the first pass of a process milliseconds.
  const kinds = new Uint8Array(65536).fill(CharClass.OTHER);
  // ASCII: punctuation but for letters, digits, blanks and line breaks.
  kinds.fill(CharClass.PUNCT, 0, 128).fill(CharClass.LOWER, 97, 123).fill(CharClass.UPPER, 65, 91).fill(CharClass.DIGIT, 48, 58);
  kinds[32] = kinds[9] = CharClass.SPACE;
  kinds[10] = kinds[13] = CharClass.NEWLINE;
  for (const [from, to, f] of DENSE_RANGES) kinds.fill(kindOf(f), from, to + 1);
  return { states, kinds, two, between };
}

/** The cost of entering each state under weights `w`, kept for the last `w` seen (the defaults, in use). */
let costs: { w: number[]; cost: Float64Array } | undefined;

function costOf(states: State[], w: number[]): Float64Array {
  if (costs?.w !== w) costs = { w, cost: Float64Array.from(states, (s) => s.events.reduce((sum, e) => sum + w[e], 0)) };
  return costs.cost;
}

/** The weighted count of `text`'s events; `w` is WEIGHTS, or a unit vector when fitting. */
export function scanTokens(text: string, w: number[]): number {
  automaton ??= build();
  const { kinds, two, between } = automaton;
  const cost = costOf(automaton.states, w);
  let state = 0;
  let total = 0;
  const n = text.length;
  let i = 0;
  // Four characters a turn, two a lookup: the loop's own bookkeeping was a quarter of its time.
  // Every character is looked up, ASCII too: a branch or a call taken only on rare characters has no
  // feedback when the loop is first optimized, and the optimized code is thrown away at the first one.
  for (; i + 3 < n; i += 4) {
    let x = (state << 8) | (kinds[text.charCodeAt(i)] << 4) | kinds[text.charCodeAt(i + 1)];
    const t = cost[between[x]] + cost[two[x]];
    state = two[x];
    x = (state << 8) | (kinds[text.charCodeAt(i + 2)] << 4) | kinds[text.charCodeAt(i + 3)];
    total += t + cost[between[x]] + cost[two[x]];
    state = two[x];
  }
  for (; i < n; i++) {
    state = between[(state << 8) | (kinds[text.charCodeAt(i)] << 4)];
    total += cost[state];
  }
  return total;
}

/** Estimated o200k tokens of `text`. */
export function heuristicTokens(text: string): number {
  return Math.round(scanTokens(text, WEIGHTS));
}
