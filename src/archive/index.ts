// archive: what a pass removed or pruned, whole and redacted, under the reference the handoff cites.
// Redaction is handed in: this loads with the result's writer (src/result.ts), which must not import it.
import type { MessageView } from "../dialects/view.js";
import type { Archive, ArchivedMessage } from "./types.js";
import { refOf, type Refs } from "../refs.js";
import { maskSeams } from "../redact/seams.js";

/** Characters of JSON an archive holds by default; the oldest entries go first over it. */
export const ARCHIVE_LIMIT = 5_000_000;

function sizeOf(v: MessageView): number {
  let n = v.text.length + 40;
  for (const c of v.toolCalls) n += c.name.length + c.arguments.length + 40;
  for (const r of v.results) n += r.text.length + 4;
  return n;
}

/** A message's strings, each passed through `clean` (whole). */
function entryOf(v: MessageView, clean: (s: string) => string, reasoning?: string[]): ArchivedMessage {
  const e: ArchivedMessage = { role: v.role };
  if (reasoning?.length) e.reasoning = reasoning.map(clean);
  if (v.text) e.text = clean(v.text);
  if (v.toolCalls.length) e.calls = v.toolCalls.map((c) => ({ name: clean(c.name), arguments: clean(c.arguments) }));
  if (v.results.length) e.results = v.results.map((r) => clean(r.text));
  return e;
}

/**
 * What an archive's entries are read from, kept on the archive under a symbol (not enumerable: neither
 * copied nor written out) until every entry is read: then the pass it holds goes.
 */
const SOURCE = Symbol("source");
interface Source {
  views: MessageView[];
  redact: (text: string) => string;
  reasoning: Map<number, string[]>;
}

/** The entry of message `i`, redacted: a secret split across it and a neighbour's text (src/redact/seams.ts) is masked, only its own text kept. */
function entryAt({ views, redact, reasoning }: Source, i: number): ArchivedMessage {
  const value = entryOf(views[i], redact, reasoning.get(i));
  const [before, after] = [views[i - 1]?.text ?? "", views[i + 1]?.text ?? ""];
  if (value.text) value.text = maskSeams([before, views[i].text, after], [before, value.text, after], redact)[1];
  return value;
}

/**
 * The getter of entry `ref`: it reads its source from the archive (SOURCE), not from a closure over the
 * pass: a getter is kept reachable from old space until the next full collection, and one that held
 * the pass had each minor one copy and promote it.
 */
function entryGetter(ref: string, i: number, left: { unread: number }) {
  let value: ArchivedMessage | undefined;
  return function (this: Archive & { [SOURCE]?: Source }) {
    if (!value) {
      value = entryAt(this[SOURCE]!, i);
      if (!--left.unread) Reflect.deleteProperty(this, SOURCE); // (its own count: a store may deep-freeze what the archive holds)
    }
    settled(this, ref, value);
    return value;
  };
}

/**
 * The archive of the views at `indexes`, within `limit` characters of JSON: the oldest are left out,
 * and returned. Built when first read (`build`: defining each entry costs ~1 µs, ~0.3 ms a pass at
 * 32k), and each entry is redacted when first read (a JSON.stringify, a structured clone, a recall),
 * then kept: a pass whose archive nobody reads does not pay for redacting all it removed.
 */
export function archiveOf(views: MessageView[], indexes: number[], pass: Refs, limit: number, redact: (text: string) => string, reasoning = new Map<number, string[]>()): { build: () => Archive; dropped: string[] } {
  const dropped = overLimit(views, indexes, pass, limit);
  const build = () => {
    const archive: Archive = {};
    const kept = indexes.slice(dropped.length);
    const left = { unread: kept.length };
    Object.defineProperty(archive, SOURCE, { value: { views, redact, reasoning }, configurable: true });
    for (const i of kept) {
      const ref = refOf(i, pass);
      Object.defineProperty(archive, ref, { enumerable: true, configurable: true, get: entryGetter(ref, i, left) });
    }
    return archive;
  };
  return { build, dropped };
}

/** A property read once made plain: unless the object was frozen since (then its getter keeps answering the same value). */
const settled = (o: object, key: string, value: unknown) => Reflect.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

/** Where a result keeps the build of its archive: not enumerable, so neither copied nor written out. */
const BUILD = Symbol("archive");
type Lazy = { archive?: Archive; [BUILD]?: () => Archive };

/**
 * The accessor of every lazy archive, one pair for all: an accessor made per result (closures over its
 * pass) kept that pass reachable from old space until the next full collection, so each minor one
 * copied and promoted it (~1 MB at 128k), and its object went to dictionary mode.
 */
const ARCHIVE: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: Lazy) {
    const archive = this[BUILD]!();
    if (settled(this, "archive", archive)) Reflect.deleteProperty(this, BUILD); // what it was built from goes (a frozen result keeps it, and answers the same)
    return archive;
  },
  set(this: Lazy, value: Archive) {
    Object.defineProperty(this, "archive", { value, enumerable: true, writable: true, configurable: true });
    Reflect.deleteProperty(this, BUILD);
  },
};

/** `target.archive`, built by `build` when first read (or replaced when first written): then a plain property. */
export function lazyArchive(target: { archive?: Archive }, build: () => Archive): void {
  let archive: Archive | undefined;
  Object.defineProperty(target, BUILD, { value: () => (archive ??= build()), configurable: true }); // once: a frozen result keeps answering the same
  Object.defineProperty(target, "archive", ARCHIVE);
}

/** References of the oldest entries that would take the archive over `limit` characters of JSON. */
function overLimit(views: MessageView[], indexes: number[], pass: Refs, limit: number): string[] {
  let chars = 0;
  for (const i of indexes) chars += sizeOf(views[i]);
  if (chars * 6 <= limit) return []; // JSON writes a character as six at most: nothing to measure
  const dropped: string[] = [];
  let size = 0;
  for (let k = indexes.length - 1; k >= 0; k--) {
    const ref = refOf(indexes[k], pass);
    // Its JSON before redaction, about what it takes after (a mask rarely outgrows what it hides).
    size += JSON.stringify(entryOf(views[indexes[k]], (x) => x)).length + ref.length + 4;
    if (size > limit) dropped.unshift(ref);
  }
  return dropped;
}
