// report.cache: what a pass that rewrites does to the provider's prompt cache, and what the next request
// costs for it. Loaded with the rewriting half of a pass (src/pass.ts), which is handed the rates: the
// defaults (src/report/rates.ts) are picked in src/compact.ts (see there why).
import { fingerprint, hashEnd, hashOn, hashStart, type HashState } from "../fingerprint.js";
import { sum } from "../plan/index.js";
import type { CompactorState } from "../state.js";
import type { CacheRates, CacheReport } from "./types.js";

const [OBJECT, ARRAY, END] = [Symbol(), Symbol(), Symbol()];
/**
 * Walks the keys and leaves of plain JSON data in order, each object's and array's bounds marked
 * (what its JSON is written from), handing each to `see`. False for anything else (undefined, a Date,
 * a toJSON; a cycle throws), or as soon as `see` says false.
 */
function walk(v: unknown, see: (x: unknown) => boolean): boolean {
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return see(v);
  if (typeof v !== "object") return false;
  if (Array.isArray(v)) {
    if (!see(ARRAY)) return false;
    for (let i = 0; i < v.length; i++) if (!walk(v[i], see)) return false; // a hole reads undefined
  } else {
    const proto = Object.getPrototypeOf(v);
    if ((proto !== Object.prototype && proto !== null) || !see(OBJECT)) return false;
    for (const k of Object.keys(v)) if (!see(k) || !walk((v as Record<string, unknown>)[k], see)) return false;
  }
  return see(END);
}

/**
 * The hash's state before and after a message's JSON in an output (src/fingerprint.ts), by message
 * object, with the leaves it was written from: the same object at the same state reads the same
 * (head and tail are the caller's objects, and the next pass's input starts with this output), one
 * changed in place since is hashed again.
 */
const hashed = new WeakMap<object, [from: HashState, to: HashState, leaves: unknown[]]>();

/** Whether `m` still holds `leaves`: read without building anything. */
function holds(m: object, leaves: unknown[]): boolean {
  let i = 0;
  return walk(m, (x) => x === leaves[i++]) && i === leaves.length;
}

/**
 * What `state.sent` holds of a pass's output: `fingerprint(messages)`, the hash of its JSON, hashed
 * message by message; undefined for messages that are not JSON.
 */
export function sentFingerprint(messages: readonly unknown[]): string | undefined {
  const whole = () => {
    try {
      return fingerprint(messages);
    } catch {
      return undefined;
    }
  };
  try {
    let h = hashStart();
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      h = hashOn(h, i ? "," : "[");
      if (m === null || typeof m !== "object") return whole();
      const kept = hashed.get(m);
      if (kept && kept[0][0] === h[0] && kept[0][1] === h[1] && holds(m, kept[2])) {
        h = kept[1];
        continue;
      }
      const leaves: unknown[] = [];
      // JSON.stringify writes an element as alone when it is plain data (no toJSON sees its key)
      if (!walk(m, (x) => leaves.push(x) > 0)) return whole();
      hashed.set(m, [h, (h = hashOn(h, JSON.stringify(m))), leaves]);
    }
    return hashEnd(hashOn(h, messages.length ? "]" : "[]"));
  } catch {
    return whole(); // nested deeper than the stack here, or not JSON at all
  }
}

function checkedRates(r: CacheRates): CacheRates {
  for (const k of ["read", "write", "inputPerMTok"] as const) {
    const x = r?.[k];
    if (k === "inputPerMTok" && x === undefined) continue;
    if (typeof x !== "number" || !(x >= 0 && x < Infinity)) throw new RangeError(`context-compactor: cacheRates.${k} must be a number ≥ 0`);
  }
  return r;
}

export interface CacheFacts {
  input: readonly unknown[];
  /** The report's first changed index (output against input). */
  firstChangedIndex: number;
  outputLength: number;
  /** Tokens of each input message, and those sent with every request (tool definitions, a separate system prompt). */
  perMessage: number[];
  fixedTokens: number;
  tokensBefore: number;
  tokensAfter: number;
  /** A separate system prompt was changed: nothing after it stays cached. */
  systemChanged: boolean;
  sent: CompactorState["sent"];
  /** The caller's `cacheRates`, or the default rates of the dialect's provider. */
  rates: CacheRates;
}

/** The report: the previous output (when the input starts with it) or else the input stands for the request the provider cached. */
export function cacheReport(f: CacheFacts): CacheReport {
  const rates = checkedRates(f.rates);
  const n = f.sent?.messages;
  const previous = n !== undefined && n <= f.input.length && sentFingerprint(f.input.slice(0, n)) === f.sent!.fingerprint;
  const cached = previous ? n : f.input.length;
  const same = f.firstChangedIndex === -1 ? f.outputLength : f.firstChangedIndex;
  const keptMessages = f.systemChanged ? 0 : Math.min(same, cached);
  const tokensOf = (k: number) => f.fixedTokens + sum(f.perMessage, 0, k);
  const keptTokens = f.systemChanged ? 0 : tokensOf(keptMessages);
  const cost = (read: number, total: number) => Math.round(read * rates.read + (total - read) * rates.write);
  const report: CacheReport = {
    basis: previous ? "previous output" : "input",
    keptMessages,
    keptTokens,
    firstChangedIndex: f.systemChanged ? 0 : f.firstChangedIndex,
    rates,
    nextRequestCost: cost(keptTokens, f.tokensAfter),
    uncompactedCost: cost(previous ? tokensOf(cached) : f.tokensBefore, f.tokensBefore),
  };
  if (rates.inputPerMTok !== undefined) {
    const price = (tokens: number) => Math.round(tokens * rates.inputPerMTok!) / 1e6; // the rate is per million tokens
    report.nextRequestPrice = price(report.nextRequestCost);
    report.uncompactedPrice = price(report.uncompactedCost);
  }
  return report;
}
