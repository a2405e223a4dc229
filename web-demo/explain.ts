// One line under each figure the page shows, saying what it is; and why a model's summary was not used.
import type { CompactReport } from "../src/index.js";

/** By the figure's test id (its `dd`). */
export const EXPLAIN: Record<string, string> = {
  total: "Estimated tokens of the request: every message, plus a separate system prompt.",
  threshold: "Compaction is due above this: the threshold knob × the effective window.",
  effective: "The context window minus the tokens reserved for the reply.",
  head: "Sent verbatim at the start: the system prompt and the first messages.",
  middle: "What a pass may rewrite: old tool outputs pruned, then the rest summarized.",
  tail: "Sent verbatim at the end: the latest turns, within the tail token budget.",
  prune: "Tokens that pruning old tool outputs alone would save, and the total after; “enough” when that reaches the prune target.",
  "prune-target": "Prune alone is accepted only at or under this (threshold − runway); otherwise the middle is summarized.",
  pinned: "Messages you pinned with a click, and the tool pairs they bring: sent verbatim by every pass.",
  mode: "What the pass did: noop, prune, summary (by whom), fallback (a local summary after a model failed) or aborted.",
  tokens: "Estimated tokens before → after the pass.",
  saved: "The share of the tokens the pass removed.",
  messages: "Messages before → after: the middle becomes one handoff.",
  "result-pinned": "The pinned messages this pass kept verbatim, by their index in the input.",
  "first-changed": "The first message that differs from the input: everything before it is sent byte for byte, so the provider's prompt cache holds up to there (−1: nothing changed).",
};

/**
 * Why the handoff is not the model's, when a model was asked: each failure of the chain, and what
 * stood in. Undefined when the model's summary was used (or none was asked for).
 */
export function whyNotModel(report: Pick<CompactReport, "summary" | "failures">): string | undefined {
  if (!report.failures.length || report.summary?.source === "model") return undefined;
  const why = report.failures.map((f) => `${f.summarizer}: ${f.kind} — ${f.message}`).join("; ");
  const used = report.summary?.source === "deterministic" ? "the deterministic checkpoint, written locally, is the handoff instead" : "an explicit marker stands in for the middle";
  return `The model's summary was not used (${why}): ${used}.`;
}
