// report: what a pass did, in numbers and words.
import { refOf, type Refs } from "../refs.js";
import type { Sanitized } from "../assemble/types.js";
import type { Plan } from "../plan/types.js";
import type { PrunedItem } from "../prune/types.js";
import type { SummarizerFailure, SummaryInfo } from "../summarize/types.js";

/** First output index whose message is not the input's object at that index: the cache breakpoint. */
export function firstChangedIndex<M>(input: M[], output: M[]): number {
  const n = Math.min(input.length, output.length);
  for (let i = 0; i < n; i++) if (input[i] !== output[i]) return i;
  return input.length === output.length ? -1 : n;
}

export interface WarningFacts {
  plan: Plan;
  pruned: PrunedItem[];
  pruneAccepted: boolean;
  pruneTotal: number;
  /** Whether the middle was replaced by a handoff (a summary or the marker). */
  summarized: boolean;
  failures: SummarizerFailure[];
  summary?: SummaryInfo;
  sanitized: Sanitized;
  tokensAfter: number;
  tailTokens: number;
  tailBudget: number;
  /** What the pass kept verbatim (fixed, head, pinned, tail), after pruning. */
  keptTokens: number;
  /** How the pass cites messages: the references the archive keys. */
  pass: Refs;
}

/** Over the threshold after a pass: by how much, and what holds it there. */
export function overWarning(plan: Plan, tokens: number, kept: number): string {
  const t = plan.tokens.threshold;
  const pins = plan.userPinned?.length ? `, ${plan.userPinned.length} pinned messages` : "";
  return `still ${tokens} tokens, over the threshold of ${t} by ${tokens - t} tokens: the head, the tail from index ${plan.tail.start} (latest request at ${plan.latestUserIndex})${pins} and fixed tokens alone hold ${kept}`;
}

export function warningsOf(f: WarningFacts): string[] {
  const w: string[] = [];
  const { plan } = f;
  if (f.pruned.length && !f.pruneAccepted && f.summarized) {
    w.push(
      `prune alone would reach ${f.pruneTotal} tokens, above the prune target of ${plan.pruneTarget} (threshold minus runway): summarized instead`,
    );
  }
  for (const x of f.failures) {
    w.push(x.skipped ? `summarizer ${x.summarizer} skipped: ${x.message}` : `summarizer ${x.summarizer} failed (${x.kind}): ${x.message}`);
  }
  if (f.summary?.cutFromTokens) w.push(`the summary had ${f.summary.cutFromTokens} tokens, over its budget: cut at whole lines to ${f.summary.tokens}`);
  if (f.sanitized.removedOrphanResults.length) {
    const refs = f.sanitized.removedOrphanResults.map((i) => refOf(i, f.pass));
    w.push(`removed tool results without a matching call at input indices ${f.sanitized.removedOrphanResults.join(", ")} (archived as ${refs.join(", ")})`);
  }
  if (f.sanitized.stubbedCalls.length) {
    w.push(`answered tool calls that had no result with a stub: ${f.sanitized.stubbedCalls.join(", ")}`);
  }
  if (f.tailTokens > f.tailBudget * 2 && plan.latestUserIndex === plan.tail.start) {
    w.push(
      `the tail holds ${f.tailTokens} tokens (budget ${f.tailBudget}) because the latest user message at index ${plan.latestUserIndex} is kept verbatim with everything after it`,
    );
  }
  const tail = f.pruned.filter((p) => p.index >= plan.tail.start && p.kind !== "shrunk").map((p) => p.index);
  if (tail.length) w.push(`the tail alone kept the transcript over the threshold: pruned its tool calls and results at indices ${tail.join(", ")}`);
  for (const p of f.pruned) {
    if (p.kind === "shrunk") w.push(`shrunk the newest tool result at index ${p.index} (${p.tokensBefore} → ${p.tokensAfter} tokens): whole it would not fit the window of ${plan.effectiveWindow}`);
  }
  if (f.tokensAfter > plan.tokens.threshold) w.push(overWarning(plan, f.tokensAfter, f.keptTokens));
  return w;
}
