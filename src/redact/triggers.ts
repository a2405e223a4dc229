// Triggers: which shapes of a catalogue can match a text, from one scan of it. Each prefilter (`needs`)
// is read for words one of which every text it holds holds too (`sqlplus`, `docker login`); a text
// that holds none of a shape's, in either case, is not read by the shape at all. The prefilter itself
// still runs where a word is found. Small texts are redacted by the hundred, and dozens of prefilter
// scans of each cost several times the one scan here.

/** An alternative's leading literals (a few escaped too), to the first a quantifier may drop. */
const LEADING = /^(?:(?:[\w :=<@~,'"-]|\\[.(])(?![?*{]))*/;

/**
 * Words, in lower case, one of which each match of `pattern` holds: the leading literals of what
 * follows each `|` (every alternative starts there, at the start or after one) and of the start;
 * undefined where one has fewer than two (a character alone is in most texts).
 */
export function wordsOf(pattern: RegExp | undefined): string[] | undefined {
  const words = pattern?.source.split("|").map((a) => LEADING.exec(a)![0].replace(/\\/g, "").toLowerCase());
  return words?.every((w) => w.length > 1) ? words : undefined;
}

/**
 * For some prefilters (a catalogue's `needs`), a scan that tells which a text holds (2), may hold (1)
 * and cannot (0): one with words only where the text holds one, and one that is its words alone (in
 * either case) wherever it does (test/redact-triggers.test.ts).
 */
export function triggersOf(prefilters: (RegExp | undefined)[]): (text: string) => Uint8Array {
  const lists = prefilters.map(wordsOf);
  const always = Uint8Array.from(lists, (l) => +!l);
  const holds = prefilters.map((r) => (r?.ignoreCase && r.source.split("|").every((a) => LEADING.exec(a)![0] === a) ? 2 : 1));
  // one pattern for every word, the longest first: where it finds one, each word it starts with is there too
  const words = [...new Set(lists.flat())].filter((w) => w !== undefined).sort((a, b) => b.length - a.length);
  // each word's prefilters, those with a word it starts with: found by its prefixes (every word has two
  // characters or more), not by reading every list for every word (~3 ms of a fresh process's first pass)
  const of = new Map<string, number[]>();
  lists.forEach((l, k) => l?.forEach((v) => of.set(v, [...(of.get(v) ?? []), k])));
  const within = new Map(words.map((w) => [w, [...new Set(Array.from({ length: w.length - 1 }, (_, p) => of.get(w.slice(0, p + 2)) ?? []).flat())]]));
  const any = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"), "g");
  any.test("\0".repeat(1000)); // compiled to machine code at once (see `compiled` in ./index.ts)
  return (text) => {
    const found = always.slice();
    const low = text.toLowerCase();
    any.lastIndex = 0;
    for (let m = any.exec(low); m; m = any.exec(low)) {
      for (const k of within.get(m[0])!) found[k] = holds[k];
      any.lastIndex = m.index + 1; // a word may start inside another
    }
    return found;
  };
}
