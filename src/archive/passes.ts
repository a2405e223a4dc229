// How many passes came before this one, by what they left in the transcript: a caller that keeps the
// messages but not the state still gets references no earlier pass used. Loaded with the code that writes.
import { findHandoff } from "../facts/handoff.js";
import type { MessageView } from "../dialects/view.js";

/** A reference our handoffs and one-liners cite: `#2.14` (the third pass) or `#14` (the first). */
const CITED = /#(?:(\d{1,6})\.)?\d{1,9}\b/g;

/**
 * The passes a text of ours says came before this one (`#2.14` → 3, `#14` → 1). A `#4.2` it quotes
 * from a user counts too: the pass then jumps ahead, and its references stay unique all the same.
 */
function passesCited(text: string): number {
  let passes = 1;
  for (const m of text.matchAll(CITED)) if (m[1]) passes = Math.max(passes, Number(m[1]) + 1);
  return passes;
}

/**
 * The passes the transcript says came before this one, by what they left: the latest handoff of ours,
 * and the one-liners of pruned outputs (a prune-only pass writes no handoff). A caller that keeps only
 * the messages, not the state, still gets references no earlier pass used.
 */
export function passesBehind(views: MessageView[], handoffAt: number): number {
  let passes = handoffAt >= 0 && findHandoff(views[handoffAt].text)?.ours ? passesCited(views[handoffAt].text) : 0;
  const oneLiner = "[output pruned #";
  for (const v of views) for (const r of v.results) if (r.text.startsWith(oneLiner)) passes = Math.max(passes, passesCited(r.text.slice(oneLiner.length - 1, r.text.indexOf("]"))));
  return passes;
}
