// createCompactor: the same pipeline, holding the state between passes.
import { compact, estimateTokens, plan } from "./compact.js";
import { calibrate, initialState, normalizeState, promptTokensOf } from "./state.js";
import type { ChatMessage } from "./dialects/types.js";
import type { CompactorState } from "./state.js";
import type { CompactOptions, CompactResult } from "./types.js";

export interface Compactor<M = ChatMessage> {
  shouldCompact(messages: M[]): boolean;
  compact(messages: M[], pass?: { focus?: string; force?: boolean; signal?: AbortSignal }): Promise<CompactResult<M>>;
  /** Provider usage ({prompt_tokens} or {input_tokens}) for the transcript last planned or compacted. */
  observeUsage(usage: unknown, messages?: M[]): void;
  readonly state: CompactorState;
  reset(): void;
}

export function createCompactor<M = ChatMessage>(options: CompactOptions<M>): Compactor<M> {
  // What was unusable in the given state is said once, in the first pass's report.
  let { state, warnings: stateWarnings } = normalizeState(options.state);
  // The uncalibrated estimate of what was last sent, to compare with the provider's count: derived
  // from the pass's own (calibrated) total rather than a second walk over the transcript.
  let lastRaw: number | undefined;
  const uncalibrated = (tokens: number, s: CompactorState) => tokens / (s.calibration?.ratio ?? 1);
  const raw = (messages: M[]) => estimateTokens(messages, { ...options, state: { ...state, calibration: undefined } });

  return {
    shouldCompact(messages) {
      const p = plan(messages, { ...options, state });
      lastRaw = uncalibrated(p.tokens.total, state);
      return p.shouldCompact;
    },
    async compact(messages, pass = {}) {
      const before = state;
      const result = await compact(messages, { ...options, ...pass, state });
      result.report.warnings.unshift(...stateWarnings);
      stateWarnings = [];
      state = result.state;
      lastRaw = uncalibrated(result.report.tokensAfter, before);
      return result;
    },
    observeUsage(usage, messages) {
      const provider = promptTokensOf(usage);
      const estimated = messages ? raw(messages) : lastRaw;
      if (provider !== undefined && estimated !== undefined) state = calibrate(state, provider, estimated);
    },
    get state() {
      return state;
    },
    reset() {
      state = initialState();
      lastRaw = undefined;
    },
  };
}
