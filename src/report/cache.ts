// report.cache: what a pass that rewrites does to the provider's prompt cache, and what the next request
// costs for it. Loaded with the rewriting half of a pass (src/pass.ts), which is handed the rates: the
// defaults (src/report/rates.ts) are picked in src/compact.ts (see there why).
import { fingerprint, hashEnd, hashOn, type HashState } from "../fingerprint.js";
import { counted } from "../estimate/index.js";
import { sum } from "../plan/index.js";
import type { CompactorState } from "../state.js";
import type { CacheRates, CacheReport } from "./types.js";

/** Marks an object's start, an array's, and the end of either. */
const MARKS = [{}, {}, {}];
/**
 * Hands `see` what a message's JSON is written from, in order: the keys and leaves of each object
 * and array between marks. False where JSON would read something else (a toJSON, a Date's), or as
 * soon as `see` says false; a cycle throws.
 */
function walk(v: unknown, see: (x: unknown) => unknown): unknown {
  if (v === null || typeof v !== "object") return see(v);
  const array = Array.isArray(v);
  if ("toJSON" in v || !see(MARKS[+array])) return false;
  for (const k of array ? v.keys() : Object.keys(v)) if (!(array || see(k)) || !walk((v as Record<string, unknown>)[k], see)) return false;
  return see(MARKS[2]);
}

/**
 * A message's piece of the hash: its state before and after the message's JSON in an output
 * (src/fingerprint.ts), with the leaves it was written from; kept beside the message's count (by
 * object: src/estimate), so the same object at the same state reads the same (head and tail are the
 * caller's objects, and the next pass's input starts with this output), one changed in place since is
 * hashed again. Kept from a message's second output on (0 at its first): a worker parses each request
 * anew, and its messages, never seen again, cost no walk.
 */
type Piece = [from: HashState, to: HashState, leaves: unknown[]] | 0;

/**
 * What `state.sent` holds of a pass's output: `fingerprint(messages)`, the hash of its JSON, hashed
 * message by message; undefined for messages that are not JSON.
 */
export function sentFingerprint(messages: readonly unknown[]): string | undefined {
  const entries = messages.map((m) => counted.get(m as object));
  // none output before (a worker's request, parsed anew): each marked, and the whole read at once
  if (!entries.some((e) => e?.[7] !== undefined)) for (const e of entries) e && (e[7] = 0);
  else
    try {
      let h = hashOn("[");
      for (const [i, m] of messages.entries()) {
        if (i) h = hashOn(",", h);
        const kept = entries[i]?.[7] as Piece | undefined;
        let n = 0;
        if (kept && `${kept[0]}` === `${h}` && walk(m, (x) => x === kept[2][n++]) && n === kept[2].length) {
          h = kept[1];
          continue;
        }
        const json = JSON.stringify(m);
        // written alone as in the array: unless not JSON (null there), a toJSON of its own (handed its index there), or no object (`in` throws)
        if (json === undefined || "toJSON" in (m as object)) throw 0;
        const [from, leaves]: [HashState, unknown[]] = [h, []];
        h = hashOn(json, h);
        if (entries[i]) entries[i]![7] = kept === undefined || !walk(m, (x) => leaves.push(x)) ? 0 : [from, h, leaves];
      }
      return hashEnd(hashOn("]", h));
    } catch {
      // not JSON alone, or nested deeper than the stack here: read whole
    }
  try {
    return fingerprint(messages);
  } catch {
    return undefined; // not JSON
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
