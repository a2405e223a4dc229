// What the summary stage hands a summarizer (the request, the material, its turns) and what it reports
// back (the summary, its check, how a summarizer failed).
import type { ChatMessage } from "../dialects/types.js";
import type { Refs } from "../refs.js";

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
  /** The handoff was edited before it was accepted (`accept(proposal, { handoff })`). */
  edited?: boolean;
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
