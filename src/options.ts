// Options with their defaults resolved once, checked with clear errors (valibot).
import * as v from "valibot";
import { fields } from "./schema.js";
import { DEFAULT_IMAGE_TOKENS, heuristicTokens, type EstimateSettings } from "./estimate/index.js";
import type { CompactorState } from "./state.js";
import type { CompactOptions } from "./types.js";

export const DEFAULT_THRESHOLD = 0.75;
export const DEFAULT_HEAD_MESSAGES = 3;
export const TAIL_SHARE = 0.2;
export const MIN_TAIL_MESSAGES = 3;
/** A single recent message may push the tail up to this multiple of its budget. */
export const TAIL_SOFT_CEILING = 1.5;
/** Prune-only must leave at least this much room under the threshold (or 15 % of it). */
export const MIN_RUNWAY_TOKENS = 2000;
export const RUNWAY_SHARE = 0.15;
export const MAX_STRIKES = 2;
/** Tool results that follow the head's last call join the head only while this small (share of the threshold). */
export const HEAD_RESULTS_SHARE = 0.1;
/** When everything from the latest request on exceeds this share of the threshold, the request is pinned instead. */
export const PIN_SHARE = 0.5;
/** Tool outputs at or under this size stay: a one-liner would not be much shorter. */
export const PRUNE_MIN_CHARS = 200;
/** Images are stubbed only when each is charged more than this (tokens): a stub's own words cost about 8. */
export const IMAGE_PRUNE_MIN = 32;
/** How an earlier pass's one-line stand-in for an output starts: later passes leave it as it is. */
export const STAND_IN = "[output pruned #";
/** Whether prune replaces a tool output by a one-liner (plan's shouldCompact asks the same). */
export const prunableOutput = (r: { text: string; images: number }, pictures: boolean) => !r.text.startsWith(STAND_IN) && (r.text.length > PRUNE_MIN_CHARS || (r.images > 0 && pictures));
/** Whether an unread output is long enough to shrink (SHRINK_MIN_KEEP of each end, and more between). */
export const shrinkable = (text: string) => text.length > 4 * SHRINK_MIN_KEEP;
/** Tool-call arguments over this size get their long string leaves cut. */
export const SHRINK_MIN_CHARS = 500;
/** An unread tool output shrunk to fit the window keeps at least this many characters of its head and of its tail; only one over four times this is shrunk. */
export const SHRINK_MIN_KEEP = 1_000;

export interface Settings extends EstimateSettings {
  contextWindow: number;
  maxOutputTokens: number;
  effectiveWindow: number;
  thresholdTokens: number;
  headMessages: number;
  /** The tail budget the caller set; undefined means 20 % of the threshold (or of the total, when forced under it). */
  tailTokens: number | undefined;
  runway: number;
  protectedTools: Set<string>;
  tools: unknown[] | undefined;
  /** The text of a system prompt kept beside the messages (`anthropicMessages`). */
  system: string | undefined;
  /** The clock of cooldowns and the frequency guard. */
  now: () => number;
  maxRequestBytes: number | undefined;
}

/** The caller's counter, held to its contract: every answer a finite number ≥ 0, or a RangeError. */
function checkedCounter(count: (t: string) => number): (t: string) => number {
  return (t) => {
    const n = count(t);
    if (typeof n === "number" && n >= 0 && n < Infinity) return n; // the message is built only when it is needed
    throw new RangeError(`context-compactor: countTokens must return a finite number ≥ 0, not ${typeof n === "number" ? n : typeof n}`);
  };
}

const isFunction = (f: unknown) => typeof f === "function";
const finite = (n: unknown): n is number => Number.isFinite(n);
/** An option that, when given (not undefined; with `orNull`, not null either), must pass `ok`, or the problem is `problem`. */
const given = (ok: (x: any) => boolean, problem: string, orNull = false) => v.optional(v.custom((x) => (orNull && x === null) || ok(x), problem));

/** What each option must be; the first problem is a RangeError. Options not named pass as they are. */
const OPTIONS = fields(
  {
    contextWindow: v.custom((n) => finite(n) && n > 0, "contextWindow must be a positive number of tokens"),
    maxOutputTokens: given((n) => finite(n) && n >= 0, "maxOutputTokens must be ≥ 0 and smaller than contextWindow"),
    threshold: given((t) => typeof t === "number" && t > 0 && t <= 1, "threshold must be a fraction in (0, 1]"),
    headMessages: given((n) => Number.isInteger(n) && n >= 0, "headMessages must be an integer ≥ 0"),
    imageTokens: given((n) => finite(n) && n >= 0, "imageTokens must be a number ≥ 0"),
    tools: given(Array.isArray, "tools must be an array of tool definitions"),
    countTokens: given(isFunction, "countTokens must be a function", true),
    onEvent: given(isFunction, "onEvent must be a function", true),
    now: given(isFunction, "now must be a function", true),
    summarizer: given((f) => [f].flat().every(isFunction), "summarizer must be a function or an array of functions", true),
    protectedTools: given((t) => Array.isArray(t) && t.every((x) => typeof x === "string"), "protectedTools must be an array of tool names", true),
    focus: given((f) => typeof f === "string", "focus must be a string", true),
    runway: given((n) => finite(n) && n >= 0, "runway must be a number of tokens ≥ 0"),
    archiveLimit: given((n) => typeof n === "number" && n >= 0, "archiveLimit must be a number of characters ≥ 0"),
    secrets: given((t) => Array.isArray(t) && t.every((x) => typeof x === "string"), "secrets must be an array of strings"),
    // Not an array: one entry that fails.
    refIndexes: given((r) => {
      const own = [r].flat().filter((n) => n != null);
      return own.every((n) => n >= 0 && Number.isInteger(n)) && new Set(own).size === own.length;
    }, "refIndexes must be distinct integers ≥ 0 or null", true),
    tailTokens: given((n) => finite(n) && n >= 0, "tailTokens must be a number ≥ 0"),
    pin: given(isFunction, "pin must be a function", true),
    maxRequestBytes: given((n) => n > 0, "maxRequestBytes must be a number of bytes > 0"),
  },
  "options are required ({ contextWindow })",
);

/** A separate system prompt as text: a string, or text blocks. */
export function systemText(system: unknown): string | undefined {
  if (typeof system === "string") return system;
  if (Array.isArray(system)) return system.map((b) => (typeof b?.text === "string" ? b.text : "")).join("\n");
  if (system !== undefined && system !== null) throw new RangeError("context-compactor: system must be a string or an array of text blocks");
  return undefined;
}

/** `state` is the options' state already normalised (see normalizeState). */
export function resolveSettings(o: CompactOptions<unknown>, state?: CompactorState): Settings {
  const checked = v.safeParse(OPTIONS, o);
  if (!checked.success) throw new RangeError(`context-compactor: ${checked.issues[0].message}`);
  const { contextWindow } = o;
  const maxOutputTokens = o.maxOutputTokens ?? 0;
  if (!(maxOutputTokens < contextWindow)) throw new RangeError("context-compactor: maxOutputTokens must be ≥ 0 and smaller than contextWindow");
  const threshold = o.threshold ?? DEFAULT_THRESHOLD;
  const headMessages = o.headMessages ?? DEFAULT_HEAD_MESSAGES;
  const imageTokens = o.imageTokens ?? DEFAULT_IMAGE_TOKENS;
  const tools = o.protectedTools ?? [];

  const effectiveWindow = contextWindow - maxOutputTokens;
  const thresholdTokens = Math.floor(effectiveWindow * threshold);
  const tailTokens = o.tailTokens;
  const { maxRequestBytes } = o;
  const count = o.countTokens ? checkedCounter(o.countTokens) : heuristicTokens;
  // The calibration learned from usage, applied to a message's texts together (src/estimate) or to one text.
  const ratio = state?.calibration?.ratio;
  const scale = !ratio || ratio === 1 ? (n: number) => n : (n: number) => Math.round(n * ratio);
  return {
    contextWindow,
    maxOutputTokens,
    effectiveWindow,
    thresholdTokens,
    headMessages,
    tailTokens,
    runway: o.runway ?? Math.max(MIN_RUNWAY_TOKENS, Math.floor(thresholdTokens * RUNWAY_SHARE)),
    protectedTools: new Set(tools),
    tools: o.tools,
    system: systemText(o.system),
    now: o.now ?? Date.now,
    maxRequestBytes,
    imageTokens,
    countText: (t) => scale(count(t)),
    basis: { counter: o.countTokens ?? heuristicTokens, count, scale },
  };
}
