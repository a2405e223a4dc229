// One pass: validate → estimate & plan → prune → summarize → assemble → report.
import { assemble } from "./assemble/index.js";
import { SYSTEM_NOTE, handoffText, markerText } from "./assemble/handoff.js";
import { sniffDialect } from "./dialects/detect.js";
import { openAIChat } from "./dialects/openai.js";
import type { Dialect, MessageView, NeutralRole } from "./dialects/view.js";
import { messageTokens, toolDefinitionTokens } from "./estimate/index.js";
import { EFFECTIVE_SAVING, MAX_STRIKES, resolveSettings, type Settings } from "./options.js";
import { planViews } from "./plan/index.js";
import { prune } from "./prune/index.js";
import { redact } from "./redact/index.js";
import { firstChangedIndex, warningsOf } from "./report/index.js";
import { normalizeState } from "./state.js";
import { chainOf, isAbort, runChain } from "./summarize/chain.js";
import { handoffMaterial } from "./summarize/material.js";
import { summaryBudget } from "./summarize/checkpoint.js";
import type {
  ChatMessage,
  CompactMode,
  CompactOptions,
  CompactorState,
  CompactReport,
  CompactResult,
  Plan,
  PrunedItem,
  SummaryInfo,
} from "./types.js";

interface Prepared<M> {
  dialect: Dialect<M>;
  /** options.system, for dialects that keep the system prompt beside the messages. */
  system: unknown;
  input: M[];
  settings: Settings;
  state: CompactorState;
  views: MessageView[];
  plan: Plan;
  /** Said in every report of this input, whatever the pass does. */
  warnings: string[];
}

const BUILT_IN: Record<string, string> = { openai: "openAIChat", anthropic: "anthropicMessages", "ai-sdk": "aiSdkMessages" };

/** The dialect object of the options; OpenAI Chat Completions when none is given. */
function dialectOf<M>(d: Dialect<M> | undefined): Dialect<M> {
  if (d === undefined) return openAIChat as unknown as Dialect<M>;
  if (typeof d === "string") {
    const name = Object.hasOwn(BUILT_IN, d) ? BUILT_IN[d] : "openAIChat, anthropicMessages, aiSdkMessages";
    throw new RangeError(`context-compactor: options.dialect takes a dialect object, not the name ${JSON.stringify(d)}: import { ${name} } from "context-compactor"`);
  }
  if (typeof d?.validate !== "function" || typeof d.view !== "function") {
    throw new RangeError("context-compactor: options.dialect must be a Dialect object (openAIChat, anthropicMessages, aiSdkMessages or your own)");
  }
  return d;
}

/** A transcript that is plainly in another built-in format than the dialect that reads it: never a silent mis-read. */
function misread(dialect: Dialect<unknown>, input: unknown[]): string[] {
  const seen = Object.hasOwn(BUILT_IN, dialect.name) ? sniffDialect(input) : undefined;
  return seen && seen !== dialect.name
    ? [`these messages look like the ${seen} format but were read as ${dialect.name}: pass dialect: ${BUILT_IN[seen]} (tool calls and results may have been missed)`]
    : [];
}

function prepare<M>(messages: unknown, options: CompactOptions<M>): Prepared<M> {
  const dialect = dialectOf(options?.dialect);
  const input = dialect.validate(messages);
  const settings = resolveSettings(options as CompactOptions<unknown>);
  const state = normalizeState(options.state);
  const views = input.map((m) => dialect.view(m));
  const wire = (r: NeutralRole) => dialect.wireRole?.(r) ?? r;
  const plan = planViews(views, settings, state, Boolean(options.force), wire, Boolean(dialect.keepsEmptied));
  const system = dialect.appendSystemNote ? options.system : undefined;
  return { dialect, input, settings, state, views, plan, system, warnings: misread(dialect, input) };
}

/** Where head, middle and tail fall, and whether a pass would compact. Pure, synchronous. */
export function plan<M = ChatMessage>(messages: NoInfer<M>[], options: CompactOptions<M>): Plan {
  return prepare(messages, options).plan;
}

export interface PrunePreview {
  /** The plan the preview was made on (what `plan` returns). */
  plan: Plan;
  /** The total after deterministic pruning of the middle alone. */
  tokensAfter: number;
  /** Whether that alone would be accepted (at or below threshold − runway). */
  accepted: boolean;
  items: PrunedItem[];
}

/** The plan, and what prune alone would do to its middle, without any summarizer. Pure, synchronous. */
export function previewPrune<M = ChatMessage>(messages: NoInfer<M>[], options: CompactOptions<M>): PrunePreview {
  const p = prepare(messages, options);
  const pruned = prune(p.input, p.views, p.plan, p.settings, p.dialect);
  return { plan: p.plan, tokensAfter: pruned.total, accepted: pruned.items.length > 0 && pruned.total <= p.plan.pruneTarget, items: pruned.items };
}

function baseReport(p: Prepared<unknown>, mode: CompactMode, started: number): CompactReport {
  const { plan: pl, input } = p;
  return {
    mode,
    tokensBefore: pl.tokens.total,
    tokensAfter: pl.tokens.total,
    messagesBefore: input.length,
    messagesAfter: input.length,
    partitions: { head: pl.head, middle: pl.middle, tail: pl.tail },
    droppedMessages: 0,
    firstChangedIndex: -1,
    warnings: [...p.warnings],
    durationMs: Date.now() - started,
    reason: pl.reason,
    pruned: [],
    failures: [],
    sanitized: { removedOrphanResults: [], stubbedCalls: [], rewritten: [], messagesDropped: 0, messagesAdded: 0 },
  };
}

function unchanged<M>(p: Prepared<M>, mode: "noop" | "aborted", started: number, why?: string): CompactResult<M> {
  const report = baseReport(p as Prepared<unknown>, mode, started);
  if (why) report.warnings.push(why);
  return withSystem({ messages: p.input, state: p.state, report }, p, false);
}

/** A system prompt kept beside the messages comes back beside them, with the note once compacted. */
function withSystem<M>(r: CompactResult<M>, p: Prepared<M>, changed: boolean): CompactResult<M> {
  if (p.system === undefined) return r;
  const noted = changed && !(p.settings.system ?? "").includes(SYSTEM_NOTE);
  r.system = noted ? p.dialect.appendSystemNote!(p.system, SYSTEM_NOTE) : p.system;
  r.report.systemChanged = noted;
  return r;
}

function sumTokens<M>(out: M[], known: Map<M, number>, p: Prepared<M>): number {
  let total = p.plan.fixedTokens;
  for (const m of out) total += known.get(m) ?? messageTokens(p.dialect.view(m), p.settings);
  return total;
}

/** Back-off accounting: a pass that saves under 10 % is a strike; two strikes back off. */
function withBackoff(s: CompactorState, before: number, after: number, runway: number): CompactorState {
  if (before - after >= before * EFFECTIVE_SAVING) {
    const { backoffUntilTokens: _, ...rest } = s;
    return { ...rest, strikes: 0 };
  }
  const strikes = s.strikes + 1;
  // Back off until a runway's worth of new conversation arrives: each retry needs new material.
  return strikes >= MAX_STRIKES ? { ...s, strikes, backoffUntilTokens: before + runway } : { ...s, strikes };
}

/** One compaction pass. Under the threshold it is a no-op that returns the same array. */
export async function compact<M = ChatMessage>(messages: NoInfer<M>[], options: CompactOptions<M>): Promise<CompactResult<M>> {
  const started = Date.now();
  const p = prepare<M>(messages, options);
  const emit = options.onEvent ?? (() => {});
  emit({ type: "plan", plan: p.plan });
  if (!p.plan.shouldCompact) return unchanged(p, "noop", started);
  if (options.signal?.aborted) return unchanged(p, "aborted", started, "aborted before compaction started");

  const { plan: pl, settings, dialect } = p;
  const pruned = prune(p.input, p.views, pl, settings, dialect);
  const pruneAccepted = pruned.items.length > 0 && pruned.total <= pl.pruneTarget;
  emit({ type: "prune", items: pruned.items.length, tokensSaved: pl.tokens.total - pruned.total, accepted: pruneAccepted });

  let handoff: string | undefined;
  let mode: CompactMode = "prune";
  let summary: SummaryInfo | undefined;
  let summaryText: string | undefined;
  let failures: CompactReport["failures"] = [];
  let cooldowns = p.state.cooldowns;
  const middleCount = pl.middle.end - pl.middle.start - pl.pinned.length;

  if (!pruneAccepted) {
    const material = handoffMaterial({
      views: pruned.views,
      middle: pl.middle,
      pinned: pl.pinned,
      latestUserIndex: pl.latestUserIndex,
      previousHandoffIndex: pl.previousHandoffIndex,
      statePreviousSummary: p.state.previousSummary,
      focus: options.focus,
    });
    let middleTokens = 0;
    for (let i = pl.middle.start; i < pl.middle.end; i++) if (!pl.pinned.includes(i)) middleTokens += pruned.perMessage[i];
    const budget = summaryBudget(middleTokens, settings.contextWindow);
    try {
      const chain = await runChain({
        summarizers: chainOf(options.summarizer),
        material,
        maxOutputTokens: budget,
        signal: options.signal,
        state: p.state,
        now: (options.now ?? Date.now)(),
        force: Boolean(options.force),
        onEvent: options.onEvent,
        countText: settings.countText,
      });
      failures = chain.failures;
      cooldowns = chain.cooldowns;
      if (chain.text !== undefined) {
        summaryText = chain.text;
        summary = chain.info;
        handoff = handoffText(chain.text, middleCount);
        mode = chain.position === 0 ? "summary" : "fallback";
      } else {
        const why = `every summarizer failed (${failures.map((f) => `${f.summarizer}: ${f.kind}`).join(", ")})`;
        handoff = redact(markerText(middleCount, pl.middle.start, pl.middle.end - 1, middleTokens, why));
        summary = { source: "marker", tokens: settings.countText(handoff) };
        mode = "fallback";
      }
    } catch (error) {
      if (isAbort(error, options.signal)) return unchanged(p, "aborted", started, "aborted while summarizing");
      throw error;
    }
  }

  const { messages: out, sanitized } = assemble({
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
  if (tokensAfter >= pl.tokens.total) {
    // A handoff longer than what it replaces: keep the input, count the pass as ineffective.
    const kept = unchanged(p, "noop", started, `compaction would not shrink the transcript (${pl.tokens.total} → ${tokensAfter} tokens): kept as it was`);
    kept.state = withBackoff({ ...p.state, cooldowns }, pl.tokens.total, pl.tokens.total, settings.runway);
    kept.report.failures = failures;
    return kept;
  }
  let tailTokens = 0;
  for (let i = pl.tail.start; i < pl.tail.end; i++) tailTokens += pl.tokens.perMessage[i];

  const report = baseReport(p as Prepared<unknown>, mode, started);
  Object.assign(report, {
    tokensAfter,
    messagesAfter: out.length,
    droppedMessages: handoff === undefined ? 0 : middleCount,
    firstChangedIndex: firstChangedIndex(p.input, out),
    pruned: pruned.items,
    failures,
    sanitized,
  });
  if (summary) report.summary = summary;
  report.warnings.push(...warningsOf({
    plan: pl,
    pruned: pruned.items,
    pruneAccepted,
    pruneTotal: pruned.total,
    failures,
    summary,
    sanitized,
    tokensAfter,
    tailTokens,
    tailBudget: pl.tailBudget,
  }));
  const counted: CompactorState = {
    ...p.state,
    cooldowns,
    compactions: p.state.compactions + 1,
    fallbackStreak: mode === "fallback" ? p.state.fallbackStreak + 1 : 0,
    ...(summaryText !== undefined ? { previousSummary: summaryText } : {}),
  };
  const state = withBackoff(counted, pl.tokens.total, tokensAfter, settings.runway);
  if (state.strikes >= MAX_STRIKES) {
    report.warnings.push(
      `${state.strikes} passes in a row saved under 10 %: automatic compaction backs off until ${state.backoffUntilTokens} tokens (force overrides)`,
    );
  }
  report.durationMs = Date.now() - started;
  const result = withSystem({ messages: out, state, report }, p, true);
  emit({ type: "done", report });
  return result;
}

/** Token estimate of a string, a message or a transcript (with the request's tool definitions). */
export function estimateTokens<M = ChatMessage>(
  input: string | NoInfer<M> | NoInfer<M>[],
  options: Pick<CompactOptions<M>, "imageTokens" | "countTokens" | "tools" | "dialect" | "state"> = {},
): number {
  const settings = resolveSettings({ contextWindow: Number.MAX_SAFE_INTEGER, ...options } as CompactOptions<unknown>);
  if (typeof input === "string") return settings.countText(input);
  const dialect = dialectOf(options.dialect);
  const list = dialect.validate(Array.isArray(input) ? input : [input]);
  let total = Array.isArray(input) ? toolDefinitionTokens(settings.tools, settings) : 0;
  for (const m of list) total += messageTokens(dialect.view(m), settings);
  return total;
}
