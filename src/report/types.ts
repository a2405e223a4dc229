// What a pass says it did.
import type { Sanitized } from "../assemble/types.js";
import type { Range, StallInfo } from "../plan/types.js";
import type { PrunedItem } from "../prune/types.js";
import type { SummarizerFailure, SummaryInfo } from "../summarize/types.js";

/** "stalled": over the threshold, but compaction waits for a new user message after passes that made no progress (`report.stalled`). */
export type CompactMode = "noop" | "prune" | "summary" | "fallback" | "aborted" | "stalled";

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
  /** Compaction stopped making progress: why, and what would help (on the pass that stops and on each stalled one). */
  stalled?: StallInfo;
  /** What a pass that rewrites does to the provider's prompt cache. */
  cache?: CacheReport;
}

/**
 * Prices of a request's input as multiples of the base input price: a cached token read, and an
 * uncached one (which the provider writes to its cache). `inputPerMTok`, when given, turns the
 * estimate into money (per million tokens, e.g. USD).
 */
export interface CacheRates {
  read: number;
  write: number;
  inputPerMTok?: number;
}

/** What a pass does to the provider's prompt cache, and what the next request will cost for it. */
export interface CacheReport {
  /** What the prefix is compared with: the previous pass's output (recognised in the state), or this pass's input. */
  basis: "previous output" | "input";
  /** Messages at the start of the output the provider has already cached, and their tokens (fixed tokens included). */
  keptMessages: number;
  keptTokens: number;
  /** The first output message that differs from what was cached (-1: none). */
  firstChangedIndex: number;
  rates: CacheRates;
  /** The next request's input in base-price tokens: kept tokens at the read rate, the rest at the write rate. */
  nextRequestCost: number;
  /** The same, had the transcript been sent as it was (its cached prefix read, nothing rewritten). */
  uncompactedCost: number;
  /** `nextRequestCost` and `uncompactedCost` in money, with `rates.inputPerMTok`. */
  nextRequestPrice?: number;
  uncompactedPrice?: number;
}
