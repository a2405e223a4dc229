// archive: what a pass removed or pruned, whole and redacted, under the reference the handoff cites.
import type { MessageView } from "../dialects/view.js";
import { redactMany } from "../redact/index.js";
import type { Archive, ArchivedMessage } from "../types.js";

/** Characters of JSON an archive holds by default; the oldest entries go first over it. */
export const ARCHIVE_LIMIT = 2_000_000;

/** `#212` on the first pass, `#2.212` on the third: references of different passes never collide. */
export function refOf(index: number, pass = 0): string {
  return pass ? `#${pass}.${index}` : `#${index}`;
}

function entryOf(v: MessageView): ArchivedMessage {
  const e: ArchivedMessage = { role: v.role };
  if (v.text) e.text = v.text;
  if (v.toolCalls.length) e.calls = v.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }));
  if (v.results.length) e.results = v.results.map((r) => r.text);
  return e;
}

/** Every string of an entry, by reference to its place, so one batch redacts them all. */
function fields(e: ArchivedMessage): [object, string | number][] {
  const out: [object, string | number][] = [];
  if (e.text !== undefined) out.push([e, "text"]);
  for (const c of e.calls ?? []) out.push([c, "arguments"]);
  e.results?.forEach((_, k) => out.push([e.results!, k]));
  return out;
}

/** The messages at `indexes` (original views), every string redacted whole, in one batch. */
export function archivedEntries(views: MessageView[], indexes: number[]): Map<number, ArchivedMessage> {
  const entries = new Map(indexes.map((i) => [i, entryOf(views[i])]));
  const places = [...entries.values()].flatMap(fields) as [Record<string | number, string>, string | number][];
  const clean = redactMany(places.map(([o, k]) => o[k]));
  places.forEach(([o, k], i) => (o[k] = clean[i]));
  return entries;
}

/** The archive of the entries within `limit` characters of JSON: the oldest are left out, and returned. */
export function archiveOf(entries: Map<number, ArchivedMessage>, pass: number, limit: number): { archive: Archive; dropped: string[] } {
  let size = 0;
  const archive: Archive = {};
  const dropped: string[] = [];
  for (const [i, e] of [...entries].reverse()) {
    const ref = refOf(i, pass);
    size += JSON.stringify(e).length + ref.length + 4;
    if (size > limit) dropped.unshift(ref);
    else archive[ref] = e;
  }
  return { archive, dropped };
}
