// previewPrune: what pruning alone would do, synchronously. A file of its own, so that `compact`,
// which loads pruning lazily (src/pass.ts), does not carry it at import.
import type { Plan } from "./plan/types.js";
import type { PrunedItem } from "./prune/types.js";
import type { CompactOptions, DefaultWritten, OpenAIChatInput } from "./types.js";
import { PASS, prepare } from "./prepare.js";
import { keptTokens } from "./plan/kept.js";
import { prune } from "./prune/index.js";
import { redactor } from "./redact/index.js";
import { completed } from "./redact/more.js";

export interface PrunePreview {
  /** The plan the preview was made on (what `plan` returns). */
  plan: Plan;
  /** The total after deterministic pruning of the middle alone. */
  tokensAfter: number;
  /** Whether that alone would be accepted (at or below threshold − runway). */
  accepted: boolean;
  items: PrunedItem[];
}

/** The plan, and what prune alone would do to its middle, without any summarizer. Pure, synchronous. */
export function previewPrune<M extends D, D = OpenAIChatInput, W = DefaultWritten<D>>(messages: readonly M[], options: CompactOptions<D, W>): PrunePreview {
  const p = prepare(messages, options, PASS);
  const pruned = prune(p.input, p.views, p.plan, p.settings, p.dialect, completed(redactor), keptTokens(p.plan) > p.plan.tokens.threshold);
  return { plan: p.plan, tokensAfter: pruned.total, accepted: pruned.items.length > 0 && pruned.total <= p.plan.pruneTarget, items: pruned.items };
}
