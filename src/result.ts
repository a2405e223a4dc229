// The result of a pass that rewrites: the transcript assembled, measured, reported, the state advanced
// and the archive attached. Loaded with the first such pass (src/compact.ts): a no-op never needs it.
// Redaction and the report's first fields are handed in, the system note added by the caller: a file
// that both this import() and `plan` reach would be loaded with every import (esbuild shares it).
import { ARCHIVE_LIMIT, archiveOf, lazyArchive } from "./archive/index.js";
import { assemble } from "./assemble/index.js";
import type { Prepared } from "./plan/prepared.js";
import { messageTokens } from "./estimate/index.js";
import { requestBytes } from "./prune/bytes.js";
import { keptTokens, removedIndexes } from "./plan/kept.js";
import { sum, userText } from "./plan/index.js";
import type { PruneResult } from "./prune/index.js";
import { firstChangedIndex, overWarning, warningsOf } from "./report/index.js";
import { afterPass } from "./report/stall.js";
import type { CompactMode, CompactReport } from "./report/types.js";
import type { CompactorState } from "./state.js";
import type { SummaryInfo } from "./summarize/types.js";
import type { CompactResult } from "./types.js";

/** What the pass decided before writing: the pruned transcript and, when it summarized, the handoff. */
export interface Decided<M> {
  pruned: PruneResult<M>;
  pruneAccepted: boolean;
  /** Tokens of what the pass keeps verbatim. */
  kept: number;
  handoff: string | undefined;
  mode: CompactMode;
  summary: SummaryInfo | undefined;
  summaryText: string | undefined;
  failures: CompactReport["failures"];
  cooldowns: CompactorState["cooldowns"];
}

function sumTokens<M>(out: M[], known: Map<M, number>, p: Prepared<M>): number {
  let total = p.plan.fixedTokens;
  for (const m of out) total += known.get(m) ?? messageTokens(p.dialect.view(m), p.settings);
  return total;
}

/**
 * The state after a pass that ran (src/report/stall.ts): the back-off, the frequency guard and the
 * stall, told in `report`.
 */
function guarded(p: Prepared<unknown>, s: CompactorState, after: number, latestUser: number, report: CompactReport): CompactorState {
  const { plan, settings } = p;
  const { contextWindow, maxOutputTokens, runway } = settings;
  const g = afterPass(s, { plan, after, runway, now: settings.now(), contextWindow, maxOutputTokens, latestUser });
  report.warnings.push(...g.warnings);
  if (g.stalled) report.stalled = g.stalled;
  return g.state;
}

/** The archive of what the pass removed or pruned, within its limit; what did not fit is said. */
function archive(p: Prepared<unknown>, indexes: number[], redact: (text: string) => string, limit = ARCHIVE_LIMIT, reasoning?: Map<number, string[]>) {
  if (!limit || !indexes.length) return { warnings: [] };
  const { build, dropped } = archiveOf(p.views, indexes, p.refs!, limit, redact, reasoning);
  const warnings = dropped.length ? [`archive: ${dropped.length} oldest entries (${dropped[0]}–${dropped.at(-1)}) left out over archiveLimit ${limit}`] : [];
  return { build, warnings };
}

/** The pass's result; the input unchanged (and the pass a strike) when the rewrite would not shrink it. */
export function written<M>(p: Prepared<M>, d: Decided<M>, reportOf: (mode: CompactMode) => CompactReport, redact: (text: string) => string, archiveLimit?: number): CompactResult<M> {
  const { plan: pl, settings, dialect } = p;
  const { pruned, pruneAccepted, kept, handoff, mode, summary, summaryText, failures, cooldowns } = d;
  const { messages: out, views: outViews, sanitized, templateClash } = assemble({
    input: p.input,
    views: p.views,
    pruned: pruned.messages,
    prunedViews: pruned.views,
    plan: pl,
    handoff,
    dialect,
  });

  const known = new Map<M, number>();
  pruned.messages.forEach((m, i) => known.set(m, pruned.perMessage[i]));
  const tokensAfter = sumTokens(out, known, p);
  const bytesAfter = p.bytes && requestBytes(out, p.input, p.bytes, pl);
  if (tokensAfter >= pl.tokens.total && !(bytesAfter! < pl.bytes!)) {
    // A handoff longer than what it replaces: keep the input, count the pass as ineffective.
    const same = reportOf("noop");
    same.warnings.push(`compaction would not shrink the transcript (${pl.tokens.total} → ${tokensAfter} tokens): kept as it was`);
    if (pl.tokens.total > pl.tokens.threshold) same.warnings.push(overWarning(pl, pl.tokens.total, kept));
    same.failures = failures;
    return { messages: p.input, state: guarded(p, { ...p.state, cooldowns }, pl.tokens.total, pl.latestUserIndex, same), report: same };
  }
  const tailTokens = sum(pl.tokens.perMessage, pl.tail.start, pl.tail.end);
  const removed = handoff === undefined ? [] : removedIndexes(pl);

  const report = reportOf(mode);
  Object.assign(report, {
    tokensAfter,
    messagesAfter: out.length,
    droppedMessages: removed.length,
    firstChangedIndex: firstChangedIndex(p.input, out),
    pruned: pruned.items,
    failures,
    sanitized,
  });
  if (summary) report.summary = summary;
  if (bytesAfter !== undefined) report.warnings.push(...bytesReport(report, pl.bytes!, bytesAfter, settings.maxRequestBytes!));
  if (pl.userPinned) report.pinned = { indexes: pl.userPinned, tokens: sum(pl.userPinned.map((i) => pl.tokens.perMessage[i])) };
  if (templateClash) report.warnings.push("strict chat templates (Mistral, Devstral: tool calls and results skipped) see two turns of one role meet at the handoff: no tail start within the threshold keeps them alternating");
  // The zero-user guard's last word: where no seam could make the handoff a user message, say so.
  if (handoff !== undefined && !outViews.some(userText)) {
    report.warnings.push("no user message with text is left (the latest request has none, and no handoff could be one here): some OpenAI-compatible backends answer \"No user query found\"");
  }
  if (summary?.check?.ledgersAppended) report.warnings.push("the model's summary missed the latest request or an unresolved error: the missing ledger lines were appended to it");
  // What the handoff replaced, every output pruned (the tail's too, when it alone was over), and every
  // message the sanitizer took orphan results from: nothing removed is lost.
  const archived = archive(p, [...new Set([...removed, ...pruned.items.map((x) => x.index), ...sanitized.removedOrphanResults])].sort((a, b) => a - b), redact, archiveLimit, pruned.reasoning);
  report.warnings.push(...warningsOf({
    plan: pl,
    pruned: pruned.items,
    pruneAccepted,
    pruneTotal: pruned.total,
    summarized: handoff !== undefined,
    failures,
    summary,
    sanitized,
    tokensAfter,
    tailTokens,
    tailBudget: pl.tailBudget,
    keptTokens: keptTokens(pl, pruned.perMessage),
    pass: p.refs!,
  }));
  const counted: CompactorState = {
    ...p.state,
    cooldowns,
    compactions: p.state.compactions + 1,
    fallbackStreak: mode === "fallback" ? p.state.fallbackStreak + 1 : 0,
    ...(summaryText !== undefined ? { previousSummary: summaryText } : {}),
  };
  const latest = pl.latestUserIndex < 0 ? -1 : out.indexOf(p.input[pl.latestUserIndex]);
  const result: CompactResult<M> = { messages: out, state: guarded(p, counted, tokensAfter, latest, report), report };
  if (archived.build) lazyArchive(result, archived.build);
  report.warnings.push(...archived.warnings);
  return result;
}

/** report.bytes, and what the byte budget made the pass do or could not. */
function bytesReport(report: CompactReport, before: number, after: number, max: number): string[] {
  report.bytes = { before, after, max };
  const stubbed = report.pruned.filter((x) => x.kind === "image").length;
  return [
    ...(before > max ? [`the request was over maxRequestBytes (${max}): ${before} → ${after} bytes, the images of ${stubbed} messages stubbed, oldest first (archived)`] : []),
    ...(after > max ? [`still over maxRequestBytes (${max}) at ${after} bytes: the latest user message's images and pinned messages are never stubbed`] : []),
  ];
}
