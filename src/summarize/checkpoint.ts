// The checkpoint's structure and size, shared by the model prompt and the deterministic summarizer.

/** The checkpoint's sections, in order. The deterministic summarizer fills the same ones. */
export const SECTIONS = [
  "Active task",
  "Goal",
  "Constraints and preferences",
  "Completed actions",
  "Active state",
  "In progress",
  "Blocked",
  "Key decisions",
  "Resolved questions",
  "Pending asks",
  "Relevant files",
  "Remaining work",
  "Critical values",
] as const;

/** The fewest output tokens a summary is given, however little room is left: a checkpoint's bones. */
export const MIN_SUMMARY_TOKENS = 256;

/**
 * Output tokens allowed for a summary: the room left under the threshold once what the pass keeps
 * (fixed tokens, head, pinned request, tail) and the handoff's framing are counted, at least
 * MIN_SUMMARY_TOKENS, at most max(1,000, min(12,000, 5 % of the window)).
 */
export function summaryBudget(room: number, contextWindow: number): number {
  const ceiling = Math.max(1000, Math.min(12_000, Math.floor(contextWindow * 0.05)));
  return Math.max(MIN_SUMMARY_TOKENS, Math.min(ceiling, Math.floor(room)));
}
