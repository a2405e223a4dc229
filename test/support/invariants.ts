// DESIGN.md's invariants as one checker, shared by property tests, fixture sweeps and every runtime.
import { dialects } from "../../src/convert.js";
import { HANDOFF_PREFIX, SYSTEM_NOTE, type CompactResult, type DialectName, type Plan } from "../../src/index.js";
import { templateValidity, validity } from "./validity.js";

type Message = any;

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

export interface InvariantInput {
  input: Message[];
  snapshot: string;
  plan: Plan;
  result: CompactResult<Message>;
  dialect?: DialectName;
}

/** Every violated invariant, in words; empty when all hold. */
export function violations({ input, snapshot, plan, result, dialect = "openai" }: InvariantInput): string[] {
  const v: string[] = [];
  const d = dialects[dialect];
  const text = (m: Message): string => d.view(m).text;
  const calls = (m: Message) => d.view(m).toolCalls;
  const out = result.messages;
  const r = result.report;

  // 4. the input is never mutated
  if (JSON.stringify(input) !== snapshot) v.push("4: the input was mutated");

  // compact reports plan's partitions
  const same = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start === b.start && a.end === b.end;
  if (!same(r.partitions.head, plan.head) || !same(r.partitions.middle, plan.middle) || !same(r.partitions.tail, plan.tail)) {
    v.push(`partitions differ from plan: ${JSON.stringify(r.partitions)} vs ${JSON.stringify([plan.head, plan.middle, plan.tail])}`);
  }
  if (plan.head.start !== 0 || plan.head.end !== plan.middle.start || plan.middle.end !== plan.tail.start || plan.tail.end !== input.length) {
    v.push("partitions are not contiguous over the input");
  }

  // 8. no-op returns the same array
  if (r.mode === "noop" || r.mode === "aborted") {
    if (out !== input) v.push("8: a no-op did not return the same array");
    return v;
  }
  if (out === input) v.push("a compaction returned the input array");

  // 1. validity (of what compaction wrote: pre-existing oddities are repaired and reported)
  for (const p of validity(dialect, out)) v.push(`1: ${p}`);
  // 1. strict chat templates (tool flow skipped) see the seam alternate too, or the report says they cannot
  if (dialect === "openai") {
    const clash = templateValidity(input, out, plan.seam === "merge" ? plan.tail.start : -1);
    const warned = r.warnings.some((w: string) => w.startsWith("strict chat templates"));
    if (clash.length && !warned) v.push(...clash.map((p) => `1: ${p}, unreported`));
  }
  const inputArgs = new Map<string, string>();
  for (const m of input) for (const c of calls(m)) inputArgs.set(c.id, c.arguments);
  for (const m of out) {
    for (const c of calls(m)) {
      const before = inputArgs.get(c.id);
      if (before !== undefined && isJson(before) && !isJson(c.arguments)) v.push(`1: arguments of ${c.id} stopped being JSON`);
    }
  }
  const written = new Set(out.filter((m) => !input.includes(m)));
  // A handoff of its own must not repeat a neighbour's role; a merged one inherits its message's place.
  const inserted = new Set(plan.seam === "merge" ? [] : [...written].filter((m) => text(m).startsWith(HANDOFF_PREFIX)));
  // System messages inside the transcript (Claude Code's) stand outside the alternation.
  const turns = out.filter((m) => m.role !== "system");
  turns.forEach((m, i) => {
    const prev = turns[i - 1];
    if (!prev || (!inserted.has(m) && !inserted.has(prev)) || dialect === "openai-responses") return; // Responses has no alternation rule
    if ((m.role === "user" || m.role === "assistant") && m.role === prev.role) {
      v.push(`1: compaction put two ${m.role} messages together at ${i - 1}, ${i}`);
    }
  });

  // 2. head byte-for-byte (the system prompt may gain the note; orphan results may be removed, reported)
  const removed = new Set([...r.sanitized.removedOrphanResults, ...r.sanitized.rewritten]);
  let last = -1;
  for (let i = 0; i < plan.head.end; i++) {
    if (removed.has(i)) continue;
    const m = input[i];
    let at = out.indexOf(m);
    if (at < 0 && i === 0 && d.view(m).role === "system") {
      at = 0;
      const ok = text(out[0]).startsWith(text(m)) && text(out[0]).endsWith(SYSTEM_NOTE);
      if (!ok) v.push("2: the system prompt changed beyond the appended note");
      else if (JSON.stringify({ ...out[0], content: null }) !== JSON.stringify({ ...m, content: null })) v.push("2: system fields changed");
    }
    if (at < 0) v.push(`2: head message ${i} changed`);
    else if (at < last) v.push(`2: head message ${i} moved`);
    last = Math.max(last, at);
  }

  // 3. tail kept as the same objects, except one message a handoff was merged into, reported orphans,
  // and tool calls and results pruned (reported) because the tail alone was over the threshold
  let merged = 0;
  const prunedAt = new Set(r.pruned.map((p) => p.index));
  // The latest user message only ever loses tool outputs of its own that alone overflow the window.
  const shrunkAt = new Set(r.pruned.filter((p) => p.kind === "shrunk").map((p) => p.index));
  for (let i = plan.tail.start; i < input.length; i++) {
    if (removed.has(i) || out.includes(input[i])) continue;
    if (prunedAt.has(i) && (i !== plan.latestUserIndex || shrunkAt.has(i))) continue;
    const m = out.find((o) => written.has(o) && text(o).startsWith(HANDOFF_PREFIX) && text(o).endsWith(text(input[i])) && o.role === input[i].role);
    if (m && merged++ === 0) continue;
    v.push(`3: tail message ${i} is missing from the output`);
  }
  for (const i of plan.pinned) if (r.mode !== "prune" && !removed.has(i) && !out.includes(input[i])) v.push(`3: pinned message ${i} missing`);
  const lu = plan.latestUserIndex;
  if (lu >= 0 && !out.includes(input[lu])) {
    const carried = out.some((o) => o.role === "user" && text(o).endsWith(text(input[lu])));
    if (!carried) v.push(`3: the latest user message ${lu} is not a user message in the output`);
  }
  if (lu >= 0 && !(lu < plan.head.end || plan.tail.start <= lu || plan.pinned.includes(lu))) {
    v.push(`3: the latest user message ${lu} is neither in head, tail nor pinned`);
  }

  // 5. nothing lost silently
  const middle = plan.middle.end - plan.middle.start - (r.mode === "prune" ? 0 : plan.pinned.length);
  if (r.mode === "prune") {
    if (r.droppedMessages !== 0) v.push("5: prune reported dropped messages");
  } else {
    if (r.droppedMessages !== middle) v.push(`5: droppedMessages ${r.droppedMessages}, middle ${middle}`);
    if (!r.summary) v.push("5: summary info missing");
    const inputTexts = new Set(input.map(text)); // a message the sanitizer rewrote keeps its text
    const handoffs = out.filter((m) => written.has(m) && d.view(m).role !== "system" && text(m).startsWith(HANDOFF_PREFIX) && !inputTexts.has(text(m)));
    if (handoffs.length !== 1) v.push(`5: ${handoffs.length} handoffs written`);
    if (r.summary?.source === "marker" && !handoffs.some((h) => text(h).includes(String(middle)))) v.push("5: the marker does not state the count");
  }
  const expected =
    input.length - r.sanitized.messagesDropped + r.sanitized.messagesAdded - (r.mode === "prune" ? 0 : middle) + (r.mode !== "prune" && plan.seam !== "merge" ? 1 : 0);
  if (out.length !== expected) v.push(`5: ${out.length} messages out, expected ${expected}`);
  if (r.messagesAfter !== out.length || r.messagesBefore !== input.length) v.push("5: message counts in the report are wrong");
  if (r.tokensAfter >= r.tokensBefore) v.push(`7: tokens did not shrink (${r.tokensBefore} → ${r.tokensAfter})`);

  // first changed index
  let first = -1;
  for (let i = 0; i < Math.max(out.length, input.length); i++) if (out[i] !== input[i]) { first = i; break; }
  if (first !== r.firstChangedIndex) v.push(`firstChangedIndex ${r.firstChangedIndex}, actual ${first}`);
  return v;
}
