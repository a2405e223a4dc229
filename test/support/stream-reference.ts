// Streaming redaction as it was before it released ordinary lines after one short redaction
// (src/redact/stream.ts at d1abacf, with the context of d43023a's attack fix and 0a0179b's hold of a line
// a `context` shape would redact): every window redacted after the last 2,560 released characters (the
// farthest a password flag reaches).
// test/redact-stream.test.ts checks the stream releases exactly what this releases.
import type { StreamKit } from "../../src/redact/index.js";

const BEGIN_KEY = /-----BEGIN[A-Z\d ]{0,40}PRIVATE KEY/g;
const END_KEY = /-----END[A-Z\d ]{0,40}PRIVATE KEY/;
/** A YAML block scalar opens: its value comes on the next lines. */
const BLOCK_SCALAR = /:\s{0,4}[|>][-+]?\s*$/;
/** Released text a window is redacted after: as far back as a shape's match can start before the line that ends it. */
const CONTEXT = 2560;

/** A key block opens on this line and does not close on it. */
function opensKey(line: string): boolean {
  BEGIN_KEY.lastIndex = 0;
  let open = false;
  for (let m = BEGIN_KEY.exec(line); m; m = BEGIN_KEY.exec(line)) open = !END_KEY.test(line.slice(BEGIN_KEY.lastIndex));
  return open;
}


/** The last line of `line`, past any escaped line break, without its carriage return. */
function lastLine(line: string): string {
  const at = line.lastIndexOf("\\n");
  return (at < 0 ? line : line.slice(at + 2)).replace(/\r$|\\r$/, "");
}

import type { RedactedStream } from "../../src/redact/stream.js";

/**
 * Text is released a whole line at a time, each window redacted after the released text before it,
 * so a shape's left context still counts. A line that may belong to a shape still open waits, with
 * every line after it: a key block until its END, a Secret's data until its `kind` (or the end),
 * lines of key material until a line that is not (an END would take them with it), a line a `context`
 * shape would redact (Oracle's user/password@) until its context (`sqlplus`) is seen, or the end.
 * Each line is scanned once and redacted once in its window and once as context: linear in total.
 * `count` and `budget` bound the text: past the budget, whole lines are cut and nothing more released.
 */
export function referenceStream(kit: StreamKit, emit: (text: string) => void, count: (text: string) => number = () => 0, budget = Infinity): RedactedStream {
  const { redact, redactWindow, apply, kubernetes, bodyLine } = kit;
  const manifestKind = kubernetes.needs!;
  const secretDataIn = (text: string) => apply(text, kubernetes, true) !== text;
  /** A line whose value a Secret manifest's `kind`, perhaps still to come, would redact. */
  const secretData = (line: string) => line.includes(":") && (BLOCK_SCALAR.test(line) || secretDataIn(`\n${line}`));
  const contextShapes = kit.shapes.filter((s) => s.context);
  /** A line a `context` shape would redact once its context is seen. */
  const aboutData = (line: string) => contextShapes.some((s) => apply(line, s, true) !== line);
  /** A line that holds a `context` shape's context. */
  const contextIn = (line: string) => contextShapes.some((s) => new RegExp(s.needs!.source, s.needs!.flags.replace("g", "")).test(line));
  const all: string[] = []; // every delta, joined once at the end
  let partial = ""; // the line still arriving
  const lines: string[] = []; // complete lines; lines[head] is the first not yet released
  let head = 0;
  let keyFrom = -1; // the line a key block still open starts on
  let bodyFrom = -1; // where lines of key material start (an END may follow whose BEGIN was cut away)
  let dataFrom = -1; // the first line a Secret's kind would redact, while no kind was seen
  let manifest = false; // a Secret's kind was seen
  let aboutFrom = -1; // the first line a `context` shape would redact, while its context was not seen
  let about = false; // a `context` shape's context was seen
  let context = ""; // the end of the released raw text
  let sent = "";
  let used = 0; // tokens sent
  let full = false; // the budget is reached: nothing more is released

  /** The whole lines of `text` that fit what is left of the budget, and the tokens used after them. */
  const within = (text: string, tokens: number): [string, number] => {
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

  const release = (upTo: number) => {
    if (full || upTo <= head) return;
    const window = `${lines.slice(head, upTo).join("\n")}\n`;
    lines.fill("", head, upTo);
    head = upTo;
    const before = redactWindow(context, manifest, about);
    const after = redactWindow(context + window, manifest, about);
    context = (context + window).slice(-CONTEXT);
    if (!after.startsWith(before)) return void (full = true); // never expected: the rest waits for the end
    const [piece, tokens] = within(after.slice(before.length), used);
    if (piece) emit(piece);
    [sent, used] = [sent + piece, tokens];
  };

  return {
    push(delta) {
      all.push(delta);
      const parts = delta.split("\n");
      if (parts.length === 1) return void (partial += delta);
      parts[0] = partial + parts[0];
      partial = parts.pop()!;
      for (const line of parts) {
        scan(line, lines.length);
        lines.push(line);
      }
      const holds = [keyFrom, dataFrom, aboutFrom, bodyFrom].filter((h) => h >= 0);
      release(holds.length ? Math.min(...holds) : lines.length);
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
