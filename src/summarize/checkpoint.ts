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

/** Output tokens allowed for a summary: a fifth of what it replaces, within sane bounds. */
export function summaryBudget(middleTokens: number, contextWindow: number): number {
  const ceiling = Math.max(1000, Math.min(12_000, Math.floor(contextWindow * 0.05)));
  return Math.min(ceiling, Math.max(600, Math.floor(middleTokens * 0.2)));
}
