// The public surface of the core's types: the pass's own (its options, its result, its events), and
// the rest re-exported from the stage that owns each. API.md is the contract: extend, don't rename.
import type { Dialect } from "./dialects/view.js";
import type { ChatMessage } from "./dialects/types.js";
import type { OpenAIChatInput, OpenAIChatWritten } from "./dialects/openai.js";
import type { Summarizer, SummarizerFailure, SummaryInfo } from "./summarize/types.js";
import type { Plan } from "./plan/types.js";
import type { CacheRates, CompactReport } from "./report/types.js";
import type { Archive } from "./archive/types.js";
import type { CompactorState } from "./state.js";

export type { ChatMessage, ContentPart, DialectName, ToolCall } from "./dialects/types.js";
export type { FailureKind, HandoffMaterial, HandoffTurn, SummarizeRequest, Summarizer, SummarizerFailure, SummaryCheck, SummaryInfo } from "./summarize/types.js";
export type { Plan, Range, StallInfo, StalledState } from "./plan/types.js";
export type { PrunedItem } from "./prune/types.js";
export type { Sanitized } from "./assemble/types.js";
export type { CacheRates, CacheReport, CompactMode, CompactReport } from "./report/types.js";
export type { Archive, ArchivedMessage } from "./archive/types.js";
export type { CompactorState, Cooldown } from "./state.js";
export type { OpenAIChatInput } from "./dialects/openai.js";

/**
 * The messages a pass gives back: the caller's own message type, widened with the messages the
 * dialect writes (`W`: handoff, stub results) only when that type does not hold them already.
 * `ChatCompletionMessageParam[]` in, `ChatCompletionMessageParam[]` out.
 */
export type Compacted<M, W> = [W] extends [M] ? M : M | W;

/** What a dialect of message type `M` writes, when not said: the default dialect's for its own message type, else `M`. */
export type DefaultWritten<M> = [OpenAIChatInput] extends [M] ? OpenAIChatWritten : M;

/**
 * Options of a pass. `M` is the message type the dialect reads (OpenAI Chat Completions by default),
 * `W` the messages it writes of its own (those of `openAIChat` for the default).
 */
export interface CompactOptions<M = OpenAIChatInput, W = DefaultWritten<M>> {
  contextWindow: number;
  maxOutputTokens?: number;
  threshold?: number;
  headMessages?: number;
  tailTokens?: number;
  protectedTools?: string[];
  imageTokens?: number;
  tools?: unknown[];
  countTokens?: (text: string) => number;
  summarizer?: Summarizer | Summarizer[];
  focus?: string;
  state?: CompactorState;
  force?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: CompactionEvent) => void;
  /** The message format: `openAIChat` (default), `anthropicMessages`, `aiSdkMessages`, or your own `Dialect`. */
  dialect?: Dialect<M, W>;
  /** With a dialect that keeps the system prompt beside the messages (`anthropicMessages`): that prompt. */
  system?: unknown;
  /**
   * Room prune-only must leave under the threshold to be accepted (tokens); default
   * max(2,000, 15 % of the threshold). 0 accepts any prune that gets under the threshold.
   */
  runway?: number;
  /** Clock for cooldowns (ms since epoch); defaults to Date.now. Useful in tests and replays. */
  now?: () => number;
  /** Characters of JSON `result.archive` may hold (default 5,000,000; the oldest entries go first, with a warning). 0: no archive. */
  archiveLimit?: number;
  /**
   * Values known to be secret (an app's own API keys): redacted wherever they appear, raw, base64,
   * URL-encoded or JSON-escaped, besides every shape redaction knows. Values under 4 characters are ignored.
   */
  secrets?: string[];
  /**
   * The number each input message is cited by (`#<n>`: archive keys, one-liners, ledgers), e.g. its index
   * in the caller's whole history, so that a message keeps its reference across passes that see it at
   * other positions; integers ≥ 0, no two alike; null for one without (cited `#<pass>.<index>`).
   */
  refIndexes?: readonly (number | null | undefined)[];
  /**
   * Messages to keep verbatim whatever partition they fall in (with their tool pairs: a pinned call keeps
   * its results and a pinned result its call): never summarized, never pruned; `report.pinned` counts them.
   */
  pin?(message: M, index: number): boolean;
  /**
   * The most bytes a request may take (its JSON, UTF-8: images and other payloads by their size): over
   * it a pass runs even under the token threshold, and the oldest images are stubbed (archived, cited)
   * until it fits, never those of the latest user message. Unset: bytes are not counted.
   */
  maxRequestBytes?: number;
  /** Cache prices for `report.cache` (multiples of the input price); default by dialect: Anthropic's for `anthropicMessages`, else OpenAI's. */
  cacheRates?: CacheRates;
}

export interface CompactResult<M = ChatMessage> {
  messages: M[];
  state: CompactorState;
  report: CompactReport;
  /** With a dialect that keeps the system prompt apart (`anthropicMessages`): the prompt, with the compaction note appended once compacted. */
  system?: unknown;
  /**
   * What this pass removed or pruned, whole and redacted, by the reference the handoff and the
   * one-liners cite (`#212`); read it back with `recall(archive, ref)`. Absent when nothing changed.
   */
  archive?: Archive;
}

export type CompactionEvent =
  | { type: "plan"; plan: Plan }
  | { type: "prune"; items: number; tokensSaved: number; accepted: boolean }
  | { type: "summary-start"; summarizer: string; attempt: number }
  | { type: "summary-delta"; summarizer: string; text: string }
  | { type: "summary-failed"; failure: SummarizerFailure }
  | { type: "summary-done"; summary: SummaryInfo }
  | { type: "done"; report: CompactReport };

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
