// Reasoning pruned from old turns: thinking a model wrote before the latest request is of no use to the
// next call (providers drop or reject it there), yet it is sent and counted. Only where the dialect
// can remove it (`Dialect.withoutReasoning`), only before the latest user message that answers no
// tool call: the current turn and its tool loop keep theirs (Anthropic requires the signed thinking of the latest assistant
// turn and of a tool loop in progress). What is removed goes to the archive with the message.
import type { Dialect, MessageView } from "../dialects/view.js";
import { rewrittenTokens } from "../estimate/rewritten.js";
import type { Settings } from "../options.js";
import type { Plan } from "../plan/types.js";
import type { PrunedItem } from "./types.js";

export interface ReasoningPruned<M> {
  messages: M[];
  views: MessageView[];
  perMessage: number[];
  items: PrunedItem[];
  /** The removed reasoning, by message index, for the archive. */
  reasoning: Map<number, string[]>;
}

/** Prunes reasoning from the middle's messages before the latest request, in place of `x`'s arrays. */
export function pruneReasoning<M>(x: ReasoningPruned<M>, plan: Plan, dialect: Dialect<M>, s: Settings): void {
  if (!dialect.withoutReasoning) return;
  // The current turn starts at the latest user message that answers no tool call: one that carries
  // results beside its text (Claude Code appends reminders to them) is still inside the tool loop.
  let turn = plan.latestUserIndex;
  while (turn > 0 && !(x.views[turn].role === "user" && !x.views[turn].results.length)) turn--;
  const end = Math.min(plan.middle.end, turn);
  for (let i = plan.middle.start; i < end; i++) {
    if (plan.pinned.includes(i) || plan.userPinned?.includes(i) || x.views[i].role !== "assistant") continue;
    const without = dialect.withoutReasoning(x.messages[i]);
    if (!without) continue;
    const view = dialect.view(without.message);
    const tokens = rewrittenTokens(view, s, x.messages[i]); // its texts, unchanged, not counted again
    x.items.push({ index: i, kind: "reasoning", tokensBefore: x.perMessage[i], tokensAfter: tokens });
    x.reasoning.set(i, without.reasoning);
    x.messages[i] = without.message;
    x.views[i] = view;
    x.perMessage[i] = tokens;
  }
}
