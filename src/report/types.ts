// What a pass says it did.
import type { Sanitized } from "../assemble/types.js";
import type { Range } from "../plan/types.js";
import type { PrunedItem } from "../prune/types.js";
import type { SummarizerFailure, SummaryInfo } from "../summarize/types.js";

export type CompactMode = "noop" | "prune" | "summary" | "fallback" | "aborted";

export interface CompactReport {
  mode: CompactMode;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  partitions: { head: Range; middle: Range; tail: Range };
  droppedMessages: number;
  firstChangedIndex: number;
  summary?: SummaryInfo;
  warnings: string[];
  durationMs: number;
  /** Extensions. */
  reason: string;
  pruned: PrunedItem[];
  failures: SummarizerFailure[];
  /** With a system prompt kept beside the messages: whether compaction appended its note to it. */
  systemChanged?: boolean;
  /** Tool messages removed or added to keep every call paired with its result. */
  sanitized: Sanitized;
  /** With `options.pin`, on a pass that rewrites: the input indexes it kept verbatim (its choices and their tool pairs) and their tokens. */
  pinned?: { indexes: number[]; tokens: number };
  /** With `options.maxRequestBytes`, on a pass that rewrites: the request's bytes before and after, and the budget. */
  bytes?: { before: number; after: number; max: number };
}
