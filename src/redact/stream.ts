// Streaming redaction: a summary released line by line, never more than the redaction of the whole
// shows, in linear total time.
// Loaded with the first model summary; it imports only ./window.ts, which imports nothing, so that no
// chunk is shared with `plan`.
import type { StreamKit } from "./index.js";
import { FAR_REACH as CONTEXT, windowsOf } from "./window.js";

const BEGIN_KEY = /-----BEGIN[A-Z\d ]{0,40}PRIVATE KEY/g;
const END_KEY = /-----END[A-Z\d ]{0,40}PRIVATE KEY/;
/** A YAML block scalar opens: its value comes on the next lines. */
const BLOCK_SCALAR = /:\s{0,4}[|>][-+]?\s*$/;
/**
 * Released text enough to show a window has nothing to redact: whole lines, at least this long. A
 * shape that crosses a line break starts at most 96 characters before it (a Secret's block scalar
 * with its indentation and key; a bare token's name, 72), unless it is `far` (password flags, PuTTY
 * key lines, .npmrc paths), and then the whole context is used.
 */
const NEAR = 128;

/** A key block opens on this line and does not close on it. */
function opensKey(line: string): boolean {
  if (!line.includes("PRIVATE KEY")) return false;
  BEGIN_KEY.lastIndex = 0;
  let open = false;
  for (let m = BEGIN_KEY.exec(line); m; m = BEGIN_KEY.exec(line)) open = !END_KEY.test(line.slice(BEGIN_KEY.lastIndex));
  return open;
}

/** The last line of `line`, past any escaped line break, without its carriage return. */
function lastLine(line: string): string {
  const at = line.lastIndexOf("\\n");
  const last = at < 0 ? line : line.slice(at + 2);
  return last.endsWith("\r") ? last.slice(0, -1) : last.endsWith("\\r") ? last.slice(0, -2) : last;
}

/** `upTo`, or the line held from (-1: none) when it comes first. */
const heldFrom = (held: number, upTo: number) => (held >= 0 && held < upTo ? held : upTo);

export interface RedactedStream {
  push(delta: string): void;
  /** Releases the rest (within the budget); returns the whole text redacted and cut to the budget, and its tokens if it was cut. */
  end(): { text: string; cutFrom?: number };
}

/**
 * Text is released a whole line at a time, each window redacted after the released text before it,
 * so a shape's left context still counts. A line that may belong to a shape still open waits, with
 * every line after it: a key block until its END, a Secret's data until its `kind` (or the end),
 * lines of key material until a line that is not (an END would take them with it), a line a `context`
 * shape would redact until its context is seen (or the end).
 * A window is released as it is when the last whole lines of at least NEAR released characters,
 * released as they were, and the window redact to themselves (nothing to mask, nothing masked
 * across the break): one short redaction a line. Otherwise it is redacted after the last CONTEXT
 * released characters, and what that adds to their own redaction is released.
 * Each line is scanned once and redacted a bounded number of times: linear in total.
 * `count` and `budget` bound the text: past the budget, whole lines are cut and nothing more released.
 */
export function redactedStream(kit: StreamKit, emit: (text: string) => void, count: (text: string) => number = () => 0, budget = Infinity): RedactedStream {
  // CONTEXT: released text a window is redacted after, as far back as a shape's match can start before
  // the line that ends it (a password flag eight long arguments after its program)
  const { redact, redactWindow, apply, redactEncoded, redactKeyBlocks, shapes, kubernetes, bodyLine } = kit;
  const { farStarts, contextIn } = windowsOf(kit);
  const manifestKind = kubernetes.needs!;
  const aboutShapes = shapes.filter((s) => s.context);
  /** A line that a `context` shape (Oracle's user/password@) would redact once its context (`sqlplus`), perhaps still to come, is seen. */
  const aboutData = (line: string) => aboutShapes.some((s) => apply(line, s, true) !== line);
  /** A line whose value a Secret manifest's `kind`, perhaps still to come, would redact. */
  const secretData = (line: string) => {
    if (!line.includes(":")) return false;
    if ((line.includes("|") || line.includes(">")) && BLOCK_SCALAR.test(line)) return true;
    const entry = `\n${line}`;
    return apply(entry, kubernetes, true) !== entry;
  };

  const all: string[] = []; // every delta, joined once at the end
  let partial = ""; // the line still arriving
  const lines: string[] = []; // complete lines; lines[head] is the first not yet released
  let head = 0;
  let keyFrom = -1; // the line a key block still open starts on
  let bodyFrom = -1; // where lines of key material start (an END may follow whose BEGIN was cut away)
  let dataFrom = -1; // the first line a Secret's kind would redact, while no kind was seen
  let manifest = false; // a Secret's kind was seen
  let aboutFrom = -1; // the first line a `context` shape would redact, while its context was not seen
  let about = false; // the context a `context` shape needs was seen
  let context = ""; // the end of the released raw text
  let released = 0; // raw characters released
  let verbatim = 0; // how many of them, at the end, were released as they were
  let farAt = -Infinity; // where the last window holding the start of a `far` shape ended
  let sent = "";
  let used = 0; // tokens sent
  let full = false; // the budget is reached: nothing more is released

  /** The whole lines of `text` that fit what is left of the budget, and the tokens used after them. */
  const within = (text: string, tokens: number): [string, number] => {
    if (budget === Infinity) return [text, tokens]; // nothing to count
    let fit = 0;
    for (let at = 0; at < text.length && !full; ) {
      const nl = text.indexOf("\n", at);
      const end = nl < 0 ? text.length : nl + 1;
      const t = count(text.slice(at, end));
      if (tokens + t > budget) full = true;
      else [fit, tokens, at] = [end, tokens + t, end];
    }
    return [text.slice(0, fit), tokens];
  };

  const scan = (line: string, i: number) => {
    if (!manifest && manifestKind.test(line)) [manifest, dataFrom] = [true, -1];
    if (opensKey(line)) keyFrom = keyFrom < 0 ? i : keyFrom;
    else if (keyFrom >= 0 && END_KEY.test(line)) {
      if (dataFrom > keyFrom) dataFrom = keyFrom; // never release part of a closed block
      keyFrom = -1;
    }
    if (dataFrom < 0 && !manifest && secretData(line)) dataFrom = i;
    if (!about && contextIn(line)) [about, aboutFrom] = [true, -1];
    if (aboutFrom < 0 && !about && aboutData(line)) aboutFrom = i;
    if (!bodyLine.test(lastLine(line))) bodyFrom = -1;
    else if (bodyFrom < 0) bodyFrom = i;
  };

  /**
   * Whether `window`, after released lines `near` that redaction left as they were, redacts to itself:
   * shapes that stay on a line are run on the window alone, shapes that may hold a line break on both.
   * `far` shapes count on the window alone (`redacted` keeps the full context after their starts), and
   * are skipped at once where the window starts none (`hasFar`).
   */
  const unchanged = (near: string, window: string, hasFar: boolean): boolean => {
    const both = near + window;
    if (redactEncoded(window) !== window || redactKeyBlocks(both) !== both || (manifest && apply(both, kubernetes, true) !== both)) return false;
    for (const shape of shapes) {
      const text = shape.breaks ? both : window;
      // a far shape whose far part alone has a prefilter to see (its `lite` one: a URL's `//user:pw@` is
      // no far match) counts on the window too: `farAt` keeps the full context after one
      if ((hasFar || !shape.far || shape.lite) && apply(text, shape, about && shape.context) !== text) return false;
    }
    return true;
  };

  /** What `window` (holding the start of a `far` shape, or not) adds to the redaction of the released text, or undefined where they disagree. */
  const redacted = (window: string, hasFar: boolean): string | undefined => {
    // the last whole lines of NEAR characters or more (all of them while fewer were released; a search
    // from before the start would find a line break at 0 and drop it: a line's start is context too)
    const cut = context.length > NEAR ? context.lastIndexOf("\n", context.length - NEAR - 1) : -1;
    const near = cut >= 0 || released <= CONTEXT ? context.slice(cut + 1) : undefined;
    if (near !== undefined && verbatim >= near.length && released - farAt >= CONTEXT && unchanged(near, window, hasFar)) return window;
    const before = redactWindow(context, manifest, about);
    const after = redactWindow(context + window, manifest, about);
    return after.startsWith(before) ? after.slice(before.length) : undefined;
  };

  const release = (upTo: number) => {
    if (full || upTo <= head) return;
    const window = upTo === head + 1 ? `${lines[head]}\n` : `${lines.slice(head, upTo).join("\n")}\n`;
    lines.fill("", head, upTo);
    head = upTo;
    const hasFar = farStarts(window);
    const piece = redacted(window, hasFar);
    if (piece === undefined) return void (full = true); // never expected: the rest waits for the end
    context = (context + window).slice(-CONTEXT);
    released += window.length;
    verbatim = piece === window ? verbatim + window.length : 0;
    if (hasFar) farAt = released;
    const [fit, tokens] = within(piece, used);
    if (fit) emit(fit);
    sent += fit;
    used = tokens;
  };

  return {
    push(delta) {
      all.push(delta);
      let at = 0;
      for (let nl = delta.indexOf("\n"); nl >= 0; nl = delta.indexOf("\n", at)) {
        const line = partial + delta.slice(at, nl);
        [partial, at] = ["", nl + 1];
        scan(line, lines.length);
        lines.push(line);
      }
      partial += delta.slice(at);
      if (at) release(heldFrom(keyFrom, heldFrom(dataFrom, heldFrom(aboutFrom, heldFrom(bodyFrom, lines.length)))));
    },
    end() {
      full = false;
      const whole = redact(all.join(""));
      const [text] = within(whole, 0);
      if (text.startsWith(sent) && text.length > sent.length) emit(text.slice(sent.length));
      return text.length < whole.length ? { text, cutFrom: count(whole) } : { text };
    },
  };
}
