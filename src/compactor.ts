// createCompactor: the same pipeline, holding the state between passes.
import { compact, estimateTokens, plan } from "./compact.js";
import { calibrate, initialState, normalizeState, promptTokensOf } from "./state.js";
import type { ChatMessage, CompactOptions, CompactorState, CompactResult } from "./types.js";

export interface Compactor<M = ChatMessage> {
  shouldCompact(messages: M[]): boolean;
  compact(messages: M[], pass?: { focus?: string; force?: boolean; signal?: AbortSignal }): Promise<CompactResult<M>>;
  /** Provider usage ({prompt_tokens} or {input_tokens}) for the transcript last planned or compacted. */
  observeUsage(usage: unknown, messages?: M[]): void;
  readonly state: CompactorState;
  reset(): void;
}

export function createCompactor<M = ChatMessage>(options: CompactOptions): Compactor<M> {
  let state = normalizeState(options.state);
  // The uncalibrated estimate of what was last sent, to compare with the provider's count.
  let lastRaw: number | undefined;
  const raw = (messages: M[]) =>
    estimateTokens(messages, { ...options, state: { ...state, calibration: undefined } });

  return {
    shouldCompact(messages) {
      lastRaw = raw(messages);
      return plan(messages, { ...options, state }).shouldCompact;
    },
    async compact(messages, pass = {}) {
      const result = await compact(messages, { ...options, ...pass, state });
      state = result.state;
      lastRaw = raw(result.messages);
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
