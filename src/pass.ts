// The part of a pass that rewrites: pruning, the summary stage, writing the result. src/compact.ts loads
// it with import() on the first pass that rewrites; a no-op pass, most of them (a compactor is asked
// before every model call), loads none of it, redaction's catalogue included: only lazily loaded code
// imports it (the entry's `redact` is a function of its own, src/redact-entry.ts), or esbuild would put
// it in a chunk every import loads.
import { passesBehind } from "./archive/passes.js";
import type { Parsing } from "./facts/call.js";
import { keptViews } from "./estimate/adopt.js";
import { SYSTEM_NOTE } from "./facts/handoff.js";
import type { Prepared } from "./plan/prepared.js";
import { keptTokens } from "./plan/kept.js";
import { prune, type PruneResult } from "./prune/index.js";
import { stubForBytes } from "./prune/bytes.js";
import { redactor as catalogue, type PassRedactor } from "./redact/index.js";
import { completed } from "./redact/more.js";
import { written } from "./result.js";
import { cacheReport, sentFingerprint } from "./report/cache.js";
import { summaryStage } from "./summarize/load.js";
import type { CacheRates, CompactMode, CompactReport } from "./report/types.js";
import type { Revised } from "./summarize/stage.js";
import type { SummaryInfo } from "./summarize/types.js";
import type { CompactionEvent, CompactOptions, CompactResult } from "./types.js";

/** What `accept` needs: the handoff's text as the pass wrote it, and the same pass written again with an edit. */
export interface Review<M> {
  handoff: string;
  revise: (edited: string) => CompactResult<M>;
}

/**
 * Redaction for one pass: a text is read once, whichever stage asks for it (a call's arguments pruned
 * and archived, a failed output the summary quotes and the archive keeps, one output archived twice),
 * windows of one-liners included. Per pass: the memo goes with the pass (and with the archive's
 * entries not yet read).
 */
export function readOnce(r: PassRedactor): PassRedactor & Parsing {
  const redact = once((text) => r.redact(text));
  // a call's arguments parsed once: by prune's draft, then by the checkpoint (src/facts/call.ts `Parsing`)
  return { ...r, redact, parse: once(JSON.parse), streamKit: { ...r.streamKit, redact } };
}

/**
 * `read` of each text once a pass. By length first: a string is hashed whole on its first use as a key
 * (~1 ns a character), and most texts a pass reads are new strings (windows, JSON of a cut tree) of a
 * length no other has. Texts that share a length are mapped by text.
 */
function once<T>(read: (text: string) => T): (text: string) => T {
  const done = new Map<number, [text: string, value: T] | Map<string, T>>();
  return (text) => {
    const one = done.get(text.length);
    if (one instanceof Map) return one.has(text) ? one.get(text)! : one.set(text, read(text)).get(text)!;
    if (one?.[0] === text) return one[1];
    const value = read(text);
    const now = done.get(text.length); // (as it is after any reading `read` asked for)
    if (now instanceof Map) now.set(text, value);
    else done.set(text.length, now ? new Map([now, [text, value]]) : [text, value]);
    return value;
  };
}

/**
 * Prunes, summarizes when pruning is not enough, and writes the result (its report timed and emitted,
 * the system note added); "aborted" when the signal fired while summarizing. `review` is handed what
 * `accept` needs when the pass wrote a summary or the marker.
 */
export async function rewritten<M>(
  p: Prepared<M>,
  options: CompactOptions<M>,
  emit: (e: CompactionEvent) => void,
  reportOf: (mode: CompactMode) => CompactReport,
  started: number,
  rates: CacheRates,
  review?: (r: Review<M>) => void,
): Promise<CompactResult<M> | "aborted"> {
  // the whole catalogue (./redact/more.ts completes ./redact/shapes.ts) and the caller's known values
  const redactor = readOnce(completed(catalogue, options.secrets));
  // What the pass must keep is over the threshold: its tail is pruned too, even with nothing between head and tail.
  const kept = keptTokens(p.plan);
  const tailOver = kept > p.plan.tokens.threshold;
  const middleEmpty = p.plan.middle.end <= p.plan.middle.start;
  p.views = keptViews(p.views, p.input);
  const pass = Math.max(p.state.compactions, passesBehind(p.views, p.plan.previousHandoffIndex));
  p.state = { ...p.state, compactions: pass };
  p.refs = options.refIndexes ? { pass, own: options.refIndexes } : pass;
  const { plan: pl, settings, dialect } = p;
  // Over maxRequestBytes alone (the tokens under the threshold): only the oldest images go, nothing else changes.
  const overBytes = pl.bytes! > settings.maxRequestBytes!;
  const bytesOnly = overBytes && pl.tokens.total <= pl.tokens.threshold && !options.force;
  // Where a summary by ours (no summarizer given) is likely, the middle's one-liners and shrunk
  // arguments are drafted (quoting raw text, for their sizes) to decide: ours reads no line of the
  // middle. Written through redaction only if pruning is accepted after all (counted again as written:
  // a mask changes a line's size). Likely: a transcript over five times the prune target (pruning
  // rarely shrinks one that far: outputs go, all else stays).
  const draft = !overBytes && !options.summarizer && pl.tokens.total > 5 * pl.pruneTarget;
  const prunes = (drafted: boolean) => prune(p.input, p.views, pl, settings, dialect, redactor, tailOver, p.refs, drafted);
  let pruned = bytesOnly ? untouched(p) : prunes(draft);
  const accepts = () => pruned.items.length > 0 && (bytesOnly || pruned.total <= pl.pruneTarget);
  if (draft && accepts()) pruned = prunes(false);
  if (overBytes) stubForBytes(pruned, p.input, p.bytes!, pl, settings, dialect, p.refs);
  const pruneAccepted = accepts();
  emit({ type: "prune", items: pruned.items.length, tokensSaved: pl.tokens.total - pruned.total, accepted: pruneAccepted });

  let handoff: string | undefined;
  let mode: CompactMode = "prune";
  let summary: SummaryInfo | undefined;
  let summaryText: string | undefined;
  let failures: CompactReport["failures"] = [];
  let cooldowns = p.state.cooldowns;
  let revise: ((text: string) => Revised) | undefined;

  if (!pruneAccepted && !middleEmpty && !bytesOnly) {
    // Drafts reach our summarizer alone, which quotes no line (a tool result is judged on its whole
    // output) and reads a call's values from the arguments as the transcript has them (`argumentsOf`).
    const stage = await summaryStage(p, pruned.views, pruned.perMessage, options, redactor);
    if (stage === "aborted") return stage;
    ({ handoff, mode, summary, summaryText, failures, cooldowns, revise } = stage);
  }

  const decided = { pruned, pruneAccepted, kept, handoff, mode, summary, summaryText, failures, cooldowns };
  const finish = (d: typeof decided): CompactResult<M> => {
    const out = written(p, d, reportOf, redactor.redact, options.archiveLimit);
    out.report.durationMs = Date.now() - started;
    // A system prompt kept beside the messages comes back beside them, with the note once compacted.
    if (p.system !== undefined) {
      const noted = out.messages !== p.input && d.handoff !== undefined && !(settings.system ?? "").includes(SYSTEM_NOTE);
      out.system = noted ? dialect.appendSystemNote!(p.system, SYSTEM_NOTE) : p.system;
      out.report.systemChanged = noted;
    }
    if (out.messages !== p.input) cached(p, out, rates);
    return out;
  };
  const out = finish(decided);
  emit({ type: "done", report: out.report });
  if (review && revise) review({ handoff: summaryText ?? handoff!, revise: (text) => finish({ ...decided, ...revise!(text) }) });
  return out;
}

/** report.cache, and the output's fingerprint in the state for the next pass's. */
function cached<M>(p: Prepared<M>, out: CompactResult<M>, rates: CacheRates): void {
  const { report } = out;
  report.cache = cacheReport({
    input: p.input,
    firstChangedIndex: report.firstChangedIndex,
    outputLength: out.messages.length,
    perMessage: p.plan.tokens.perMessage,
    fixedTokens: p.plan.fixedTokens,
    tokensBefore: report.tokensBefore,
    tokensAfter: report.tokensAfter,
    systemChanged: Boolean(report.systemChanged),
    sent: p.state.sent,
    rates,
  });
  const print = sentFingerprint(out.messages);
  const { sent: _, ...state } = out.state;
  out.state = print === undefined ? state : { ...state, sent: { messages: out.messages.length, fingerprint: print } };
}

/** The transcript as it came, in a prune's shape (a pass that prunes nothing the usual way). */
function untouched<M>(p: Prepared<M>): PruneResult<M> {
  const perMessage = p.plan.tokens.perMessage.slice();
  return { messages: p.input.slice(), views: p.views.slice(), perMessage, total: p.plan.tokens.total, items: [], reasoning: new Map() };
}
