// createCompactor: the same pipeline, holding the state between passes.
import { compact, estimateTokens, plan } from "./compact.js";
import { calibrate, initialState, normalizeState, promptTokensOf } from "./state.js";
import type { Compacted, CompactOptions, CompactorState, CompactResult, DefaultWritten, OpenAIChatInput } from "./types.js";

/** `D`: the messages its dialect reads; `W`: what the dialect writes. Each call takes the caller's own message type, as `compact` does. */
export interface Compactor<D = OpenAIChatInput, W = DefaultWritten<D>> {
  shouldCompact<M extends D>(messages: readonly M[]): boolean;
  compact<M extends D>(messages: readonly M[], pass?: { focus?: string; force?: boolean; signal?: AbortSignal }): Promise<CompactResult<Compacted<M, W>>>;
  /** Provider usage ({prompt_tokens} or {input_tokens}) for the transcript last planned or compacted. */
  observeUsage(usage: unknown, messages?: readonly D[]): void;
  readonly state: CompactorState;
  reset(): void;
}

export function createCompactor<D = OpenAIChatInput, W = DefaultWritten<D>>(options: CompactOptions<D, W>): Compactor<D, W> {
  // What was unusable in the given state is said once, in the first pass's report.
  let { state, warnings: stateWarnings } = normalizeState(options.state);
  // The uncalibrated estimate of what was last sent, to compare with the provider's count: derived
  // from the pass's own (calibrated) total rather than a second walk over the transcript.
  let lastRaw: number | undefined;
  const uncalibrated = (tokens: number, s: CompactorState) => tokens / (s.calibration?.ratio ?? 1);
  const raw = (messages: readonly D[]) => estimateTokens(messages, { ...options, state: { ...state, calibration: undefined } });

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
