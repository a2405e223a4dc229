// The summary stage of a pass: material → summarizer chain → handoff text, or the marker when every
// summarizer failed. `compact` loads this module on its first summary, so a bundle pays for it only
// once a transcript has grown long enough to need one (no-op and prune-only passes never do).
import { handoffText, markerOutcome, unframed } from "./written.js";
import type { MessageView } from "../dialects/view.js";
import type { Refs } from "../refs.js";
import type { Redactor } from "../redact/index.js";
import { MESSAGE_OVERHEAD } from "../estimate/index.js";
import { keptTokens, removedSpan } from "../plan/kept.js";
import type { Plan } from "../plan/types.js";
import type { CompactMode } from "../report/types.js";
import type { CompactorState } from "../state.js";
import type { CompactOptions } from "../types.js";
import type { SummarizerFailure, SummaryInfo } from "./types.js";
import { chainOf, isAbort, runChain } from "./chain.js";
import { checkSummary } from "./check.js";
import { summaryBudget } from "./checkpoint.js";
import { handoffMaterial } from "./material.js";

export interface StageInput {
  plan: Plan;
  /** The views after pruning: a summarizer sees the middle as pruning left it. */
  views: MessageView[];
  /** The views before pruning: the ledgers judge tool results on their whole output. */
  original: MessageView[];
  /** The input messages, read for the names of their attachments. */
  messages?: unknown[];
  perMessage: number[];
  state: CompactorState;
  /** How the pass cites messages (see src/refs.ts). */
  refs: Refs;
  contextWindow: number;
  countText: (t: string) => number;
  options: CompactOptions<unknown>;
  redactor: Redactor;
}

export interface StageOutcome {
  handoff: string;
  mode: CompactMode;
  summary: SummaryInfo;
  /** The summary itself, kept in state for the next pass to update; absent for the marker. */
  summaryText?: string;
  failures: SummarizerFailure[];
  cooldowns: CompactorState["cooldowns"];
  /** The outcome with the summary a person edited: redacted and checked like a model's (see `accept`). */
  revise?: (text: string) => Revised;
}

export interface Revised {
  handoff: string;
  summary: SummaryInfo;
  summaryText: string;
}

/** Summarizes the middle; "aborted" when the caller's signal stopped it. */
export async function summarizeMiddle(x: StageInput): Promise<StageOutcome | "aborted"> {
  const { plan: pl, options } = x;
  const material = handoffMaterial({
    views: x.views,
    original: x.original,
    middle: pl.middle,
    pinned: pl.pinned,
    latestUserIndex: pl.latestUserIndex,
    previousHandoffIndex: pl.previousHandoffIndex,
    statePreviousSummary: x.state.previousSummary,
    focus: options.focus,
    redact: x.redactor.redact,
    messages: x.messages,
  });
  material.pass = x.refs; // the references the handoff cites are unique across passes
  const removed = removedSpan(pl, x.perMessage);
  // The handoff is sized to the room left under the threshold, its framing included.
  const framing = x.countText(handoffText("", removed.count)) + MESSAGE_OVERHEAD;
  const room = pl.tokens.threshold - keptTokens(pl, x.perMessage) - framing;
  // An edited summary is held to what a model's is: redacted whole, then checked against the same ledgers.
  const revise = (summary: SummaryInfo) => (edit: string): Revised => {
    const text = unframed(x.redactor.redact(edit)).trim();
    if (!text) throw new RangeError("context-compactor: the edited handoff is empty");
    const checked = checkSummary(text, material, x.redactor);
    const { cutFromTokens: _, ...info } = summary;
    return {
      handoff: handoffText(checked.text, removed.count),
      summaryText: checked.text,
      summary: { ...info, tokens: x.countText(checked.text), check: checked.check, edited: true },
    };
  };
  try {
    const chain = await runChain({
      summarizers: chainOf(options.summarizer, x.redactor),
      material,
      maxOutputTokens: summaryBudget(room, x.contextWindow),
      signal: options.signal,
      state: x.state,
      now: (options.now ?? Date.now)(),
      force: Boolean(options.force),
      onEvent: options.onEvent,
      countText: x.countText,
      redactor: x.redactor,
    });
    const { failures, cooldowns } = chain;
    if (chain.text !== undefined) {
      const mode = chain.position === 0 ? "summary" : "fallback";
      return { handoff: handoffText(chain.text, removed.count), mode, summary: chain.info!, summaryText: chain.text, failures, cooldowns, revise: revise(chain.info!) };
    }
    const why = `every summarizer failed (${failures.map((f) => `${f.summarizer}: ${f.kind}`).join(", ")})`;
    const marker = markerOutcome(pl, removed, why, x.countText, x.refs, x.redactor.redact);
    return { ...marker, failures, cooldowns, revise: revise(marker.summary) };
  } catch (error) {
    if (isAbort(error, options.signal)) return "aborted";
    throw error;
  }
}
