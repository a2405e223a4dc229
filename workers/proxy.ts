// What the compacting proxies share, whatever API they speak: the session's compaction pass, the
// x-compaction-* report headers, and usage read back from the answer for calibration. (The upstream
// call and its error messages: upstream.ts.)
import type { Context } from "hono";
import { compact, type CompactResult } from "../src/index.js";
import { passSettings, type Env } from "./env.js";
import { answered, fail, type Outcome } from "./errors.js";
import { SendFailed } from "./overflow.js";
import { UpstreamTimeout, upstreamFailure, upstreamMessage } from "./upstream.js";
import { coreOptions, type HttpOptions } from "./options.js";
import type { SessionObject, SessionResult } from "./session.js";
import { canonical } from "./span.js";
import { trimmedFor } from "./trim.js";

export function sessionOf(env: Env, id: string): DurableObjectStub<SessionObject> {
  return env.SESSIONS.get(env.SESSIONS.idFromName(id)) as DurableObjectStub<SessionObject>;
}

/**
 * One compaction pass: with the session's state when there is a session, else a stateless one
 * (POST /v1/compact). The Durable Object answers errors as data (an exception would lose its class
 * across RPC).
 */
export async function compactPass(env: Env, messages: unknown[], options: HttpOptions, sessionId: string | undefined, onEvent?: (e: unknown) => void): Promise<CompactResult<unknown>> {
  if (!sessionId) return compact(messages, { ...coreOptions(options), ...passSettings(env), onEvent });
  return answered((await sessionOf(env, sessionId).compact(messages, options, onEvent)) as Outcome<CompactResult<unknown>>);
}

/** A proxy's compaction, and the session it ran in (its key, for x-compaction-session and usage). */
export type ProxyResult = SessionResult & { session?: string };

/** The messages that pick a content-keyed session: the first user turn and the model's first answer, after any leading system message. */
const KEY_MESSAGES = 3;

/** The credential a client sent, as received (never stored: only hashed into a session key). */
function credentialOf(headers: Headers): string {
  return headers.get("authorization") ?? headers.get("x-api-key") ?? "";
}

/**
 * The session a request without x-session-id gets: a SHA-256 of the client's credential, the system
 * prompt and the first messages, so that each conversation of each client has its own, and no two
 * clients ever share one. Undefined for a history too short to tell conversations apart.
 */
async function contentKey(credential: string, system: unknown, messages: unknown[]): Promise<string | undefined> {
  if (messages.length < KEY_MESSAGES) return undefined;
  const text = canonical([credential, system ?? null, messages.slice(0, KEY_MESSAGES)]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `auto-${[...digest.slice(0, 20)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The session a proxy request runs in: its x-session-id, else the content-keyed one of its client's credential (see contentKey). */
export async function sessionKey(headers: Headers, sessionId: string | undefined, system: unknown, messages: unknown[]): Promise<string | undefined> {
  return sessionId ?? contentKey(credentialOf(headers), system, messages);
}

/**
 * A proxy's compaction of the client's whole history, in its session (see sessionKey): the session
 * substitutes its stored span and runs a pass only when the threshold is crossed. Without a session,
 * one stateless pass.
 */
export async function runCompact(env: Env, messages: unknown[], options: HttpOptions, session: string | undefined, maxToolOutputTokens?: number): Promise<ProxyResult> {
  if (!session) {
    // Without a session the trimmed outputs' archive has nowhere to live: their stand-ins say so by citing it.
    const t = trimmedFor(messages, options, maxToolOutputTokens);
    const result = await compactPass(env, t.messages, options, undefined);
    return t.trimmed ? { ...result, trimmed: t.trimmed } : result;
  }
  const result = answered((await sessionOf(env, session).rewrite(messages, options, maxToolOutputTokens)) as Outcome<SessionResult>);
  return { ...result, session };
}

/** The header an answer carries when an overflow made the worker compact again and resend. */
const RETRIED = ["x-compaction-retried", "overflow"] as const;

/** The upstream's headers worth passing on (`keep`), the compaction report as x-compaction-*, and the overflow retry. */
export function proxyHeaders(upstream: Response, keep: string[], { report: r, session, trimmed }: ProxyResult, retried = false): Headers {
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
  if (session) headers.set("x-compaction-session", session);
  // Unread outputs cut to fit the window (the whole in the archive): the model sees less than the tool wrote.
  const shrunk = r.pruned.filter((x) => x.kind === "shrunk").length;
  if (shrunk) headers.set("x-compaction-shrunk", String(shrunk));
  // Tool outputs over the request's budget, trimmed as they appeared (the same bytes on every request).
  if (trimmed) headers.set("x-compaction-trimmed", String(trimmed));
  if (retried) headers.set(...RETRIED);
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
export function watchUsage<E extends { Bindings: Env }>(c: Context<E>, body: ReadableStream<Uint8Array> | null, sessionId: string | undefined, usageOf: (text: string) => unknown, sent: ProxyResult): ReadableStream<Uint8Array> | null {
  if (!body || !sessionId) return body;
  const [client, watch] = body.tee();
  // This request's own estimate, uncalibrated: the session may have compacted the next request by
  // the time this answer ends, so its last estimate is not necessarily this one's.
  const estimate = sent.report.tokensAfter / (sent.state.calibration?.ratio ?? 1);
  c.executionCtx.waitUntil(
    new Response(watch)
      .text()
      .then((text) => {
        const usage = usageOf(text);
        return usage ? sessionOf(c.env, sessionId).observeUsage(usage, estimate) : undefined;
      })
      .catch(() => undefined),
  );
  return client;
}

/** A send that threw, in the worker's (OpenAI's) error shape: the idle timeout 504, an unreachable upstream 502. */
export function unreachable<E extends { Bindings: Env }>(c: Context<E>, failed: unknown): Response {
  if (!(failed instanceof SendFailed)) throw failed; // a compaction input error: the app's handler answers it
  const err = failed.reason;
  if (err instanceof UpstreamTimeout) return fail(c, 504, "upstream_timeout", err.message);
  return fail(c, 502, "upstream_unreachable", upstreamMessage(err instanceof Error ? err.message : "network error", "the upstream could not be reached: "));
}

/**
 * The upstream's error answer in OpenAI's shape: its own status and back-off headers pass through
 * (OpenAI clients retry on 429 and 5xx by them), its message made safe; and the overflow retry.
 */
export async function upstreamError(res: Response, retried = false): Promise<Response> {
  const f = await upstreamFailure(res);
  const error = { type: "upstream_error", message: f.message, status: f.status, ...(f.code ? { code: f.code } : {}) };
  const out = new Headers(f.headers);
  if (retried) out.set(...RETRIED);
  return Response.json({ error }, { status: f.status, headers: out });
}

/** Whether the answer is a stream (and, with `requested`, one the client asked for): it then ends with an error event if cut. */
export const isStream = (res: Response, requested: unknown = true) => requested === true && res.body !== null && (res.headers.get("content-type") ?? "").includes("event-stream");
