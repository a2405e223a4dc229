// Calls to the model provider: an idle timeout (to the first byte, then between chunks), the client's
// disconnect passed on, and the provider's error message made safe to show. Shared by proxy routes.
import { redactMessage } from "../src/redact/index.js";
import type { Env } from "./env.js";

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;

/** The upstream went quiet for longer than the idle timeout. */
export class UpstreamTimeout extends Error {
  override readonly name = "UpstreamTimeout";
  constructor(ms: number) {
    super(`the upstream sent nothing for ${ms} ms`);
  }
}

export function upstreamTimeoutMs(env: Env): number {
  const ms = Number(env.UPSTREAM_TIMEOUT_MS);
  return ms > 0 ? ms : DEFAULT_UPSTREAM_TIMEOUT_MS;
}

/**
 * fetch, aborted when `client` aborts or when the upstream is silent for `ms`: before its headers
 * (the promise rejects with UpstreamTimeout) or between body chunks (the body errors with it).
 */
export async function idleFetch(url: string, init: RequestInit, ms: number, client?: AbortSignal): Promise<Response> {
  const ctl = new AbortController();
  const abort = (why: unknown) => ctl.abort(why);
  if (client?.aborted) abort(client.reason);
  client?.addEventListener("abort", () => abort(client.reason), { once: true });
  let timer = setTimeout(() => abort(new UpstreamTimeout(ms)), ms);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: ctl.signal });
  } catch (err) {
    throw ctl.signal.reason instanceof UpstreamTimeout ? ctl.signal.reason : err;
  } finally {
    clearTimeout(timer);
  }
  if (!res.body) return res;
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      // Silent too long: abort the request and cancel the read, which then ends at once.
      timer = setTimeout(() => {
        abort(new UpstreamTimeout(ms));
        reader.cancel(ctl.signal.reason).catch(() => undefined);
      }, ms);
      try {
        const { done, value } = await reader.read();
        if (ctl.signal.aborted) out.error(ctl.signal.reason);
        else if (done) out.close();
        else out.enqueue(value);
      } catch (err) {
        out.error(ctl.signal.aborted ? ctl.signal.reason : err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      abort(reason); // the client went away: so does the upstream request
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** What a client needs from the provider's error: its type and code, and its message made safe. */
export interface UpstreamFailure {
  /** The provider's own status: a client's retry logic keys on it (429, 529, 5xx). */
  status: number;
  message: string;
  type?: string;
  code?: string;
  /** Retry-After and rate-limit headers, passed on so that a client backs off as the provider asks. */
  headers: Headers;
}

const PASSED_ON = /^(?:retry-after(?:-ms)?|x-ratelimit-[\w-]+|anthropic-ratelimit-[\w-]+|x-request-id|request-id)$/;

/** The upstream's non-2xx answer, read whole and made safe to show. */
export async function upstreamFailure(res: Response): Promise<UpstreamFailure> {
  const text = await res.text();
  let error: { type?: unknown; code?: unknown } | undefined;
  try {
    error = JSON.parse(text)?.error;
  } catch {
    // plain text
  }
  const headers = new Headers();
  res.headers.forEach((v, k) => PASSED_ON.test(k) && headers.set(k, v));
  // An identifier, never free text, nor a key a provider echoes where its type or code goes.
  const word = (v: unknown) => (typeof v === "string" && /^[\w.-]{1,64}$/.test(v) && redactMessage(v) === v ? v : undefined);
  return {
    status: res.status >= 400 ? res.status : 502,
    message: upstreamMessage(text, `upstream answered ${res.status}: `),
    type: word(error?.type),
    code: word(error?.code),
    headers,
  };
}

/**
 * The provider's error message (a string, or any JSON as JSON) after `lead`, redacted whole, then the
 * whole line capped at 500 characters.
 */
export function upstreamMessage(text: string, lead = ""): string {
  let message: unknown = text;
  try {
    const e = JSON.parse(text)?.error;
    message = e?.message ?? e ?? text;
  } catch {
    // plain text
  }
  const s = typeof message === "string" ? message : JSON.stringify(message);
  return redactMessage(lead + s.slice(0, 100_000)); // redacted whole (echoed keys of any form masked), then capped
}

/** The SSE dialects a proxied stream may speak: each has its own error event. */
export type StreamFormat = "anthropic" | "openai-chat" | "responses";

/** The error event a client of `format` understands, as SSE text (its own event, after a blank line). */
export function streamErrorEvent(format: StreamFormat, err: unknown): string {
  const timeout = err instanceof UpstreamTimeout;
  // Never the raw error text of a network failure beyond its message, redacted (it may quote a URL with a key).
  const message = upstreamMessage(err instanceof Error ? err.message : "the upstream stream failed", "the upstream stream was cut: ");
  if (format === "anthropic") {
    const type = timeout ? "overloaded_error" : "api_error"; // overloaded: the error Anthropic clients retry
    return `event: error\ndata: ${JSON.stringify({ type: "error", error: { type, message } })}\n\n`;
  }
  const code = timeout ? "upstream_timeout" : "upstream_error";
  if (format === "responses") return `event: error\ndata: ${JSON.stringify({ type: "error", code, message, param: null })}\n\n`;
  return `data: ${JSON.stringify({ error: { type: code, code, message } })}\n\n`;
}

/**
 * A proxied SSE body whose upstream may be cut (idle timeout, reset): the bytes pass through as they
 * come; a failure ends the stream with an error event in the client's format, after a blank line so
 * that it never joins a half-sent event, and nothing after it: no clean `[DONE]` or `message_stop`
 * a client would take for a complete answer.
 */
export function cutAware(body: ReadableStream<Uint8Array>, format: StreamFormat): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const encoder = new TextEncoder();
  let tail = "\n\n"; // the last two characters sent: whether an event boundary was reached
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      try {
        const { done, value } = await reader.read();
        if (done) return out.close();
        out.enqueue(value);
        tail = (tail + String.fromCharCode(...value.subarray(-2))).slice(-2).replace(/\r/g, "\n");
      } catch (err) {
        const lead = tail.endsWith("\n\n") ? "" : tail.endsWith("\n") ? "\n" : "\n\n";
        out.enqueue(encoder.encode(lead + streamErrorEvent(format, err)));
        out.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
