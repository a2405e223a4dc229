// POST /v1/messages: the compacting proxy for Anthropic Messages clients (the official SDK and tools
// built on it, pointed at this worker's base URL). Compacts with the Anthropic dialect, forwards to
// ANTHROPIC_UPSTREAM_BASE_URL, streams the answer back byte for byte; errors in Anthropic's shape.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { windowFor, type Env } from "./env.js";
import { credentialOf, proxyHeaders, runCompact, sseData, watchUsage } from "./proxy.js";
import { UpstreamTimeout, idleFetch, upstreamFailure, upstreamMessage, upstreamTimeoutMs } from "./upstream.js";
import { AnthropicError, MessagesRequest, SessionId } from "./schemas.js";

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
        400: json("Invalid input"),
        401: json("Missing or wrong token"),
        413: json("Body too large"),
        502: json("No upstream, or the upstream could not be reached"),
        504: json("The upstream did not answer in time"),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const upstream = c.env.ANTHROPIC_UPSTREAM_BASE_URL?.replace(/\/+$/, "");
      if (!upstream) return anthropicError(502, "ANTHROPIC_UPSTREAM_BASE_URL is not configured") as never;
      const sessionId = c.req.valid("header")["x-session-id"];
      const result = await runCompact(
        c.env,
        body.messages,
        { contextWindow: windowFor(c.env, body.model, c.req.header("x-context-window")), maxOutputTokens: body.max_tokens, tools: body.tools, dialect: "anthropic", system: body.system },
        sessionId,
        credentialOf(c.req.raw.headers),
      );
      const system = result.system ?? body.system;

      let res: Response;
      try {
        res = await idleFetch(
          `${upstream}/v1/messages`,
          {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "anthropic-version": c.req.header("anthropic-version") ?? "2023-06-01",
              ...(c.req.header("anthropic-beta") ? { "anthropic-beta": c.req.header("anthropic-beta")! } : {}),
              ...(c.env.ANTHROPIC_API_KEY ? { "x-api-key": c.env.ANTHROPIC_API_KEY } : {}),
            },
            body: JSON.stringify({ ...body, messages: result.messages, ...(system === undefined ? {} : { system }) }),
          },
          upstreamTimeoutMs(c.env),
          c.req.raw.signal,
        );
      } catch (err) {
        if (err instanceof UpstreamTimeout) return anthropicError(504, err.message, "timeout_error") as never;
        return anthropicError(502, upstreamMessage(err instanceof Error ? err.message : "network error", "the upstream could not be reached: ")) as never;
      }
      // The upstream's own status (429, 529, …), its error type, its back-off headers, and its message made safe.
      if (!res.ok) {
        const f = await upstreamFailure(res);
        const answer = anthropicError(f.status, f.message, f.type);
        f.headers.forEach((v, k) => answer.headers.set(k, v));
        return answer as never;
      }

      const headers = proxyHeaders(res, ["content-type", "cache-control", "request-id", "x-request-id"], result);
      const out = watchUsage(c, res.body, result.session, (text) => anthropicUsage(text, body.stream === true), result);
      return new Response(out, { status: res.status, headers }) as never;
    },
  );
}
