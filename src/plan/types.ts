// Where head, middle and tail fall, and whether a pass would compact.

export interface Range {
  start: number;
  end: number;
}

export interface Plan {
  tokens: { total: number; threshold: number; perMessage: number[] };
  shouldCompact: boolean;
  reason: string;
  head: Range;
  middle: Range;
  tail: Range;
  latestUserIndex: number;
  // Extensions beyond API.md's Plan:
  /** Effective window: contextWindow − maxOutputTokens. */
  effectiveWindow: number;
  /** Prune-only is accepted when it brings the total to at or below this (threshold − runway). */
  pruneTarget: number;
  /** Tokens sent with every request but never rewritten (tool definitions, a separate system prompt); in `tokens.total`. */
  fixedTokens: number;
  /** The tail's token budget: `tailTokens`, or 20 % of the threshold (of the total when that is smaller). */
  tailBudget: number;
  /** Index of an earlier handoff (ours or another agent's) found in the transcript, or -1. */
  previousHandoffIndex: number;
  /**
   * Middle messages kept verbatim: the latest user request when everything after it is too large for
   * the tail (one that carries tool results with the call message it answers, first), then the newest system message inside the transcript (Claude Code's environment) when
   * it falls in the middle; with `options.pin`, the middle's messages it keeps, in order, with the latest
   * request's. In the output they stand, in this order and as the same objects, next to the handoff.
   */
  pinned: number[];
  /** The pinned messages follow the handoff instead of preceding it: their first would meet one of its role after the head (the request a user message, a pinned call an assistant message or nothing), or only a system message is pinned. */
  handoffBeforePinned: boolean;
  /** How the handoff will join head and tail: as its own message of that role, or merged into the first tail message. */
  seam: "user" | "assistant" | "merge" | "none";
  /** With `options.pin`: every message it keeps (its choices and their tool pairs), in any partition. */
  userPinned?: number[];
  /** With `options.maxRequestBytes`: the request's bytes (its messages' JSON, with the system prompt and tools kept apart), UTF-8. */
  bytes?: number;
  /** Set while compaction is stalled (no progress in three passes) and no new user message came since. */
  stalled?: StallInfo;
}

/** Why compaction stopped, and what would let it make progress. */
export interface StallInfo {
  reason: string;
  /** What would help, each with its numbers: a smaller tail, a larger window, pinning less. */
  help: string[];
}

/** In the state while stalled: the index of the latest user message the stall waits to see followed by a new one. */
export interface StalledState extends StallInfo {
  at: number;
}
