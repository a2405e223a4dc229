// report.cache: what a pass that rewrites does to the provider's prompt cache, and what the next request
// costs for it. Loaded with the rewriting half of a pass (src/pass.ts), which is handed the rates: the
// defaults (src/report/rates.ts) are picked in src/compact.ts (see there why).
import { fingerprint, hash53 } from "../fingerprint.js";
import { sum } from "../plan/index.js";
import type { CompactorState } from "../state.js";
import type { CacheRates, CacheReport } from "./types.js";

/** Marks the fingerprint `state.sent` holds now (jsonHash53); one without it, an earlier version's, is `fingerprint`'s. */
const SENT = "v2:";

const encoder = new TextEncoder();
const bytes = new Uint8Array(16_384);
const words = new Int32Array(bytes.buffer);

/**
 * state.sent's hash of a transcript: cyrb53's chains (hash53's) over the UTF-8 of its JSON,
 * 4 bytes a step (hash53 reads a UTF-16 unit a step), 64 messages' array at a time: the whole
 * transcript's JSON would be one large string, copied (flattened) before it could be read. Each
 * batch's text is encoded as much as fits at a time into one small buffer, the last word padded
 * with zeros (JSON's UTF-8 has no NUL byte). Words are read in the platform's byte order, little-endian
 * wherever JS runs. Throws for messages that are not JSON.
 */
function jsonHash53(messages: readonly unknown[]): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < messages.length; ) {
    for (let json = JSON.stringify(messages.slice(i, (i += 64))); json; ) {
      const { read, written } = encoder.encodeInto(json, bytes);
      bytes.fill(0, written, (written + 3) & ~3); // the last word's padding: not the whole buffer each time
      json = json.slice(read);
      for (let k = 0; k < (written + 3) >> 2; k++) {
        h1 = Math.imul(h1 ^ words[k], 2654435761);
        h2 = Math.imul(h2 ^ words[k], 1597334677);
      }
    }
  }
  return hash53(`${h1} ${h2}`); // hash53's final mix, over the two chains
}

/** What `state.sent` holds of a pass's output (old: as an earlier version wrote it); undefined for messages that are not JSON. */
export function sentFingerprint(messages: readonly unknown[], old?: boolean): string | undefined {
  try {
    return old ? fingerprint(messages) : SENT + jsonHash53(messages);
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
  const previous = n !== undefined && n <= f.input.length && sentFingerprint(f.input.slice(0, n), !f.sent!.fingerprint.startsWith(SENT)) === f.sent!.fingerprint;
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
