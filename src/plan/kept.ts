// What a rewriting pass keeps and removes of a plan. Its own file: only the code a pass loads when it
// rewrites (and previewPrune) reads it, so it is not loaded with the import as src/plan/index.ts is.
import type { Plan } from "./types.js";
import { sum } from "./index.js";

/** What compaction keeps verbatim whatever it does: fixed tokens, head, pinned request and tail (all but what a handoff replaces). */
export const keptTokens = (p: Plan, perMessage = p.tokens.perMessage): number => p.fixedTokens + sum(perMessage) - removedSpan(p, perMessage).tokens;

/** The middle's messages a handoff replaces (pinned ones stay). */
export function removedIndexes(pl: Plan): number[] {
  const out: number[] = [];
  for (let i = pl.middle.start; i < pl.middle.end; i++) if (!pl.pinned.includes(i)) out.push(i);
  return out;
}

/** How many of the middle's messages a handoff replaces, and their tokens. */
export function removedSpan(pl: Plan, perMessage: number[]): { count: number; tokens: number } {
  const removed = removedIndexes(pl);
  return { count: removed.length, tokens: sum(removed.map((i) => perMessage[i])) };
}
