// Triggers: which shapes of a catalogue can match a text, from one scan of it. Each prefilter (`needs`)
// is read for words one of which every text it holds holds too (`sqlplus`, `docker login`); a text
// that holds none of a shape's, in either case, is not read by the shape at all. The prefilter itself
// still runs where a word is found. Small texts are redacted by the hundred, and dozens of prefilter
// scans of each cost several times the one scan here.

/** An alternative's leading literals (a few escaped too), to the first a quantifier may drop: whether a prefilter is its words alone. */
const LEADING = /^(?:(?:[\w :=<@~,'"-]|\\[.(])(?![?*{]))*/;
/** The same for words: a `\b` before them dropped, more escapes, and the invisible characters (./more.ts). */
const WORD = /^(?:\\b)?((?:(?:[\w :=<@~,'"%-]|\\[.(|/*\\]|\\u(?:200[b-d]|2060|feff))(?![?*{]))*)/;

/** A pattern's alternatives: split at each `|` outside a group, a class or an escape. */
function alternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(" || c === ")") depth += c === "(" ? 1 : -1;
    else if (c === "|" && !depth) out.push(source.slice(from, i)), (from = i + 1);
  }
  return [...out, source.slice(from)];
}

/**
 * Words, in lower case, one of which each match of `pattern` holds: the leading literals of each
 * alternative; undefined where one has fewer than two characters (an ASCII character alone is in
 * most texts; an invisible one is not).
 */
export function wordsOf(pattern: RegExp | undefined): string[] | undefined {
  const words = pattern && alternatives(pattern.source).map((a) => WORD.exec(a)![1].replace(/\\(?:u(\w{4})|(.))/g, (_, u, c) => (u ? String.fromCharCode(parseInt(u, 16)) : c)).toLowerCase());
  return words?.every((w) => w.length > 1 || w > "\x7f") ? words : undefined;
}

/**
 * For some prefilters (a catalogue's `needs`), a scan that tells which a text holds (2), may hold (1)
 * and cannot (0): one with words only where the text holds one, and one that is its words alone (in
 * either case) wherever it does (test/redact-triggers.test.ts). The words make one automaton
 * (Aho-Corasick): a table step a byte of the text's lower case finds each word wherever it ends,
 * inside another too. A pattern of the catalogue's ~110 words, tried one by one at every position,
 * read text at a third of the speed (test/redact-scan.test.ts holds the two equal).
 */
export function triggersOf(prefilters: (RegExp | undefined)[]): (text: string, last?: Int32Array) => Uint8Array {
  const lists = prefilters.map(wordsOf);
  const always = Uint8Array.from(lists, (l) => +!l);
  const holds = prefilters.map((r) => (r?.ignoreCase && r.source.split("|").every((a) => LEADING.exec(a)![0] === a) ? 2 : 1));
  // a column for each byte of a word (its UTF-8, in lower case); 0: any other byte
  const columns = new Uint8Array(256);
  let width = 1;
  // (words in UTF-8, as the text is read)
  const utf8 = lists.map((l) => l?.map((w) => String.fromCharCode(...encoder.encode(w))));
  for (const c of new Set(utf8.flat().join(""))) columns[c.charCodeAt(0)] = width++;
  // the trie of the words: each state's children by character, and the prefilters of a word ending there
  const kids: Record<string, number>[] = [{}];
  const ends: number[][] = [[]];
  utf8.forEach((list, k) => {
    for (const w of list ?? []) {
      let s = 0;
      for (const c of w) s = kids[s][c] ??= (ends.push([]), kids.push({}) - 1);
      ends[s].push(k);
    }
  });
  // breadth first, a state's moves are its longest proper suffix's but to its children, and the words
  // ending there that suffix's too; a state is its row's start (state × width), `marks` where words end
  // (a Uint16Array table, half the cache lines, cost a fresh process's first pass ~5 ms: round 8)
  const table = new Int32Array(kids.length * width);
  const marks = new Uint8Array(table.length);
  const suffix = [0];
  const queue = [0];
  for (const s of queue) {
    const row = suffix[s] * width;
    if (s) table.copyWithin(s * width, row, row + width), ends[s].push(...ends[suffix[s]]);
    marks[s * width] = +!!ends[s].length;
    for (const c in kids[s]) {
      const t = kids[s][c];
      const column = columns[c.charCodeAt(0)];
      suffix[t] = s && table[row + column] / width;
      table[s * width + column] = t * width;
      queue.push(t);
    }
  }
  // upper-case ASCII read as its lower case: a chunk of ASCII is read as it is, without toLowerCase
  for (let c = 65; c <= 90; c++) columns[c] = columns[c + 32];
  // (the chunk each state's words were last noted in: once a chunk, where words recur every few characters)
  const noted = new Uint32Array(kids.length);
  let chunks = 0;
  // `last`, when given: for each prefilter, where the text holds none of its words after (the end of the
  // chunk its last word ends in; -1 where it has no words or the text none)
  return (text, last) => {
    const found = always.slice();
    // read in lower case and UTF-8, a chunk at a time: a loop over a string's characters runs at half
    // the speed once it has met strings of several kinds (sliced, joined, two-byte), one over bytes never
    for (let from = 0, s = 0; from < text.length; from += CHUNK) {
      const chunk = text.slice(from, from + CHUNK);
      const at = ++chunks;
      const written = encoder.encodeInto(chunk, bytes).written;
      // (not ASCII: read again in lower case, İ's is longer, K's is ASCII.) Both calls run for every chunk,
      // an ASCII one's on "": V8 threw away this loop's optimized code at a fresh process's first text past
      // ASCII, where a call that had never run stood, and optimized it again
      const n = encoder.encodeInto((written > chunk.length ? chunk : "").toLowerCase(), bytes).written || written;
      for (let i = 0; i < n; i++) {
        s = table[s + columns[bytes[i]]];
        if (marks[s] && noted[s / width] !== at) {
          noted[s / width] = at;
          for (const k of ends[s / width]) (found[k] = holds[k]), last && (last[k] = Math.min(text.length, from + CHUNK));
        }
      }
    }
    return found;
  };
}

/** Characters read at a time; their UTF-8 in lower case (3 bytes a character at most, İ's 3 in all) fits `bytes`. */
const CHUNK = 8192;
const encoder = new TextEncoder();
const bytes = new Uint8Array(CHUNK * 3);
