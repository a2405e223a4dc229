// createCompactor: the same pipeline, holding the state between passes.
import { compact, prefetchNear } from "./compact.js";
import { estimateTokens, plan } from "./prepare.js";
import { calibrate, initialState, normalizeState, promptTokensOf } from "./state.js";
import type { CompactorState } from "./state.js";
import type { Compacted, CompactOptions, CompactResult, DefaultWritten, OpenAIChatInput, Proposal } from "./types.js";
import { accept, propose } from "./review.js";

type Pass = { focus?: string; force?: boolean; signal?: AbortSignal };

/** `D`: the messages its dialect reads; `W`: what the dialect writes. Each call takes the caller's own message type, as `compact` does. */
export interface Compactor<D = OpenAIChatInput, W = DefaultWritten<D>> {
  shouldCompact<M extends D>(messages: readonly M[]): boolean;
  compact<M extends D>(messages: readonly M[], pass?: Pass): Promise<CompactResult<Compacted<M, W>>>;
  /** What `compact` would do, with the compactor's state, applying nothing: the state advances on `accept`. */
  propose<M extends D>(messages: readonly M[], pass?: Pass): Promise<Proposal<Compacted<M, W>>>;
  /** Applies a proposal of this compactor made since its last pass (else a RangeError: propose again), its handoff as given or edited. */
  accept<M>(proposal: Proposal<M>, edit?: { handoff?: string }): CompactResult<M>;
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
  // Each proposal remembers the pass it followed and its state.
  let passes = 0;
  const madeFrom = new WeakMap<object, { passes: number; state: CompactorState }>();
  const advance = <R extends CompactResult<unknown>>(result: R, before: CompactorState) => {
    passes++;
    result.report.warnings.unshift(...stateWarnings);
    stateWarnings = [];
    state = result.state;
    lastRaw = uncalibrated(result.report.tokensAfter, before);
    return result;
  };
  const raw = (messages: readonly D[]) => estimateTokens(messages, { ...options, state: { ...state, calibration: undefined } });

  return {
    shouldCompact(messages) {
      const p = plan(messages, { ...options, state });
      lastRaw = uncalibrated(p.tokens.total, state);
      prefetchNear(p);
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
