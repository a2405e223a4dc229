// Triggers: which shapes of a catalogue can match a text, from one scan of it. Each shape's prefilter
// (`needs`), or else its pattern, is read for the strings every match starts with (`sqlplus`, `//`,
// `eyj`); a text that holds none of a shape's, in either case, is skipped without running a regex.
// The exact prefilter still runs where a trigger is found. Small texts are redacted by the hundred,
// and dozens of prefilter scans each cost more than the one scan here.
import type { Shape } from "./shapes.js";

/**
 * A character in lower case, or undefined when the text's lower case might not hold it: only ASCII
 * and characters without case keep their place under `toLowerCase` (the prefilters' letters are ASCII).
 */
const lower = (c: string) => (c < "\x80" ? c.toLowerCase() : c.toLowerCase() === c && c.toUpperCase() === c ? c : undefined);

/** One token of a pattern's source: an escape, a class, a group's opening, a quantifier, a character. */
const TOKEN = /\\(?:u[\dA-Fa-f]{4}|x[\dA-Fa-f]{2}|[^])|\[(?:\\[^]|[^\]\\])*\]|\((?:\?(?:<?[=!]|:))?|\{\d+(?:,\d*)?\}\??|[?*+]\??|[^]/g;
const CONTROL: Record<string, string> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", 0: "\0" };
/** More strings than this and a prefix stops growing. */
const MOST = 64;

/** The characters one token matches, when few and known; undefined otherwise. */
function charsOf(t: string): string[] | undefined {
  if (t.length === 1) return /[.^$|()[\]{}?*+\\]/.test(t) ? undefined : [t];
  if (t === "\\d") return [..."0123456789"];
  if (t[0] === "\\") return t.length > 2 ? [String.fromCharCode(parseInt(t.slice(2), 16))] : /[A-Za-z\d]/.test(t[1]) ? (CONTROL[t[1]] ? [CONTROL[t[1]]] : undefined) : [t[1]];
  if (t[0] !== "[" || t[1] === "^") return undefined;
  const out: string[] = [];
  const items = t.slice(1, -1).match(/\\u[\dA-Fa-f]{4}|\\[^]|[^]/g) ?? [];
  for (let i = 0; i < items.length; i++) {
    const c = items[i].length === 1 ? [items[i]] : charsOf(items[i]); // a class's `?` or `.` is itself
    if (!c || c.length > 1) return undefined;
    if (items[i + 1] === "-" && i + 2 < items.length) {
      const [a, b] = [c[0].charCodeAt(0), charsOf(items[i + 2])?.[0].charCodeAt(0) ?? -1];
      if (b < a || b - a > 16) return undefined;
      for (let k = a; k <= b; k++) out.push(String.fromCharCode(k));
      i += 2;
    } else out.push(c[0]);
  }
  return out.length ? out : undefined;
}

/**
 * The strings (in lower case) one of which starts every match of the alternatives in `tokens` from
 * `at`, up to the group's close; `whole`: each string is a whole match. Undefined: none known.
 */
function prefixes(tokens: string[], at: { i: number }): { set: string[] | undefined; whole: boolean } {
  let set: string[] | undefined = [];
  let whole = true;
  for (;;) {
    let run = [""];
    let open = true; // the run still grows: every token so far added to it exactly
    for (; at.i < tokens.length && tokens[at.i] !== "|" && tokens[at.i] !== ")"; ) {
      const t = tokens[at.i++];
      if (!open) {
        for (let depth = +(t[0] === "("); depth && at.i < tokens.length; at.i++) depth += tokens[at.i][0] === "(" ? 1 : tokens[at.i] === ")" ? -1 : 0;
        continue;
      }
      let chars: string[] | undefined;
      let exact = true;
      if (t[0] === "(") {
        ({ set: chars, whole: exact } = prefixes(tokens, at));
        at.i++; // the close
      } else chars = charsOf(t);
      const q = /^[?*+{]/.test(tokens[at.i] ?? "") ? tokens[at.i++] : "";
      // a look-around or an assertion reads nothing
      if ((t[0] === "(" && t.length > 2 && t !== "(?:") || /^(?:\\[bB]|[$^])$/.test(t)) continue;
      const ends = chars && [...new Set(chars.map(lower))]; // `[sS]` is one
      open = !!ends && !ends.includes(undefined) && !/^(?:[?*]|\{0)/.test(q) && run.length * ends.length <= MOST;
      if (open) run = run.flatMap((r) => ends!.map((c) => r + c));
      open &&= exact && !q;
    }
    if (set && !run.includes("")) set.push(...run);
    else set = undefined;
    whole &&= open;
    if (tokens[at.i] !== "|") return { set: set && [...new Set(set)], whole };
    at.i++;
  }
}

const known = new WeakMap<RegExp, string[] | undefined>();
/** The strings every match of `pattern` starts with, in lower case; undefined when not known (`u` flag, a leading class of many characters). */
export function prefixesOf(pattern: RegExp): string[] | undefined {
  if (known.has(pattern)) return known.get(pattern);
  const tokens = /[uv]/.test(pattern.flags) ? [")"] : (pattern.source.match(TOKEN) ?? []);
  const at = { i: 0 };
  const { set } = prefixes(tokens, at);
  const starts = at.i === tokens.length ? set : undefined;
  known.set(pattern, starts);
  return starts;
}

/** Starts worth a look: no ASCII character alone (a digit, a quote is in most texts). */
const usable = (starts: string[] | undefined) => (starts?.some((w) => w.length < 2 && w < "\x80") ? undefined : starts);

/**
 * What every text a shape can match holds: a start of its prefilter, or else (where that is not known
 * and no gate reads the text) of its pattern, and of its `lite` one.
 */
function startsOf({ needs, gate, pattern, lite }: Shape): string[] | undefined {
  const starts = usable(needs && prefixesOf(needs));
  if (starts || gate) return starts;
  const [a, b] = [usable(prefixesOf(pattern)), lite ? usable(prefixesOf(lite[1])) : []];
  return a && b && [...a, ...b];
}

/**
 * For a catalogue, a scan that tells which of its shapes can match a text (1: may match; 0: cannot):
 * one with known starts only where the text holds one (test/redact-triggers.test.ts).
 */
export function triggersOf(shapes: Shape[]): ((text: string) => Uint8Array) & { byNeeds: Uint8Array } {
  const always = new Uint8Array(shapes.length);
  /** Whether a shape's starts are its prefilter's: one that a text lacks, the prefilter fails on. */
  const byNeeds = Uint8Array.from(shapes, (s) => +!!usable(s.needs && prefixesOf(s.needs)));
  const owners = new Map<string, number[]>();
  shapes.forEach((s, k) => {
    const starts = startsOf(s);
    if (!starts) always[k] = 1;
    for (const w of starts ?? []) owners.set(w, [...(owners.get(w) ?? []), k]);
  });
  // one pattern for every start, the longest first: where it finds one, each start it begins with is there too
  const words = [...owners.keys()].sort((a, b) => b.length - a.length);
  const within = new Map(words.map((w) => [w, words.filter((v) => w.startsWith(v)).flatMap((v) => owners.get(v)!)]));
  const any = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|") || "$^", "g");
  any.test("\0".repeat(1000)); // compiled to machine code at once (see `compiled` in ./index.ts)
  const scan = (text: string) => {
    const found = always.slice();
    const low = text.toLowerCase();
    any.lastIndex = 0;
    for (let m = any.exec(low); m; m = any.exec(low)) {
      for (const k of within.get(m[0])!) found[k] = 1;
      any.lastIndex = m.index + 1; // a start may begin inside another
    }
    return found;
  };
  return Object.assign(scan, { byNeeds });
}

/**
 * Whether a text may match one of `patterns`: it holds a start of one, in either case (three native
 * searches of a long text cost less than one case-blind alternation); undefined where one's starts
 * are not known.
 */
export function anyStart(patterns: RegExp[]): ((text: string) => boolean) | undefined {
  const words = patterns.map(prefixesOf);
  if (words.some((w) => !w)) return undefined;
  const all = [...new Set(words.flat() as string[])];
  return (text) => {
    const low = text.toLowerCase();
    return all.some((w) => low.includes(w));
  };
}
