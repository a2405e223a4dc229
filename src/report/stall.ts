// What a pass leaves in the state to stop compaction that is not working (invariant 7): the back-off
// after ineffective passes, the frequency guard's pause, and the visible stop. All three count the same
// passes: a pass makes no progress when it saves under 10 % or leaves the transcript over its threshold.
// Called by the result's writer (src/result.ts), so loaded with it: only a pass that ran reaches it.
import { MAX_STRIKES } from "../options.js";
import type { Plan, StalledState, StallInfo } from "../plan/types.js";
import type { CompactorState } from "../state.js";
import { sum } from "../plan/index.js";

/** A pass that saves less than this share of the tokens is ineffective (a strike). */
const EFFECTIVE_SAVING = 0.1;
/** This many passes in a row without progress stop compaction until a new user message (the stall). */
const STALL_PASSES = 3;
/** …and, when they came within FREQUENT_SPAN_MS, pause it for FREQUENT_PAUSE_MS too (the frequency guard). */
const FREQUENT_SPAN_MS = 600_000;
const FREQUENT_PAUSE_MS = 600_000;

export interface PassFacts {
  /** The pass's plan: the tokens before it, its tail's and its pinned messages'. */
  plan: Plan;
  after: number;
  runway: number;
  now: number;
  contextWindow: number;
  maxOutputTokens: number;
  /** The latest user message's index in what the pass returns (-1: none). */
  latestUser: number;
}

/** What would let compaction make progress, with its numbers. */
function help(f: PassFacts): string[] {
  const { plan: pl } = f;
  const share = pl.tokens.threshold / pl.effectiveWindow;
  const window = Math.ceil(f.after / share) + f.maxOutputTokens;
  const tailTokens = sum(pl.tokens.perMessage, pl.tail.start, pl.tail.end);
  const pinnedTokens = sum(pl.pinned.map((i) => pl.tokens.perMessage[i]));
  return [
    ...(tailTokens > 0 ? [`a smaller tail (tailTokens under ${tailTokens}: the tail from index ${pl.tail.start} keeps that many tokens verbatim)`] : []),
    ...(window > f.contextWindow ? [`a larger window (contextWindow ≥ ${window} holds ${f.after} tokens under its threshold)`] : []),
    ...(pinnedTokens > 0 ? [`pinning less (${pl.pinned.length} pinned messages keep ${pinnedTokens} tokens)`] : []),
    "or new turns to summarize: compaction resumes with the next user message (force overrides)",
  ];
}

/** The state after a pass that ran, and what it says of the guards that tripped. */
export function afterPass(s: CompactorState, f: PassFacts): { state: CompactorState; warnings: string[]; stalled?: StallInfo } {
  const { after } = f;
  const before = f.plan.tokens.total;
  const threshold = f.plan.tokens.threshold;
  const warnings: string[] = [];
  // A pass that ran ends a pause and a stall.
  const { pausedUntil: _, recentPasses: run = [], stalled: __, backoffUntilTokens, ...rest } = s;
  const state: CompactorState = rest;
  if (before - after >= before * EFFECTIVE_SAVING) state.strikes = 0;
  else {
    state.strikes = s.strikes + 1;
    // Back off until a runway's worth of new conversation arrives: each retry needs new material.
    const until = state.strikes >= MAX_STRIKES ? before + f.runway : backoffUntilTokens;
    if (until !== undefined) state.backoffUntilTokens = until;
    if (state.strikes >= MAX_STRIKES) warnings.push(`${state.strikes} passes in a row saved under 10 %: automatic compaction backs off until ${until} tokens (force overrides)`);
  }
  if (!state.strikes && after <= threshold) return { state, warnings };

  const recent = [...run, f.now].slice(-STALL_PASSES);
  if (recent.length < STALL_PASSES) return { state: { ...state, recentPasses: recent }, warnings };
  if (recent.every((t) => f.now - t <= FREQUENT_SPAN_MS)) {
    // Frequency guard: a loop the back-off cannot see (each pass saves something, none gets under, each may cost a model call).
    state.pausedUntil = f.now + FREQUENT_PAUSE_MS;
    warnings.push(
      `${STALL_PASSES} passes within ${FREQUENT_SPAN_MS / 60_000} minutes each left the transcript over its threshold (${threshold} tokens) or saved under 10 %: ` +
        `automatic compaction pauses until ${new Date(state.pausedUntil).toISOString()} (force overrides)`,
    );
  }
  const last = after > threshold ? `left ${after} tokens, over the threshold of ${threshold}` : `saved under 10 % (${before} → ${after} tokens)`;
  const stalled: StallInfo = { reason: `${STALL_PASSES} passes in a row made no progress (the last ${last})`, help: help(f) };
  warnings.push(`${stalled.reason}: compaction stalls until a new user message. What would help: ${stalled.help.join("; ")}`);
  const held: StalledState = { at: f.latestUser, ...stalled };
  return { state: { ...state, stalled: held }, warnings, stalled };
}
