// Redaction read in a window of a long text, as the whole would redact it (a pruned output's quoted
// line, shrunk arguments, a streamed summary), and over many texts at once. Loaded with the code that
// uses it; redaction is handed in, never imported (see src/pass.ts), so a no-op pass never loads this.
import type { PassRedactor, Redactor, StreamKit } from "./index.js";
import type { Shape } from "./shapes.js";

/**
 * How far a shape's match runs around what it masks. Most stay within NEAR_REACH (a secret's name,
 * then a quoted value of up to 400 characters); `long` ones within FAR_REACH (a password flag eight
 * arguments of up to 256 characters after its program, each on a continued line: ~2,250); key
 * blocks, a Secret's data and PuTTY's lines any distance (`unbounded`). Runs of token characters are
 * unbounded too, but they end at a space or a quote, where a window always ends.
 */
const NEAR_REACH = 512;
export const FAR_REACH = 2560;
/** What a shape's check reads before its match (a name, `public`, `csrf`). */
const CHECKED_BEFORE = 64;
const WINDOW_BREAK = /[\s"'<>]/;
/** `i` (at least 0), moved back to just after a break: a window that starts there cuts no run. */
function afterBreak(text: string, i: number): number {
  i = Math.max(0, i);
  while (i > 0 && !WINDOW_BREAK.test(text[i - 1])) i--;
  return i;
}
/** How far before a value its credential's name may stand (a name of 60 characters, quotes, an operator). */
const NAME_REACH = 96;

export interface Windows {
  /** Whether a text starts a `far` shape (streaming keeps its whole context after one). */
  farStarts(text: string): boolean;
  /** Whether a text holds the context a `context` shape needs (Oracle's `sqlplus`). */
  contextIn(text: string): boolean;
  /**
   * `text` from `from` on, redacted as `redact(text)` redacts it, through at least `to` (what follows
   * may be cut short): a window around [from, to) redacted, less the redaction of its part before
   * `from`. Undefined when a window cannot tell (a shape of unbounded reach, a match across `from`):
   * the caller redacts the whole. A one-liner quoting a line of a 50 KB output reads ~1 KB of it.
   */
  redactFrom(text: string, from: number, to: number): string | undefined;
  /** How much of `text` from its start redaction must read for [0, to) to be redacted as in the whole; undefined: all of it. */
  readTo(text: string, to: number): number | undefined;
  /**
   * Where a match may start that runs on past `text`'s end into what follows it in a JSON text: a
   * credential's name, across the quotes (`…$API_KEY", "password": …`), within a name's reach and what
   * its checks read, widened to a break. Asked where `readTo` has answered for the text.
   */
  readFrom(text: string): number;
}

/** The prefilters of `far`, `long` and `context` shapes, built once for the catalogue. */
const prefilters = new WeakMap<Shape[], Record<"far" | "long" | "context", (text: string) => boolean>>();

export function windowsOf({ redact, shapes, kubernetes, escapes, triggersOf }: StreamKit): Windows {
  /** Whether a text holds a prefilter of the shapes `pick` selects (each read only where the scan of ./triggers.ts says it may). */
  const startsOf = (pick: (s: Shape) => boolean | undefined): ((text: string) => boolean) => {
    const list = shapes.filter(pick).map((s) => (s.lite?.[0] ?? s.needs)!);
    const may = triggersOf(list);
    return (text) => {
      const hit = may(text);
      return list.some((r, k) => hit[k] && r.test(text));
    };
  };
  let starts = prefilters.get(shapes);
  if (!starts) {
    // a `context` prefilter is read whole: its few words' pattern skips through a long output faster than the scan steps
    const contexts = shapes.filter((s) => s.context).map((s) => (s.lite?.[0] ?? s.needs)!);
    prefilters.set(shapes, (starts = { far: startsOf((s) => s.far), long: startsOf((s) => s.long), context: (text) => contexts.some((r) => r.test(text)) }));
  }
  const { far, long, context } = starts;
  const contextShapes = shapes.filter((s) => s.context);

  /** A text holding a shape of unbounded reach: a private key's BEGIN or END, a Secret manifest's kind, PuTTY's private lines. */
  const unbounded = (text: string) => text.includes("PRIVATE KEY") || text.includes("Private-Lines") || kubernetes.needs!.test(text);
  /**
   * Whether a window of `text` may read otherwise than the whole: the whole holds the context of a
   * `context` shape (its prefilter may stand anywhere) and the window what that shape's matches hold,
   * or an escape (`%40` decodes to what they hold; and escape regions that overlap join along a line,
   * ./index.ts's `encodedOf`, so a region the window cuts short may reach a context past it in the
   * whole). Asked of the window first: a window without an `@` or an escape needs no scan of a 50 KB
   * output for `sqlplus`.
   */
  const unsure = (text: string, window: string) => (escapes.test(window) || contextShapes.some((s) => !s.holds || window.includes(s.holds))) && context(text);

  /**
   * Bounds of a window of `text` around [from, to) that redaction reads as it reads the whole there:
   * the reach of the shapes that may start near it each side (and what a check reads before), widened
   * to a space or a quote so that no run is cut. Undefined when `text` holds a shape of unbounded reach
   * (a `context` shape's context: `unsure`).
   */
  const around = (text: string, from: number, to: number): [number, number] | undefined => {
    if (unbounded(text)) return undefined;
    // only a match that starts before `to` can reach into [from, to)
    const reach = long(text.slice(Math.max(0, from - FAR_REACH - CHECKED_BEFORE), to)) ? FAR_REACH : NEAR_REACH;
    const start = afterBreak(text, from - reach - CHECKED_BEFORE);
    let end = Math.min(text.length, to + reach);
    while (end < text.length && !WINDOW_BREAK.test(text[end])) end++;
    // the run starting there may be a value of any length whose name stands before it (`password: <value>`)
    return [afterBreak(text, start - NAME_REACH), Math.min(text.length, end + 1)]; // the break too: a look-ahead reads it
  };

  return {
    farStarts: far,
    contextIn: context,
    redactFrom(text, from, to) {
      const w = around(text, from, to);
      if (!w) return undefined;
      const raw = text.slice(w[0], w[1]);
      if (unsure(text, raw)) return undefined;
      const window = redact(raw);
      // nothing masked before `from` (as a rule): the window's part before it is the whole's, unread again
      const head = from - w[0];
      if (window.length >= head && window.startsWith(raw.slice(0, head)) && (head === raw.length || raw.startsWith(window.slice(head, head + 1), head))) return window.slice(head);
      const before = redact(text.slice(w[0], from));
      return window.startsWith(before) ? window.slice(before.length) : undefined;
    },
    readTo: (text, to) => (context(text) ? undefined : around(text, 0, to)?.[1]),
    readFrom: (text) => afterBreak(text, text.length - NAME_REACH - CHECKED_BEFORE),
  };
}

/**
 * The pass's redaction completed: over many texts, each alone (with each text's trigger scan running
 * only the shapes its words call for, faster than the one pass of each pattern over the texts joined
 * that it was until round 6), and in windows (what pruning quotes and shrinks with).
 */
export const windowed = <R extends PassRedactor>(r: R): R & Redactor & Windows => ({ ...r, redactMany: (texts: string[]) => texts.map(r.redact), ...windowsOf(r.streamKit) });
