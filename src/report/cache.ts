// report.cache: what a pass that rewrites does to the provider's prompt cache, and what the next request
// costs for it. Loaded with the rewriting half of a pass (src/pass.ts), which is handed the rates: the
// defaults (src/report/rates.ts) are picked in src/compact.ts (see there why).
import { fingerprint, mix53 } from "../fingerprint.js";
import { sum } from "../plan/index.js";
import type { CompactorState } from "../state.js";
import type { CacheRates, CacheReport } from "./types.js";

/** Marks the fingerprint `state.sent` holds now; one without it (an earlier version's) is `fingerprint`'s. */
const SENT = "v2:";
const CHUNK = 8_192; // UTF-16 units encoded at a time: at most 3 bytes each
const BATCH = 64; // messages stringified at a time
const encoder = new TextEncoder();
const bytes = new Uint8Array(3 * CHUNK + 8); // + up to 4 bytes carried, and a chunk's closing surrogate pair
const words = new Int32Array(bytes.buffer);

/**
 * cyrb53 over the UTF-8 of the messages' JSON, read 4 bytes a step (hash53 reads a UTF-16 unit a step).
 * The messages are stringified a batch at a time: the whole output's JSON would be one large string,
 * flattened (copied) before it could be read. The text is encoded in chunks into one small buffer;
 * bytes past a chunk's last word are carried to the next, so the value is that of the whole JSON's
 * bytes. Words are read in the platform's byte order (little-endian wherever JS runs; elsewhere a
 * state saved on another machine is only not recognised). Throws for messages that are not JSON.
 */
function sentHash(messages: readonly unknown[]): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let carry = 0;
  // The text from `i` to `stop`, after the bytes carried.
  const feed = (text: string, i = 0, stop = text.length) => {
    do {
      let end = Math.min(i + CHUNK, stop);
      if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++; // a surrogate pair stays in one chunk
      const n = carry + encoder.encodeInto(text.substring(i, end), bytes.subarray(carry)).written;
      i = end;
      for (let k = 0; k < n >> 2; k++) {
        h1 = Math.imul(h1 ^ words[k], 2654435761);
        h2 = Math.imul(h2 ^ words[k], 1597334677);
      }
      carry = n & 3;
      bytes.copyWithin(0, n - carry, n);
    } while (i < stop);
  };
  bytes[carry++] = 91; // [
  for (let i = 0; i < messages.length; i += BATCH) {
    if (i) bytes[carry++] = 44; // ,
    const json = JSON.stringify(messages.slice(i, i + BATCH));
    feed(json, 1, json.length - 1); // without its brackets
  }
  feed("]");
  // The last 0–3 bytes as one word: JSON's UTF-8 has no NUL byte, so the word tells how many there were.
  const tail = words[0] & ((1 << (8 * carry)) - 1);
  return mix53(Math.imul(h1 ^ tail, 2654435761), Math.imul(h2 ^ tail, 1597334677));
}

/** What `state.sent` holds of a pass's output (old: as an earlier version wrote it); undefined for messages that are not JSON. */
export function sentFingerprint(messages: readonly unknown[], old = false): string | undefined {
  try {
    return old ? fingerprint(messages) : SENT + sentHash(messages);
  } catch {
    return undefined;
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
  const print = f.sent?.fingerprint;
  const previous = n !== undefined && n <= f.input.length && sentFingerprint(f.input.slice(0, n), !print!.startsWith(SENT)) === print;
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
