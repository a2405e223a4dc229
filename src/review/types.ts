// Types of the user's control over a pass (issue 30): the visible stop, cache economics, review before commit.
import type { Archive, CompactorState, CompactReport, Plan } from "../types.js";

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

/** What a pass would do, computed and not applied: `accept` applies it, with the handoff as given or edited. */
export interface Proposal<M> {
  plan: Plan;
  /** The summary the handoff carries (without its framing): what an edit replaces. Absent when the pass writes no handoff. */
  handoff?: string;
  /** The input messages the handoff replaces (indexes into the input). */
  replaces: number[];
  messages: M[];
  archive?: Archive;
  report: CompactReport;
  /** The state `accept` will give. */
  state: CompactorState;
  system?: unknown;
}
