// The plain-JSON state carried between passes.
import type { CompactorState } from "./types.js";

export function initialState(): CompactorState {
  return { version: 1, compactions: 0, strikes: 0, fallbackStreak: 0, cooldowns: {} };
}

/** Accepts a state from an earlier pass (or nothing) and returns a complete copy. */
export function normalizeState(state: CompactorState | undefined): CompactorState {
  if (state === undefined || state === null) return initialState();
  if (typeof state !== "object" || state.version !== 1) {
    throw new RangeError("context-compactor: options.state must be a state returned by an earlier pass (version 1)");
  }
  return { ...initialState(), ...state, cooldowns: { ...(state.cooldowns ?? {}) } };
}

/** Provider usage in either vendor's shape → prompt tokens, or undefined when absent. */
export function promptTokensOf(usage: unknown): number | undefined {
  if (!usage || typeof usage !== "object") return undefined;
  const u = usage as Record<string, unknown>;
  if (typeof u.prompt_tokens === "number") return u.prompt_tokens;
  if (typeof u.input_tokens === "number") {
    const cached = (typeof u.cache_read_input_tokens === "number" ? u.cache_read_input_tokens : 0) +
      (typeof u.cache_creation_input_tokens === "number" ? u.cache_creation_input_tokens : 0);
    return u.input_tokens + cached;
  }
  if (typeof u.inputTokens === "number") return u.inputTokens;
  return undefined;
}

const RATIO_MIN = 0.5;
const RATIO_MAX = 3;

/** Folds one observation (provider tokens for a transcript we estimated) into the calibration. */
export function calibrate(state: CompactorState, providerTokens: number, estimated: number): CompactorState {
  if (!(providerTokens > 0 && estimated > 0)) return state;
  const sample = Math.min(RATIO_MAX, Math.max(RATIO_MIN, providerTokens / estimated));
  const prev = state.calibration;
  const ratio = prev ? prev.ratio * 0.7 + sample * 0.3 : sample;
  return { ...state, calibration: { ratio: Math.round(ratio * 1000) / 1000, samples: (prev?.samples ?? 0) + 1 } };
}
