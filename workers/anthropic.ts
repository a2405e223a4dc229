// POST /v1/messages: the compacting proxy for Anthropic Messages clients (the official SDK and tools
// built on it, pointed at this worker's base URL). Compacts with the Anthropic dialect, forwards to
// ANTHROPIC_UPSTREAM_BASE_URL, streams the answer back byte for byte; errors in Anthropic's shape.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { compact, type CompactResult } from "../src/index.js";
import { ownSecrets, windowFor, type Env } from "./env.js";
import { upstreamMissing } from "./errors.js";
import { coreOptions } from "./options.js";
import { SendFailed, outputReserve, sendCompacted, type Sent } from "./overflow.js";
import { requestBytesBudget, toolOutputBudget, trimmedFor } from "./trim.js";
import { isStream, proxyHeaders, runCompact, sessionKey, sessionOf, sseData, watchUsage, type ProxyResult } from "./proxy.js";
import { UpstreamTimeout, cutAware, idleFetch, upstreamFailure, upstreamMessage, upstreamTimeoutMs } from "./upstream.js";
import { forwardedHeaders, upstreamUrl } from "./wire.js";
import { AnthropicError, CountTokensRequest, CountTokensResponse, MessagesRequest, SessionId } from "./schemas.js";

type App = { Bindings: Env };

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};
const errorType = (status: number) => ERROR_TYPES[status] ?? "api_error";

function anthropicError(status: number, message: string, type = errorType(status), extra: Record<string, unknown> = {}): Response {
  return Response.json({ type: "error", error: { type, message, ...extra } }, { status });
}

/**
 * Every error of this route in Anthropic's shape, whoever wrote it (auth, body limit, validation,
 * compaction input): `{"error":{"type","message"}}` becomes `{"type":"error","error":{…}}`, with the
 * Anthropic type for its status and the worker's own type kept as `code`.
 */
export const anthropicErrorShape: MiddlewareHandler<App> = async (c, next) => {
  await next();
  if (c.res.status < 400) return;
  const text = await c.res.clone().text();
  let body: { type?: string; error?: { type?: string; message?: string; issues?: unknown } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: { message: text || `HTTP ${c.res.status}` } }; // a plain-text error (a malformed JSON body, say)
  }
  if (!body || body.type === "error" || typeof body.error?.message !== "string") return;
  const { type, message, ...rest } = body.error;
  const res = anthropicError(c.res.status, message, errorType(c.res.status), { ...rest, ...(type ? { code: type } : {}) });
  c.res.headers.forEach((v, k) => k !== "content-length" && k !== "content-type" && res.headers.set(k, v));
  c.res = res;
};

/** Provider usage from an Anthropic answer: message_start's, updated by message_delta's when it counts input. */
function anthropicUsage(text: string, streamed: boolean): unknown {
  if (!streamed) return JSON.parse(text)?.usage;
  let usage: Record<string, unknown> | undefined;
  for (const e of sseData(text) as { type?: string; message?: { usage?: object }; usage?: object }[]) {
    if (e?.type === "message_start" && e.message?.usage) usage = { ...e.message.usage };
    else if (e?.type === "message_delta" && e.usage && "input_tokens" in e.usage) usage = { ...usage, ...e.usage };
  }
  return usage;
}

const json = (description: string) => ({ content: { "application/json": { schema: AnthropicError } }, description });

/** The client's headers (Claude Code's anthropic-beta, x-app, x-stainless-*, …), its version, and the worker's key. */
function anthropicHeaders(c: Context<App>): Headers {
  return forwardedHeaders(c.req.raw.headers, {
    "content-type": "application/json",
    "anthropic-version": c.req.header("anthropic-version") ?? "2023-06-01",
    "x-api-key": c.env.ANTHROPIC_API_KEY,
  });
}

/** The window to compact for: header, table (with the 1M beta), capped by what an overflow taught the session. */
async function windowOf(c: Context<App>, model: string, sessionId: string | undefined): Promise<number> {
  const window = windowFor(c.env, model, c.req.header("x-context-window"), c.req.header("anthropic-beta"));
  const learned = sessionId ? await sessionOf(c.env, sessionId).learnedWindow(model) : undefined;
  return Math.min(window, learned ?? window);
}

/** A fetch that threw: the idle timeout (504) or an unreachable upstream (502), in Anthropic's shape. */
function unreachable(failed: unknown): Response {
  if (!(failed instanceof SendFailed)) throw failed; // a compaction input error: the app's handler answers it
  const err = failed.reason;
  if (err instanceof UpstreamTimeout) return anthropicError(504, err.message, "timeout_error");
  return anthropicError(502, upstreamMessage(err instanceof Error ? err.message : "network error", "the upstream could not be reached: "));
}

/** The upstream's error answer in Anthropic's shape, with its back-off headers (and the retry, when there was one). */
async function anthropicFailure(res: Response, sent: Pick<Sent, "retried">): Promise<Response> {
  const f = await upstreamFailure(res);
  const answer = anthropicError(f.status, f.message, f.type);
  f.headers.forEach((v, k) => answer.headers.set(k, v));
  if (sent.retried) answer.headers.set("x-compaction-retried", "overflow"); // as proxyHeaders writes it
  return answer;
}

/** The request forwarded: the client's, with the compacted messages and the system prompt (noted once compacted). */
function anthropicRequest(body: { system?: unknown }, result: ProxyResult | CompactResult<unknown>): object {
  const system = result.system ?? body.system;
  return { ...body, messages: result.messages, ...(system === undefined ? {} : { system }) };
}

/** The errors both proxied routes answer, in Anthropic's shape. */
const proxyErrors = {
  400: json("Invalid input"),
  401: json("Missing or wrong token"),
  502: json("No upstream, or the upstream could not be reached"),
  504: json("The upstream did not answer in time"),
};

export function messagesRoute(app: OpenAPIHono<App>): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/messages",
      summary: "Anthropic Messages proxy: compacts `messages` (and notes it in `system`) when needed, forwards to the upstream, streams its answer back unchanged",
      description: "Authenticate with `Authorization: Bearer` or `x-api-key` (the worker's API_TOKEN). Errors use Anthropic's shape.",
      request: {
        body: { content: { "application/json": { schema: MessagesRequest } }, required: true },
        headers: z.object({
          "x-session-id": SessionId.optional(),
          "x-context-window": z.string().optional(),
          "anthropic-version": z.string().optional(),
          "anthropic-beta": z.string().optional(),
        }),
      },
      responses: {
        200: { description: "The upstream's answer, unchanged (JSON, or SSE with stream: true); the compaction report in x-compaction-* headers" },
        ...proxyErrors,
        413: json("Body too large"),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const upstream = c.env.ANTHROPIC_UPSTREAM_BASE_URL;
      if (!upstream) return anthropicError(502, upstreamMissing("ANTHROPIC_UPSTREAM_BASE_URL")) as never;
      const sessionId = c.req.valid("header")["x-session-id"];
      const session = await sessionKey(c.req.raw.headers, sessionId, body.system, body.messages);
      const window = await windowOf(c, body.model, session);
      const trim = toolOutputBudget(c.env, c.req.raw.headers);
      const maxRequestBytes = requestBytesBudget(c.env, c.req.raw.headers);
      let sent: Sent;
      try {
        sent = await sendCompacted({
          window,
          compactFor: (contextWindow, force) =>
            runCompact(c.env, body.messages, { contextWindow, force, maxOutputTokens: outputReserve(body.max_tokens, contextWindow), tools: body.tools, dialect: "anthropic", system: body.system, maxRequestBytes }, session, trim),
          send: (result) => {
            const request = anthropicRequest(body, result);
            return idleFetch(upstreamUrl(upstream, "/v1/messages", c.req.url), { method: "POST", headers: anthropicHeaders(c), body: JSON.stringify(request) }, upstreamTimeoutMs(c.env), c.req.raw.signal);
          },
          learn: session ? (tokens, note) => sessionOf(c.env, session).learnedWindow(body.model, tokens, note) : undefined,
        });
      } catch (err) {
        return unreachable(err) as never;
      }
      const { result, res } = sent;
      // The upstream's own status (429, 529, …), its error type, its back-off headers, and its message made safe.
      if (!res.ok) return (await anthropicFailure(res, sent)) as never;

      const headers = proxyHeaders(res, ["content-type", "cache-control", "request-id", "x-request-id"], result, Boolean(sent.retried));
      const out = watchUsage(c, isStream(res, body.stream) ? cutAware(res.body!, "anthropic") : res.body, result.session, (text) => anthropicUsage(text, body.stream === true), result);
      return new Response(out, { status: res.status, headers }) as never;
    },
  );
}

/**
 * POST /v1/messages/count_tokens: what the request will cost once compacted, counted by the upstream.
 * The compaction here is stateless and deterministic (no session written, no model summarizer called):
 * a count has no side effects. An upstream without the route (404) gets the worker's own estimate.
 */
export function countTokensRoute(app: OpenAPIHono<App>): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/messages/count_tokens",
      summary: "Anthropic token counting: the request as the worker would send it (compacted), counted by the upstream",
      description: "`{ input_tokens }` from the upstream; when it has no count_tokens route (404), the worker's own estimate (`x-count-source: estimate`). Errors use Anthropic's shape.",
      request: {
        body: { content: { "application/json": { schema: CountTokensRequest } }, required: true },
        headers: z.object({ "x-session-id": SessionId.optional(), "x-context-window": z.string().optional(), "anthropic-version": z.string().optional(), "anthropic-beta": z.string().optional() }),
      },
      responses: {
        200: { content: { "application/json": { schema: CountTokensResponse } }, description: "The count, with the compaction report in x-compaction-* headers" },
        ...proxyErrors,
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const upstream = c.env.ANTHROPIC_UPSTREAM_BASE_URL;
      if (!upstream) return anthropicError(502, upstreamMissing("ANTHROPIC_UPSTREAM_BASE_URL")) as never;
      const contextWindow = await windowOf(c, body.model, c.req.valid("header")["x-session-id"]);
      const options = { contextWindow, tools: body.tools, dialect: "anthropic" as const, system: body.system, maxRequestBytes: requestBytesBudget(c.env, c.req.raw.headers) };
      // Trimmed as /v1/messages would trim them (stateless: nothing archived).
      const trim = trimmedFor(body.messages, options, toolOutputBudget(c.env, c.req.raw.headers));
      const result: ProxyResult = { ...(await compact(trim.messages, { ...coreOptions(options), secrets: ownSecrets(c.env) })), ...(trim.trimmed && { trimmed: trim.trimmed }) };
      let res: Response;
      try {
        const request = anthropicRequest(body, result);
        res = await idleFetch(upstreamUrl(upstream, "/v1/messages/count_tokens", c.req.url), { method: "POST", headers: anthropicHeaders(c), body: JSON.stringify(request) }, upstreamTimeoutMs(c.env), c.req.raw.signal);
      } catch (err) {
        return unreachable(new SendFailed(err)) as never;
      }
      if (res.status === 404) {
        await res.body?.cancel();
        const headers = proxyHeaders(res, [], result);
        headers.set("x-count-source", "estimate");
        return Response.json({ input_tokens: result.report.tokensAfter }, { headers }) as never;
      }
      if (!res.ok) return (await anthropicFailure(res, {})) as never;
      return new Response(res.body, { status: res.status, headers: proxyHeaders(res, ["content-type", "request-id", "x-request-id"], result) }) as never;
    },
  );
}

/**
 * GET /v1/models (and /v1/models/{id}): the upstream's list, passed through (Claude Code asks for it).
 * A request with anthropic-version goes to the Anthropic upstream, any other to the OpenAI-compatible one;
 * either is used when it is the only one configured.
 */
export function modelsRoute(app: OpenAPIHono<App>): void {
  const handler = async (c: Context<App>) => {
    const anthropic = c.req.header("anthropic-version") !== undefined;
    const useAnthropic = c.env.ANTHROPIC_UPSTREAM_BASE_URL && (anthropic || !c.env.UPSTREAM_BASE_URL);
    const fail = (status: number, message: string) => (anthropic ? anthropicError(status, message) : Response.json({ error: { type: status === 504 ? "upstream_timeout" : "no_upstream", message } }, { status }));
    if (!useAnthropic && !c.env.UPSTREAM_BASE_URL) return fail(404, "no upstream is configured to list models");
    const path = c.req.path.slice("/v1".length); // /models or /models/{id}
    const url = useAnthropic ? upstreamUrl(c.env.ANTHROPIC_UPSTREAM_BASE_URL!, `/v1${path}`, c.req.url) : upstreamUrl(c.env.UPSTREAM_BASE_URL!, path, c.req.url);
    const headers = useAnthropic
      ? forwardedHeaders(c.req.raw.headers, { "anthropic-version": c.req.header("anthropic-version") ?? "2023-06-01", "x-api-key": c.env.ANTHROPIC_API_KEY })
      : forwardedHeaders(c.req.raw.headers, { authorization: c.env.UPSTREAM_API_KEY ? `Bearer ${c.env.UPSTREAM_API_KEY}` : undefined });
    let res: Response;
    try {
      res = await idleFetch(url, { method: "GET", headers }, upstreamTimeoutMs(c.env), c.req.raw.signal);
    } catch (err) {
      if (err instanceof UpstreamTimeout) return fail(504, err.message);
      return fail(502, upstreamMessage(err instanceof Error ? err.message : "network error", "the upstream could not be reached: "));
    }
    if (!res.ok) {
      const f = await upstreamFailure(res);
      return anthropic ? anthropicError(f.status, f.message, f.type) : Response.json({ error: { type: "upstream_error", message: f.message, status: f.status } }, { status: f.status, headers: f.headers });
    }
    const out = new Headers();
    for (const k of ["content-type", "request-id", "x-request-id"]) if (res.headers.get(k)) out.set(k, res.headers.get(k)!);
    return new Response(res.body, { status: res.status, headers: out });
  };
  const doc = { 200: { description: "The upstream's model list (or model), unchanged" }, 404: { description: "No upstream is configured" }, 502: { description: "The upstream could not be reached" } };
  app.openapi(createRoute({ method: "get", path: "/v1/models", summary: "The upstream's models, passed through", responses: doc }), handler as never);
  app.openapi(
    createRoute({ method: "get", path: "/v1/models/{id}", summary: "One of the upstream's models, passed through", request: { params: z.object({ id: z.string().min(1).max(200).openapi({ param: { name: "id", in: "path" } }) }) }, responses: doc }),
    handler as never,
  );
}
