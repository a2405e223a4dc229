// The plain-JSON state carried between passes, checked with valibot when it comes back.
import * as v from "valibot";
import type { StalledState } from "./plan/types.js";
import type { FailureKind } from "./summarize/types.js";
import { fields, isObject, isString } from "./schema.js";

export interface Cooldown {
  until: number;
  kind: FailureKind;
  failures: number;
}

/** Plain JSON, owned by the caller; pass it back as `options.state`. */
export interface CompactorState {
  version: 1;
  previousSummary?: string;
  compactions: number;
  /** Consecutive ineffective passes (< 10 % saved). */
  strikes: number;
  /** While backed off, automatic compaction waits until the total reaches this many tokens. */
  backoffUntilTokens?: number;
  /** Consecutive passes that needed a fallback. */
  fallbackStreak: number;
  cooldowns: Record<string, Cooldown>;
  /** Provider tokens / local estimate, learned from `observeUsage`. */
  calibration?: { ratio: number; samples: number };
  /** Times (ms, `options.now`) of the last passes (up to three) that made no progress: over the threshold after, or under 10 % saved. */
  recentPasses?: number[];
  /** While paused by the frequency guard, automatic compaction waits until this time (ms). */
  pausedUntil?: number;
  /** While stalled: why, and the latest user message it waits to see followed by a new one. */
  stalled?: StalledState;
  /** The previous rewriting pass's output: its length and fingerprint (what `report.cache` compares with). */
  sent?: { messages: number; fingerprint: string };
}

export function initialState(): CompactorState {
  return { version: 1, compactions: 0, strikes: 0, fallbackStreak: 0, cooldowns: {} };
}

const RATIO_MIN = 0.5;
const RATIO_MAX = 3;
const MAX_TIME = 8.64e15; // the Date range, in ms either side of the epoch

const isTime = (t: unknown) => typeof t === "number" && Math.abs(t) <= MAX_TIME;
/** A number for which `ok` holds: its problem says what the value is instead (NaN too). */
const num = (ok: (n: number) => boolean, what: string) => {
  const problem = (x: unknown) =>
    typeof x !== "number" || Number.isNaN(x) ? `must be a number, not ${typeof x === "number" ? "NaN" : typeof x}` : ok(x) ? undefined : `must be ${what}`;
  return v.custom((x) => problem(x) === undefined, (issue) => problem(issue.input)!);
};
const count = num((n) => Number.isSafeInteger(n) && n >= 0, "an integer ≥ 0");
const time = num(isTime, "a time in the Date range");
/** An object whose listed fields pass their schemas (others pass through). */
const record = (entries: v.ObjectEntries) => fields(entries, "must be an object");

const str = v.string("must be a string");

const backoffUntilTokens = num(Number.isFinite, "finite");
const calibration = record({ ratio: num((r) => r >= RATIO_MIN && r <= RATIO_MAX, `in [${RATIO_MIN}, ${RATIO_MAX}]`), samples: count });
const stalled = record({ at: num(Number.isInteger, "an integer"), reason: str, help: v.custom((x) => Array.isArray(x) && x.every(isString), "must be an array of strings") });

/** The fields a plan reads: `plan` and `estimateTokens` check only these, so they do not carry the rest. */
const PLAN_FIELDS: Record<string, v.GenericSchema> = { strikes: count, backoffUntilTokens, calibration, pausedUntil: time, stalled };

/**
 * What each known field must be (valibot); a field that is not is dropped (with a warning), never used.
 * Built in a call marked pure, as COOLDOWN is: valibot's constructors are calls, which a bundler keeps
 * unless told they are pure, and only a pass needs these rules.
 */
const FIELDS: Record<string, v.GenericSchema> = /* @__PURE__ */ (() => ({
  compactions: count,
  strikes: count,
  fallbackStreak: count,
  backoffUntilTokens,
  previousSummary: str,
  calibration,
  cooldowns: v.custom(isObject, "must be an object"),
  recentPasses: v.custom((x) => Array.isArray(x) && x.every(isTime), "must be an array of times in the Date range"),
  pausedUntil: time,
  stalled,
  sent: record({ messages: count, fingerprint: str }),
}))();
const COOLDOWN = /* @__PURE__ */ record({ until: time, kind: str, failures: count });

/** A field's first problem in words ("state.calibration: ratio: must be …"), or undefined when usable. */
function problem(schema: v.GenericSchema, value: unknown, path: string): string | undefined {
  const r = v.safeParse(schema, value);
  if (r.success) return undefined;
  const at = (r.issues[0].path ?? []).map((p) => `${String(p.key)}: `).join("");
  return `${path}: ${at}${r.issues[0].message}`;
}

/** A normalised state and the warnings of the fields it dropped. */
export type Normalized = { state: CompactorState; warnings: string[] };

/**
 * A state from an earlier pass (or nothing) as a complete, usable copy: each unusable field is
 * dropped with a warning; unknown fields pass through. Not an object of version 1: a RangeError.
 */
export function normalizeState(given: unknown): Normalized {
  return normalized(given, FIELDS, (cd, keep) => {
    const cooldowns = cd === undefined || keep(FIELDS.cooldowns, cd, "state.cooldowns") ? Object.entries(cd ?? {}) : [];
    return Object.fromEntries(cooldowns.filter(([k, x]) => keep(COOLDOWN, x, `state.cooldowns.${k}`)));
  });
}

/**
 * The state as a plan reads it: normalizeState's checks of the fields a plan reads (PLAN_FIELDS), and
 * its RangeError; the fields only a pass reads are left as they are (a pass normalises the whole state).
 */
export function planState(given: unknown): Normalized {
  return normalized(given, PLAN_FIELDS, (cd) => cd ?? {});
}

type Keep = (schema: v.GenericSchema | undefined, value: unknown, path: string) => boolean;

function normalized(given: unknown, fields: Record<string, v.GenericSchema>, cooldownsOf: (cd: any, keep: Keep) => unknown): Normalized {
  const warnings: string[] = [];
  if (given === undefined || given === null) return { state: initialState(), warnings };
  const g = given as Record<string, unknown>;
  if (typeof g !== "object" || g.version !== 1) {
    throw new RangeError("context-compactor: options.state must be a state returned by an earlier pass (version 1)");
  }
  const keep: Keep = (schema, value, path) => {
    const why = schema && problem(schema, value, path);
    if (why) warnings.push(`${why} (dropped)`);
    return !why;
  };
  const cooldowns = cooldownsOf(g.cooldowns, keep);
  // Entries, not assignments: a key named "__proto__" stays a key.
  const state = Object.fromEntries([
    ...Object.entries(initialState()),
    ...Object.entries(g).filter(([k, x]) => k !== "cooldowns" && x !== undefined && keep(Object.hasOwn(fields, k) ? fields[k] : undefined, x, `state.${k}`)),
    ["cooldowns", cooldowns],
  ]) as unknown as CompactorState;
  return { state, warnings };
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

/** Folds one observation (provider tokens for a transcript we estimated) into the calibration. */
export function calibrate(state: CompactorState, providerTokens: number, estimated: number): CompactorState {
  if (!(providerTokens > 0 && estimated > 0)) return state;
  const sample = Math.min(RATIO_MAX, Math.max(RATIO_MIN, providerTokens / estimated));
  const prev = state.calibration;
  const ratio = prev ? prev.ratio * 0.7 + sample * 0.3 : sample;
  return { ...state, calibration: { ratio: Math.round(ratio * 1000) / 1000, samples: (prev?.samples ?? 0) + 1 } };
}
