// A provider that refuses a request as over its context window is answered by one more compaction,
// forced, for a smaller window, and one retry; the limit it states is learned for the session. Any
// proxy route uses it: it only compacts and sends through the functions it is given.
import type { ProxyResult } from "./proxy.js";

/** What an overflow error says: the tokens the provider counted and its limit, when it states them. */
export interface Overflow {
  counted?: number;
  limit?: number;
}

const num = (s: string | undefined) => (s === undefined ? undefined : Number(s));

/**
 * The overflow a provider's error body reports, or undefined for any other error. Anthropic: 400
 * "prompt is too long: 208310 tokens > 200000 maximum", or "input length and `max_tokens` exceed
 * context limit: 188240 + 21333 > 200000"; OpenAI (Chat and Responses): `context_length_exceeded`,
 * "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000
 * tokens"; others say "context length" or "context window".
 */
export function overflowOf(status: number, body: string): Overflow | undefined {
  if (status !== 400 && status !== 413 && status !== 422) return undefined;
  let m = /prompt is too long:?\s*(\d+)\s*tokens?\s*>\s*(\d+)/i.exec(body);
  if (m) return { counted: num(m[1]), limit: num(m[2]) };
  m = /exceeds? (?:the )?context limit:?\s*(\d+)\s*\+\s*\d+\s*>\s*(\d+)/i.exec(body);
  if (m) return { counted: num(m[1]), limit: num(m[2]) };
  m = /maximum context length is (\d+) tokens/i.exec(body);
  if (m) return { limit: num(m[1]), counted: num(/(?:resulted in|requested|you have) (\d+) tokens/i.exec(body)?.[1]) };
  if (/context_length_exceeded|prompt is too long|context (?:length|window)/i.test(body)) return {};
  return undefined;
}

/**
 * The window to compact for after an overflow: the stated limit scaled by how far our estimate of
 * what was sent fell short of the provider's count (else the limit as is); without a limit, 80 % of
 * the window used. Always smaller than that window.
 */
export function retryWindow(used: number, sentEstimate: number, o: Overflow): number {
  const limit = Math.min(o.limit ?? Math.floor(used * 0.8), used);
  const scale = o.counted && sentEstimate > 0 ? Math.min(1, sentEstimate / o.counted) : 1;
  return Math.max(1, Math.min(Math.floor(limit * scale), Math.floor(used * 0.95)));
}

/**
 * The output a pass reserves in `window`: the request's max_tokens, but never more than half the
 * window (a client's max_tokens of 32k with a learned 20k window, say, must still compact).
 */
export function outputReserve(maxTokens: number | undefined, window: number): number | undefined {
  return maxTokens === undefined ? undefined : Math.min(maxTokens, Math.floor(window / 2));
}

export interface Sent {
  result: ProxyResult;
  res: Response;
  /** Set when the first answer was an overflow and the request was compacted again and resent. */
  retried?: { overflow: Overflow; window: number };
}

export interface SendPlan {
  /** The context window the first pass uses. */
  window: number;
  /** One compaction pass for `contextWindow`; `force` for the retry's. */
  compactFor(contextWindow: number, force: boolean): Promise<ProxyResult>;
  /** Sends the request built from a pass's result; throws as its fetch does. */
  send(result: ProxyResult): Promise<Response>;
  /** Told the provider's limit (or the retry window) when an overflow teaches one, with the note that reports it. */
  learn?(tokens: number, note: string): Promise<unknown>;
}

/** A send that threw (idle timeout, network): told apart from a compaction's own errors, which the app answers. */
export class SendFailed extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : "the upstream could not be reached");
  }
}

/** Compacts, sends, and on an overflow error compacts once more for a smaller window and resends. */
export async function sendCompacted(p: SendPlan): Promise<Sent> {
  const send = (r: ProxyResult) =>
    p.send(r).catch((err: unknown) => {
      throw new SendFailed(err);
    });
  const result = await p.compactFor(p.window, false);
  const res = await send(result);
  if (res.ok) return { result, res };
  const text = await res.clone().text();
  const overflow = overflowOf(res.status, text);
  if (!overflow) return { result, res };
  await res.body?.cancel();
  const window = retryWindow(p.window, result.report.tokensAfter, overflow);
  const note = `the upstream refused the request as over its context window${overflow.counted ? ` (${overflow.counted} tokens${overflow.limit ? ` > ${overflow.limit}` : ""})` : ""}: compacted again for a window of ${window} and retried`;
  await p.learn?.(overflow.limit ?? window, note);
  const again = await p.compactFor(window, true);
  again.report.warnings.push(note);
  return { result: again, res: await send(again), retried: { overflow, window } };
}
