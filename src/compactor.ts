// createCompactor: the same pipeline, holding the state between passes.
import { compact, estimateTokens, plan } from "./compact.js";
import { calibrate, initialState, normalizeState, promptTokensOf } from "./state.js";
import type { ChatMessage } from "./dialects/types.js";
import type { CompactorState } from "./state.js";
import type { CompactOptions, CompactResult, Proposal } from "./types.js";
import { accept, propose } from "./review.js";

type Pass = { focus?: string; force?: boolean; signal?: AbortSignal };

export interface Compactor<M = ChatMessage> {
  shouldCompact(messages: M[]): boolean;
  compact(messages: M[], pass?: Pass): Promise<CompactResult<M>>;
  /** What `compact` would do, with the compactor's state, applying nothing: the state advances on `accept`. */
  propose(messages: M[], pass?: Pass): Promise<Proposal<M>>;
  /** Applies a proposal of this compactor made since its last pass (else a RangeError: propose again), its handoff as given or edited. */
  accept(proposal: Proposal<M>, edit?: { handoff?: string }): CompactResult<M>;
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
  // Each proposal remembers the pass it followed and its state.
  let passes = 0;
  const madeFrom = new WeakMap<object, { passes: number; state: CompactorState }>();
  const advance = (result: CompactResult<M>, before: CompactorState) => {
    passes++;
    result.report.warnings.unshift(...stateWarnings);
    stateWarnings = [];
    state = result.state;
    lastRaw = uncalibrated(result.report.tokensAfter, before);
    return result;
  };
  const raw = (messages: M[]) => estimateTokens(messages, { ...options, state: { ...state, calibration: undefined } });

  return {
    shouldCompact(messages) {
      const p = plan(messages, { ...options, state });
      lastRaw = uncalibrated(p.tokens.total, state);
      return p.shouldCompact;
    },
    async compact(messages, pass = {}) {
      const before = state;
      return advance(await compact(messages, { ...options, ...pass, state }), before);
    },
    async propose(messages, pass = {}) {
      const proposal = await propose(messages, { ...options, ...pass, state });
      madeFrom.set(proposal, { passes, state });
      return proposal;
    },
    accept(proposal, edit) {
      const from = madeFrom.get(proposal);
      if (!from) throw new RangeError("context-compactor: accept takes a proposal of this compactor");
      if (from.passes !== passes) throw new RangeError("context-compactor: this proposal was made before the compactor's last pass: propose again");
      const result = accept(proposal, edit);
      // Usage observed since the proposal was made is kept.
      if (state.calibration !== from.state.calibration) result.state = { ...result.state, calibration: state.calibration };
      return advance(result, from.state);
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
      passes++;
      state = initialState();
      lastRaw = undefined;
    },
  };
}
