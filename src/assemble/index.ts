// assemble: head + handoff + tail, the system note once, every tool call paired with its result.
import type { Dialect, MessageView, ToolCallView } from "../dialects/view.js";
import type { Plan } from "../types.js";
import { SYSTEM_NOTE } from "./handoff.js";

export interface Sanitized {
  removedOrphanResults: number[];
  stubbedCalls: string[];
}

interface Slot<M> {
  message: M;
  view: MessageView;
  /** Index in the input, or -1 for a message compaction wrote. */
  from: number;
}

export const STUB_RESULT = "[no result: this tool call was not answered in the transcript]";

/**
 * Drops tool results whose call is gone and answers calls whose result is gone with a stub.
 * A tool-call group at the very end is in flight (its results are yet to come) and stays as is.
 */
function sanitize<M>(slots: Slot<M>[], dialect: Dialect<M>): { slots: Slot<M>[]; sanitized: Sanitized } {
  const sanitized: Sanitized = { removedOrphanResults: [], stubbedCalls: [] };
  const out: Slot<M>[] = [];
  let open = new Map<string, ToolCallView>();
  const answerOpenCalls = () => {
    for (const call of open.values()) {
      const stub = dialect.stubResult(call, STUB_RESULT);
      out.push({ message: stub, view: dialect.view(stub), from: -1 });
      sanitized.stubbedCalls.push(call.id);
    }
  };
  for (const s of slots) {
    if (s.view.role === "tool") {
      const id = s.view.toolCallId;
      if (id !== undefined && open.delete(id)) out.push(s);
      else if (s.from >= 0) sanitized.removedOrphanResults.push(s.from);
      continue;
    }
    answerOpenCalls();
    out.push(s);
    open = new Map(s.view.toolCalls.map((c) => [c.id, c]));
  }
  return { slots: out, sanitized };
}

export interface AssembleInput<M> {
  input: M[];
  views: MessageView[];
  /** The transcript after prune: same objects as the input outside pruned middle messages. */
  pruned: M[];
  prunedViews: MessageView[];
  plan: Plan;
  /** The handoff text; undefined keeps the (pruned) middle instead. */
  handoff: string | undefined;
  dialect: Dialect<M>;
}

export function assemble<M>(x: AssembleInput<M>): { messages: M[]; sanitized: Sanitized } {
  const { plan, dialect } = x;
  const slots: Slot<M>[] = [];
  for (let i = 0; i < plan.head.end; i++) slots.push({ message: x.input[i], view: x.views[i], from: i });

  if (x.handoff === undefined) {
    for (let i = plan.middle.start; i < plan.middle.end; i++) slots.push({ message: x.pruned[i], view: x.prunedViews[i], from: i });
  } else {
    for (const i of plan.pinned) slots.push({ message: x.input[i], view: x.views[i], from: i });
    if (plan.seam === "user" || plan.seam === "assistant") {
      const m = dialect.handoff(plan.seam, x.handoff);
      slots.push({ message: m, view: dialect.view(m), from: -1 });
    }
  }

  for (let i = plan.tail.start; i < x.input.length; i++) slots.push({ message: x.input[i], view: x.views[i], from: i });

  if (x.handoff !== undefined && plan.seam === "merge") {
    const at = plan.head.end + plan.pinned.length;
    const merged = dialect.prepend(slots[at].message, x.handoff);
    slots[at] = { message: merged, view: dialect.view(merged), from: -1 };
  }

  if (plan.head.end > 0 && x.views[0].role === "system" && !x.views[0].text.includes(SYSTEM_NOTE)) {
    const noted = dialect.appendNote(x.input[0], SYSTEM_NOTE);
    slots[0] = { message: noted, view: dialect.view(noted), from: -1 };
  }

  const { slots: clean, sanitized } = sanitize(slots, dialect);
  return { messages: clean.map((s) => s.message), sanitized };
}
