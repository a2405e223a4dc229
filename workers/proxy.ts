// What the compacting proxies share, whatever API they speak: the session's compaction pass, the
// x-compaction-* report headers, usage read back from the answer for calibration, the upstream call
// with its timeout, and upstream error messages made safe to show.
import type { Context } from "hono";
import { compact, redact, type CompactResult } from "../src/index.js";
import { summarizerFor, type Env } from "./env.js";
import { coreOptions, type HttpOptions } from "./options.js";
import type { SessionObject } from "./session.js";

export function sessionOf(env: Env, id: string): DurableObjectStub<SessionObject> {
  return env.SESSIONS.get(env.SESSIONS.idFromName(id)) as DurableObjectStub<SessionObject>;
}

/** One compaction pass: with the session's state when there is a session, else a stateless one. */
export async function runCompact(env: Env, messages: unknown[], options: HttpOptions, sessionId: string | undefined, onEvent?: (e: unknown) => void): Promise<CompactResult<unknown>> {
  if (sessionId) return (await sessionOf(env, sessionId).compact(messages, options, onEvent)) as CompactResult<unknown>;
  return compact(messages, { ...coreOptions(options), summarizer: summarizerFor(env), onEvent });
}

export const COMPACTION_HEADERS = ["x-compaction-mode", "x-compaction-tokens-before", "x-compaction-tokens-after", "x-compaction-messages-before", "x-compaction-messages-after", "x-compaction-summary", "x-compaction-first-changed-index"];

/** The upstream's headers worth passing on (`keep`), and the compaction report as x-compaction-*. */
export function proxyHeaders(upstream: Response, keep: string[], { report: r }: CompactResult<unknown>): Headers {
  const headers = new Headers();
  for (const k of keep) {
    const v = upstream.headers.get(k);
    if (v) headers.set(k, v);
  }
  headers.set("x-compaction-mode", r.mode);
  headers.set("x-compaction-tokens-before", String(r.tokensBefore));
  headers.set("x-compaction-tokens-after", String(r.tokensAfter));
  headers.set("x-compaction-messages-before", String(r.messagesBefore));
  headers.set("x-compaction-messages-after", String(r.messagesAfter));
  headers.set("x-compaction-first-changed-index", String(r.firstChangedIndex));
  if (r.summary) headers.set("x-compaction-summary", r.summary.source);
  return headers;
}

/** The JSON payloads of an SSE stream's data lines; lines that are not JSON are skipped. */
export function sseData(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    try {
      out.push(JSON.parse(line.slice(5)));
    } catch {
      // not JSON ([DONE], or malformed): not ours to judge, the client gets the stream unchanged
    }
  }
  return out;
}

/**
 * The answer's body for the client, untouched; with a session, a second branch is read for the
 * provider's usage (`usageOf` its text), which calibrates the session once the answer is complete.
 */
export function watchUsage<E extends { Bindings: Env }>(c: Context<E>, body: ReadableStream<Uint8Array> | null, sessionId: string | undefined, usageOf: (text: string) => unknown): ReadableStream<Uint8Array> | null {
  if (!body || !sessionId) return body;
  const [client, watch] = body.tee();
  c.executionCtx.waitUntil(
    new Response(watch)
      .text()
      .then((text) => {
        const usage = usageOf(text);
        return usage ? sessionOf(c.env, sessionId).observeUsage(usage) : undefined;
      })
      .catch(() => undefined),
  );
  return client;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;
const MAX_UPSTREAM_MESSAGE = 500;

/** The upstream did not answer (headers) within UPSTREAM_TIMEOUT_MS. */
export class UpstreamTimeout extends Error {
  constructor(readonly ms: number) {
    super(`the upstream did not answer within ${ms} ms`);
  }
}

export function upstreamTimeoutMs(env: Env): number {
  const ms = Number(env.UPSTREAM_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_UPSTREAM_TIMEOUT_MS;
}

/**
 * fetch with a deadline for the upstream's answer to begin; a stream that has begun runs as long as
 * it takes. The client going away aborts the call too.
 */
export async function fetchUpstream(url: string, init: RequestInit, ms: number, client: AbortSignal): Promise<Response> {
  const abort = new AbortController();
  const onClient = () => abort.abort(client.reason);
  client.addEventListener("abort", onClient);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, ms);
  try {
    return await fetch(url, { ...init, signal: abort.signal });
  } catch (err) {
    throw timedOut ? new UpstreamTimeout(ms) : err;
  } finally {
    clearTimeout(timer);
    client.removeEventListener("abort", onClient);
  }
}

/** An upstream error body's message (JSON `error.message`, else the text), redacted, then capped. */
export function upstreamErrorMessage(text: string): string {
  let message = text;
  try {
    const parsed = JSON.parse(text)?.error?.message;
    if (typeof parsed === "string") message = parsed;
  } catch {
    // plain text
  }
  const safe = redact(message);
  return safe.length > MAX_UPSTREAM_MESSAGE ? `${safe.slice(0, MAX_UPSTREAM_MESSAGE)}…` : safe;
}
