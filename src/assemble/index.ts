// assemble: head + handoff + tail, the system note once, every tool call paired with its result.
import type { Dialect, MessageView, ToolCallView } from "../dialects/view.js";
import type { Plan } from "../plan/types.js";
import type { Sanitized } from "./types.js";
import { SYSTEM_NOTE } from "../facts/handoff.js";
import { shown } from "../plan/index.js";

interface Slot<M> {
  message: M;
  view: MessageView;
  /** Index in the input, or -1 for a message compaction wrote. */
  from: number;
  /** A merged handoff's: the input message it was put into. */
  into?: number;
}

export const STUB_RESULT = "[no result: this tool call was not answered in the transcript]";

/**
 * Drops tool results whose call is gone and answers calls whose result is gone with a stub.
 * A tool-call group at the very end with no result yet is in flight and stays as is, and so does a
 * call there that awaits an approval, or whose approval was answered: the AI SDK runs it, or writes its
 * denial, only while no result for it exists.
 */
function sanitize<M>(slots: Slot<M>[], dialect: Dialect<M>): { slots: Slot<M>[]; sanitized: Sanitized } {
  const sanitized: Sanitized = { removedOrphanResults: [], stubbedCalls: [], rewritten: [], messagesDropped: 0, messagesAdded: 0 };
  const rewrite = (old: Slot<M>, message: M): Slot<M> => {
    if (old.from >= 0) sanitized.rewritten.push(old.from);
    return slot(message, old.from);
  };
  const out: Slot<M>[] = [];
  const slot = (message: M, from = -1): Slot<M> => ({ message, view: dialect.view(message), from });
  let open = new Map<string, ToolCallView>();
  let lastCarrier = -1; // index in `out` of the group's last result-carrying message

  /** Answers the open calls before `next` is added; returns `next`, possibly rewritten. */
  const answerOpenCalls = <S extends Slot<M> | undefined>(next: S): S | Slot<M> => {
    if (!open.size) return next;
    const calls = [...open.values()].filter((c) => next || !c.approval);
    if (!calls.length) return next;
    const a = dialect.answer(calls, STUB_RESULT, { last: lastCarrier >= 0 ? out[lastCarrier].message : undefined, next: next?.message });
    if (a.last) out[lastCarrier] = rewrite(out[lastCarrier], a.last);
    for (const m of a.insert ?? []) out.push(slot(m));
    sanitized.messagesAdded += a.insert?.length ?? 0;
    for (const c of calls) sanitized.stubbedCalls.push(c.id);
    open = new Map();
    return a.next && next ? rewrite(next, a.next) : next;
  };

  for (let s of slots) {
    let orphans: Set<string> | undefined; // made for the few messages that have one
    for (const r of s.view.results) if (!open.delete(r.id)) (orphans ??= new Set()).add(r.id); // a second result for one call is an orphan too
    if (orphans) {
      if (s.from >= 0) sanitized.removedOrphanResults.push(s.from);
      const kept = dialect.withoutResults(s.message, orphans);
      if (kept === undefined) {
        sanitized.messagesDropped++;
        continue;
      }
      s = rewrite(s, kept);
    }
    if (s.view.role === "tool") {
      out.push(s);
      lastCarrier = out.length - 1;
      continue;
    }
    // In an itemized dialect an assistant message after another is the same turn: its calls join the group.
    if (!(dialect.itemized && s.view.role === "assistant" && out.at(-1)?.view.role === "assistant")) s = answerOpenCalls(s); // leaves no call open
    out.push(s);
    for (const c of s.view.toolCalls) open.set(c.id, c);
    lastCarrier = -1;
  }
  // Results have started to arrive for the last group: the ones still missing will not.
  if (lastCarrier >= 0) answerOpenCalls(undefined);
  return { slots: out, sanitized };
}

export interface AssembleInput<M> {
  input: M[];
  views: MessageView[];
  /** The transcript after prune: same objects as the input outside pruned messages. */
  pruned: M[];
  prunedViews: MessageView[];
  plan: Plan;
  /** The handoff text; undefined keeps the (pruned) middle instead. */
  handoff: string | undefined;
  dialect: Dialect<M>;
}


/**
 * Whether two turns of one role meet, as strict templates see the output, where they did not meet in
 * the input (a written message, or turns the removed middle used to separate).
 */
function templateClash<M>(slots: Slot<M>[], views: MessageView[]): boolean {
  const previous: number[] = []; // each input message's previous shown turn
  let last = -1;
  views.forEach((v, i) => {
    previous[i] = last;
    if (shown(v)) last = i;
  });
  const out = slots.filter((s) => shown(s.view));
  return out.some((s, k) => {
    const prev = out[k - 1];
    if (!prev || prev.view.role !== s.view.role) return false;
    const [a, b] = [prev.into ?? prev.from, s.into ?? s.from];
    return a < 0 || b < 0 || previous[b] !== a;
  });
}

export function assemble<M>(x: AssembleInput<M>): { messages: M[]; views: MessageView[]; sanitized: Sanitized; templateClash: boolean } {
  const { plan, dialect } = x;
  const slots: Slot<M>[] = [];
  // The head as the input had it: prune leaves it alone, apart from images stubbed over maxRequestBytes.
  for (let i = 0; i < plan.head.end; i++) slots.push({ message: x.pruned[i], view: x.prunedViews[i], from: i });

  if (x.handoff === undefined) {
    for (let i = plan.middle.start; i < plan.middle.end; i++) slots.push({ message: x.pruned[i], view: x.prunedViews[i], from: i });
  } else {
    const pinned = plan.pinned.map((i) => ({ message: x.input[i], view: x.views[i], from: i }));
    if (!plan.handoffBeforePinned) slots.push(...pinned);
    if (plan.seam === "user" || plan.seam === "assistant") {
      const m = dialect.handoff(plan.seam, x.handoff);
      slots.push({ message: m, view: dialect.view(m), from: -1 });
    }
    if (plan.handoffBeforePinned) slots.push(...pinned);
  }

  // From the pruned transcript: the tail is pruned too when it alone is over the threshold.
  for (let i = plan.tail.start; i < x.input.length; i++) slots.push({ message: x.pruned[i], view: x.prunedViews[i], from: i });

  if (x.handoff !== undefined && plan.seam === "merge") {
    let at = plan.head.end + plan.pinned.length;
    while (slots[at].view.role === "system") at++; // a system message stands outside the alternation
    const merged = dialect.prepend(slots[at].message, x.handoff);
    slots[at] = { message: merged, view: dialect.view(merged), from: -1, into: slots[at].from };
  }

  // Only a handoff needs the note; a prune-only pass leaves the system message (and the prompt cache
  // of everything before the first pruned output) as it was.
  if (x.handoff !== undefined && plan.head.end > 0 && x.views[0].role === "system" && !x.views[0].text.includes(SYSTEM_NOTE)) {
    const noted = dialect.appendNote(x.input[0], SYSTEM_NOTE);
    slots[0] = { message: noted, view: dialect.view(noted), from: -1 };
  }

  const { slots: clean, sanitized } = sanitize(slots, dialect);
  return { messages: clean.map((s) => s.message), views: clean.map((s) => s.view), sanitized, templateClash: x.handoff !== undefined && (dialect.wireRole?.("tool") ?? "tool") === "tool" && templateClash(clean, x.views) };
}
