// The summarizer chain: each in turn, failures classified and cooled down, never losing the middle.
import { unframed } from "./written.js";
import { SummarizerError } from "../errors.js";
import type { Redactor } from "../redact/index.js";
import type { RedactedStream } from "../redact/stream.js";
import { checkSummary, notCheckpoint } from "./check.js";
import { redactedMaterial } from "./material.js";
import { isDeterministic } from "../summarizers/local.js";
import { deterministicCheckpoint, summarizeLocally } from "../summarizers/deterministic.js";
import type { CompactorState, Cooldown } from "../state.js";
import type { CompactionEvent } from "../types.js";
import type { FailureKind, HandoffMaterial, SummarizeRequest, Summarizer, SummarizerFailure, SummaryInfo } from "./types.js";

export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return Boolean(signal?.aborted) || (error instanceof Error && error.name === "AbortError");
}

export function classify(error: unknown): FailureKind {
  if (error instanceof SummarizerError) return error.kind;
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "timeout";
    if (error.name === "TypeError" && /fetch|network|connect/i.test(error.message)) return "network";
    if (error.name === "SyntaxError") return "malformed";
  }
  return "error";
}

const SECOND = 1000;
/** How long a summarizer rests after a failure of this kind; repeated timeouts rest longer. */
export function cooldownMs(kind: FailureKind, failures: number): number {
  switch (kind) {
    case "timeout":
      return [60, 300, 900][Math.min(failures, 3) - 1] * SECOND;
    case "cut_off":
    case "malformed":
      return 30 * SECOND;
    case "auth":
    case "not_found":
      return 900 * SECOND;
    default:
      return 60 * SECOND;
  }
}

export function labelOf(s: Summarizer, i: number): string {
  return s.label ?? `summarizer#${i}`;
}

/** Runs a summarizer and hands each piece of its text to `onDelta` (a plain string is one piece). */
async function feed(s: Summarizer, req: SummarizeRequest, onDelta: (text: string) => void): Promise<void> {
  const result = s(req);
  if (typeof (result as Promise<string>).then === "function") {
    const text = await (result as Promise<string>);
    if (typeof text !== "string") throw new SummarizerError("malformed", "the summarizer returned no text");
    return onDelta(text);
  }
  for await (const delta of result as AsyncIterable<string>) {
    if (req.signal?.aborted) throw req.signal.reason ?? new DOMException("aborted", "AbortError");
    onDelta(delta);
  }
}

/** The deterministic summary, released whole once written. */
function releasedWhole(emit: (text: string) => void, redact: (text: string) => string): RedactedStream {
  let raw = "";
  return {
    push: (delta) => void (raw += delta),
    end() {
      const text = redact(raw);
      emit(text);
      return { text };
    },
  };
}

export interface ChainInput {
  summarizers: Summarizer[];
  /** Bounded, not yet redacted: see `requestFor`. */
  material: HandoffMaterial;
  maxOutputTokens: number;
  signal?: AbortSignal;
  state: CompactorState;
  now: number;
  force: boolean;
  onEvent?: (e: CompactionEvent) => void;
  countText: (t: string) => number;
  redactor: Redactor;
}

export interface ChainOutcome {
  text?: string;
  info?: SummaryInfo;
  /** Index in the chain that produced the text (0 = first choice). */
  position: number;
  failures: SummarizerFailure[];
  cooldowns: Record<string, Cooldown>;
}

const lastResorts = new WeakSet<Summarizer>();

/**
 * The user's summarizers, then the local one (once) as the last resort; one labelled so stands in for
 * it. The last resort is made here, with the pass's redactor, not by `deterministicSummarizer()`.
 */
export function chainOf(summarizer: Summarizer | Summarizer[] | undefined, redactor: Redactor): Summarizer[] {
  const list = summarizer == null ? [] : Array.isArray(summarizer) ? summarizer : [summarizer]; // null: none given
  if (list.some((s) => s.label === "deterministic")) return list;
  const local: Summarizer = async (req) => summarizeLocally(req, redactor);
  local.label = "deterministic";
  lastResorts.add(local);
  return [...list, local];
}

/** Ours: trusted with the raw material (it redacts what it quotes). */
const isOurs = (s: Summarizer) => lastResorts.has(s) || isDeterministic(s);

/**
 * What each summarizer is given. Ours reads the raw material and redacts only what it keeps; any
 * other gets the material redacted, with the prompt built from it, both made once and only if needed.
 * The prompt's text is loaded then too: a bundle that never runs a model summarizer need not ship it.
 */
function requestFor(x: ChainInput): (s: Summarizer) => Promise<SummarizeRequest> {
  const { material, maxOutputTokens, signal } = x;
  let redacted: Promise<SummarizeRequest> | undefined;
  return async (s) => {
    if (isOurs(s)) return { messages: [], maxOutputTokens, handoff: material, signal };
    redacted ??= import("./prompt.js").then(({ summaryPrompt }) => {
      const handoff = redactedMaterial(material, x.redactor.redactMany);
      // The ledgers beside the turns: a model need not find 200 paths in 150k characters. Another
      // agent's checkpoint is not quoted in them: the model has it as the previous checkpoint.
      const ledgers = deterministicCheckpoint(material, x.redactor, Infinity, false);
      return { messages: summaryPrompt(handoff, maxOutputTokens, ledgers), maxOutputTokens, handoff, signal };
    });
    return redacted;
  };
}

/** Streaming redaction once loaded (with the first model summary): later passes skip the loader. */
let streamCode: Promise<typeof import("../redact/stream.js")> | undefined;
const streamModule = () =>
  (streamCode ??= import("../redact/stream.js").catch((error) => {
    streamCode = undefined; // a later pass tries again
    throw error;
  }));

export async function runChain(x: ChainInput): Promise<ChainOutcome> {
  const failures: SummarizerFailure[] = [];
  const cooldowns = { ...x.state.cooldowns };
  const emit = x.onEvent ?? (() => {});
  const request = requestFor(x);
  for (let i = 0; i < x.summarizers.length; i++) {
    const s = x.summarizers[i];
    const label = labelOf(s, i);
    const resting = cooldowns[label];
    const lastResort = s.label === "deterministic";
    if (resting && resting.until > x.now && !x.force && !lastResort) {
      const failure = { summarizer: label, kind: resting.kind, message: `cooling down until ${new Date(resting.until).toISOString()}`, skipped: true };
      failures.push(failure);
      emit({ type: "summary-failed", failure });
      continue;
    }
    emit({ type: "summary-start", summarizer: label, attempt: i });
    try {
      const delta = (text: string) => emit({ type: "summary-delta", summarizer: label, text });
      // A model's summary streams through held-back redaction, bounded by its budget (loaded with the
      // first model summary); ours is written within its budget and released whole.
      const deltas = lastResort ? releasedWhole(delta, x.redactor.redact) : (await streamModule()).redactedStream(x.redactor.streamKit, delta, x.countText, x.maxOutputTokens);
      await feed(s, await request(s), deltas.push);
      const { text: whole, cutFrom } = deltas.end();
      let text = unframed(whole).trim();
      if (!text) throw new SummarizerError("empty", "the summarizer returned an empty summary");
      const refused = lastResort ? undefined : notCheckpoint(text);
      if (refused) throw new SummarizerError("malformed", refused);
      let check: SummaryInfo["check"];
      if (!lastResort) {
        const checked = checkSummary(text, x.material, x.redactor);
        if (checked.check.ledgersAppended) {
          // The stream already showed the summary with its trailing whitespace: show only what follows.
          const appended = checked.text.slice(text.length);
          const shownTail = whole.slice(whole.trimEnd().length);
          delta(appended.startsWith(shownTail) ? appended.slice(shownTail.length) : appended);
        }
        ({ text, check } = checked);
      }
      delete cooldowns[label];
      const info: SummaryInfo = {
        source: lastResort ? "deterministic" : "model",
        tokens: x.countText(text),
        summarizer: label,
      };
      if (s.model) info.model = s.model;
      if (check) info.check = check;
      if (cutFrom !== undefined) info.cutFromTokens = cutFrom;
      emit({ type: "summary-done", summary: info });
      return { text, info, position: i, failures, cooldowns };
    } catch (error) {
      if (isAbort(error, x.signal)) throw error;
      const kind = classify(error);
      // Rests grow with successive failures of one kind (timeouts: 60 s, 5 min, 15 min), not across kinds.
      const count = resting?.kind === kind ? resting.failures + 1 : 1;
      if (!lastResort) cooldowns[label] = { until: x.now + cooldownMs(kind, count), kind, failures: count };
      // Provider errors may echo what was sent, a key included: redacted whole, then capped.
      const message = x.redactor.redactMessage(error instanceof Error ? error.message : String(error));
      const failure = { summarizer: label, kind, message };
      failures.push(failure);
      emit({ type: "summary-failed", failure });
    }
  }
  return { position: x.summarizers.length, failures, cooldowns };
}
