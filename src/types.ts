// Public types of the core. API.md is the contract: extend, don't rename.
import type { Dialect } from "./dialects/view.js";
import type { OpenAIChatInput, OpenAIChatWritten } from "./dialects/openai.js";
import type { Refs } from "./archive/ref.js";

/** A content part of an OpenAI chat message. Unknown part types pass through untouched. */
export type ContentPart =
  | { type: "text"; text: string; [k: string]: unknown }
  | { type: "image_url"; image_url: { url: string; detail?: string }; [k: string]: unknown }
  | { type: string; [k: string]: unknown };

export interface ToolCall {
  id: string;
  type?: "function" | string;
  function: { name: string; arguments: string };
  [k: string]: unknown;
}

/** An OpenAI Chat Completions message, the default dialect. Extra fields are preserved. */
export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | ContentPart[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  [k: string]: unknown;
}

export type { OpenAIChatInput } from "./dialects/openai.js";

/**
 * The messages a pass gives back: the caller's own message type, widened with the messages the
 * dialect writes (`W`: handoff, stub results) only when that type does not hold them already.
 * `ChatCompletionMessageParam[]` in, `ChatCompletionMessageParam[]` out.
 */
export type Compacted<M, W> = [W] extends [M] ? M : M | W;

/** What a dialect of message type `M` writes, when not said: the default dialect's for its own message type, else `M`. */
export type DefaultWritten<M> = [OpenAIChatInput] extends [M] ? OpenAIChatWritten : M;

/** Names of the built-in dialects, as HTTP APIs and the converters use them. */
export type DialectName = "openai" | "anthropic" | "ai-sdk" | "openai-responses";

export interface SummarizeRequest {
  /** The summarization prompt, already redacted and bounded. */
  messages: ChatMessage[];
  maxOutputTokens: number;
  signal?: AbortSignal;
  /**
   * The same material in structured form (redacted, bounded), for summarizers that do not need a
   * model. Model-backed summarizers ignore it. `deterministicSummarizer()`, in-process and trusted,
   * is given it unredacted and redacts the turns it quotes, each text whole before any cut.
   */
  handoff?: HandoffMaterial;
}

export type Summarizer = ((request: SummarizeRequest) => AsyncIterable<string> | Promise<string>) & {
  /** Shown in reports and events, and keys the summarizer's cooldown in the state. */
  label?: string;
  /** The model name, reported as `report.summary.model`. */
  model?: string;
};

/** One middle message as the summarizer sees it: redacted, bounded, role-tagged. */
export interface HandoffTurn {
  index: number;
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  toolCalls: { name: string; arguments: string }[];
  /** For tool results: the call it answers (redacted, bounded), when known. */
  call?: { name: string; arguments: string };
  /** For tool results: whether the run failed, read from the whole output before any pruning. */
  failed?: boolean;
  /** For tool results: the exit status the whole output states, if any. */
  exit?: number;
  /** For failed tool results: their error lines, from the whole output. */
  errorLines?: string[];
  /** Its image and file parts, each as `mime/type name` as far as the message says (its text names them too). */
  attachments?: string[];
  /** For user turns whose text holds harness blocks (reminders, notices, slash-command echoes): the user's own words in it ("" for none). */
  words?: string;
}

export interface HandoffMaterial {
  turns: HandoffTurn[];
  /** How many middle messages the turns stand for (some may be elided by the input bound). */
  middleCount: number;
  previousSummary?: string;
  /** When the previous checkpoint was written by another agent or the provider (not by this library): its message's index. */
  previousForeignAt?: number;
  focus?: string;
  /** The latest real user request of the whole transcript, in the user's own words (harness blocks out), verbatim (bounded). */
  latestAsk?: string;
  /** Whether that request lies in the middle (its message is summarized away): the checkpoint must carry it. */
  latestAskInMiddle?: boolean;
  /** The first real user request of the transcript (the goal), bounded. */
  firstAsk?: string;
  /** Whether that request lies before the middle: kept verbatim in the head. */
  firstAskInHead?: boolean;
  /** Passes before this one (`state.compactions`): references cite `#pass.index` after the first; with `refIndexes`, the caller's numbers too. */
  pass?: Refs;
}

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
   * The number each input message is cited by (`#<n>`: archive keys, one-liners, ledgers), e.g. its index
   * in the caller's whole history, so that a message keeps its reference across passes that see it at
   * other positions; integers ≥ 0, no two alike; null for one without (cited `#<pass>.<index>`).
   */
  refIndexes?: readonly (number | null | undefined)[];
}

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
   * it falls in the middle. In the output they stand, in this order and as the same objects, next to
   * the handoff.
   */
  pinned: number[];
  /** The pinned messages follow the handoff instead of preceding it: their first would meet one of its role after the head (the request a user message, a pinned call an assistant message or nothing), or only a system message is pinned. */
  handoffBeforePinned: boolean;
  /** How the handoff will join head and tail: as its own message of that role, or merged into the first tail message. */
  seam: "user" | "assistant" | "merge" | "none";
}

export type CompactMode = "noop" | "prune" | "summary" | "fallback" | "aborted";

export interface SummaryInfo {
  source: "model" | "deterministic" | "marker";
  model?: string;
  tokens: number;
  /** Label of the summarizer that produced it. */
  summarizer?: string;
  /** For a model's summary: what survived of what must, and whether the ledgers were appended. */
  check?: SummaryCheck;
  /** The summary was longer than its budget: this many tokens, cut at whole lines to the budget. */
  cutFromTokens?: number;
}

export interface SummaryCheck {
  /**
   * The latest real request survives: kept verbatim in the transcript (tail or pinned), or, when the
   * last user turn is an agent notice, in the summary (its first 60 characters, whitespace folded).
   */
  latestRequest: boolean;
  /** Error lines of runs still failing at the end of the span, and how many the summary kept. */
  unresolvedErrors: number;
  errorsKept: number;
  /** Something was missing: the missing ledger lines were appended to the summary. */
  ledgersAppended: boolean;
}

export interface SummarizerFailure {
  summarizer: string;
  kind: FailureKind;
  message: string;
  /** True when the summarizer was skipped because it is cooling down. */
  skipped?: boolean;
}

export type FailureKind =
  | "auth"
  | "not_found"
  | "rate_limit"
  | "timeout"
  | "overloaded"
  | "cut_off"
  | "malformed"
  | "refusal"
  | "truncated"
  | "empty"
  | "network"
  | "http"
  | "error";

export interface PrunedItem {
  index: number;
  /** "shrunk": an output the model had not read yet, cut to its head, tail and error lines because whole it would not fit the window. */
  kind: "tool_output" | "duplicate" | "arguments" | "image" | "shrunk" | "reasoning";
  tokensBefore: number;
  tokensAfter: number;
}

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
}

/** What assembly changed to keep every tool call paired with its result. */
export interface Sanitized {
  /** Input indices of messages that lost tool results answering no call of their group. */
  removedOrphanResults: number[];
  /** Ids of calls that had no result and were given a stub one. */
  stubbedCalls: string[];
  /** Input indices of messages the sanitizer rewrote (orphan results removed or stub results added). */
  rewritten: number[];
  /** Messages dropped because nothing was left of them, and messages inserted for stubs. */
  messagesDropped: number;
  messagesAdded: number;
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

/** One removed or pruned message, redacted: its text, its calls' arguments, its tool results. */
export interface ArchivedMessage {
  role: string;
  text?: string;
  calls?: { name: string; arguments: string }[];
  results?: string[];
  /** Reasoning (thinking) the pass pruned from the message. */
  reasoning?: string[];
}

/** Plain JSON: archived messages by reference. Archives of successive passes never share a key. */
export type Archive = Record<string, ArchivedMessage>;

export interface Cooldown {
  until: number;
  kind: FailureKind;
  failures: number;
}

/** Plain JSON, owned by the caller; pass it back as `options.state`. */
export interface CompactorState {
  version: 1;
  previousSummary?: string;
  compactions: number;
  /** Consecutive ineffective passes (< 10 % saved). */
  strikes: number;
  /** While backed off, automatic compaction waits until the total reaches this many tokens. */
  backoffUntilTokens?: number;
  /** Consecutive passes that needed a fallback. */
  fallbackStreak: number;
  cooldowns: Record<string, Cooldown>;
  /** Provider tokens / local estimate, learned from `observeUsage`. */
  calibration?: { ratio: number; samples: number };
  /** Times (ms, `options.now`) of the latest effective passes that still left the total over the threshold (the frequency guard's memory). */
  recentPasses?: number[];
  /** While paused by the frequency guard, automatic compaction waits until this time (ms). */
  pausedUntil?: number;
}

export type CompactionEvent =
  | { type: "plan"; plan: Plan }
  | { type: "prune"; items: number; tokensSaved: number; accepted: boolean }
  | { type: "summary-start"; summarizer: string; attempt: number }
  | { type: "summary-delta"; summarizer: string; text: string }
  | { type: "summary-failed"; failure: SummarizerFailure }
  | { type: "summary-done"; summary: SummaryInfo }
  | { type: "done"; report: CompactReport };
