// The edge worker: plan, compact (JSON or SSE), the compacting OpenAI-compatible proxy, sessions.
import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { streamSSE } from "hono/streaming";
import { CompactionInputError, compact, plan, type CompactResult } from "../src/index.js";
import { redactMessage } from "../src/redact/index.js";
import { summarizerFor, windowFor, type Env } from "./env.js";
import { coreOptions, type HttpOptions } from "./options.js";
import { ChatRequest, CompactRequest, CompactResponse, ErrorBody, PlanRequest, PlanResponse, SessionResponse } from "./schemas.js";
import type { SessionObject } from "./session.js";

type App = { Bindings: Env };

export const DEFAULT_MAX_BODY = 10 * 1024 * 1024;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function error(c: Context, status: 400 | 401 | 404 | 413 | 429 | 500 | 502 | 503, type: string, message: string, issues?: { path: string; message: string }[]) {
  return c.json({ error: { type, message, ...(issues ? { issues } : {}) } }, status);
}

/** Compares secrets in constant time, so the token cannot be guessed byte by byte. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

const auth: MiddlewareHandler<App> = async (c, next) => {
  const token = c.env.API_TOKEN;
  if (!token) {
    if (!LOCAL_HOSTS.has(new URL(c.req.url).hostname)) {
      return error(c, 401, "unauthorized", "API_TOKEN is not set: this worker only serves local development requests until it is");
    }
    c.header("x-context-compactor-warning", "API_TOKEN is not set: local development only");
    return next();
  }
  const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
  if (!given || !sameSecret(given, token)) return error(c, 401, "unauthorized", "a valid Authorization: Bearer token is required");
  return next();
};

function sessionOf(env: Env, id: string): DurableObjectStub<SessionObject> {
  return env.SESSIONS.get(env.SESSIONS.idFromName(id)) as DurableObjectStub<SessionObject>;
}

export const app = new OpenAPIHono<App>({
  // Validation failures name every offending field.
  defaultHook: (result, c) => {
    if (!result.success) {
      const issues = result.error.issues.map((i) => ({ path: i.path.join(".") || "(body)", message: i.message }));
      return error(c, 400, "invalid_request", `invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
    }
  },
});

app.use(
  "/v1/*",
  cors({
    origin: "*",
    allowHeaders: ["authorization", "content-type", "x-session-id", "x-context-window"],
    exposeHeaders: ["x-compaction-mode", "x-compaction-tokens-before", "x-compaction-tokens-after", "x-compaction-messages-before", "x-compaction-messages-after", "x-compaction-summary", "x-compaction-first-changed-index"],
  }),
);
app.use("/v1/*", auth);
app.use("/v1/*", async (c, next) =>
  bodyLimit({
    maxSize: Number(c.env.MAX_BODY_BYTES) || DEFAULT_MAX_BODY,
    onError: (c) => error(c, 413, "body_too_large", `the request body is larger than ${Number(c.env.MAX_BODY_BYTES) || DEFAULT_MAX_BODY} bytes`),
  })(c, next),
);

app.onError((err, c) => {
  if (err instanceof CompactionInputError) {
    return error(c, 400, "invalid_messages", err.message, err.issues.map((m) => ({ path: err.index >= 0 ? `messages.${err.index}` : "messages", message: m })));
  }
  if (err instanceof RangeError && err.message.startsWith("context-compactor:")) return error(c, 400, "invalid_options", err.message);
  if (err instanceof HTTPException) return err.getResponse();
  console.error("unhandled error:", err instanceof Error ? err.name : "unknown"); // never the message: it may quote input
  return error(c, 500, "internal_error", "internal error");
});

const json = (schema: z.ZodType, description: string) => ({ content: { "application/json": { schema } }, description });
const errors = { 400: json(ErrorBody, "Invalid input"), 401: json(ErrorBody, "Missing or wrong token"), 413: json(ErrorBody, "Body too large") };

// ---- POST /v1/plan ------------------------------------------------------------------------------

app.openapi(
  createRoute({
    method: "post",
    path: "/v1/plan",
    summary: "Where head, middle and tail fall, and whether compaction is due",
    request: { body: { content: { "application/json": { schema: PlanRequest } }, required: true } },
    responses: { 200: json(PlanResponse, "The plan"), ...errors },
  }),
  (c) => {
    const { messages, options } = c.req.valid("json");
    return c.json(plan(messages, coreOptions(options)) as unknown as z.infer<typeof PlanResponse>, 200);
  },
);

// ---- POST /v1/compact ---------------------------------------------------------------------------

async function runCompact(env: Env, messages: unknown[], options: HttpOptions, sessionId: string | undefined, onEvent?: (e: unknown) => void): Promise<CompactResult<unknown>> {
  if (sessionId) return (await sessionOf(env, sessionId).compact(messages, options, onEvent)) as CompactResult<unknown>;
  return compact(messages, { ...coreOptions(options), summarizer: summarizerFor(env), onEvent });
}

app.openapi(
  createRoute({
    method: "post",
    path: "/v1/compact",
    summary: "One compaction pass (state kept per session); with Accept: text/event-stream, progress events then the result",
    request: { body: { content: { "application/json": { schema: CompactRequest } }, required: true } },
    responses: {
      200: {
        content: { "application/json": { schema: CompactResponse }, "text/event-stream": { schema: z.string() } },
        description: "The compacted transcript and its report",
      },
      ...errors,
    },
  }),
  async (c) => {
    const { messages, options, sessionId } = c.req.valid("json");
    if (!(c.req.header("accept") ?? "").includes("text/event-stream")) {
      return c.json((await runCompact(c.env, messages, options, sessionId)) as unknown as z.infer<typeof CompactResponse>, 200);
    }
    return streamSSE(c, async (stream) => {
      const sent: Promise<void>[] = [];
      try {
        const result = await runCompact(c.env, messages, options, sessionId, (e) => {
          sent.push(stream.writeSSE({ event: (e as { type: string }).type, data: JSON.stringify(e) }));
        });
        await Promise.all(sent);
        await stream.writeSSE({ event: "result", data: JSON.stringify(result) });
      } catch (err) {
        const message = err instanceof CompactionInputError || err instanceof RangeError ? err.message : "internal error";
        await stream.writeSSE({ event: "error", data: JSON.stringify({ error: { type: "compaction_failed", message } }) });
      }
    }) as never;
  },
);

// ---- GET /v1/sessions/:id -----------------------------------------------------------------------

app.openapi(
  createRoute({
    method: "get",
    path: "/v1/sessions/{id}",
    summary: "A session's state and its recent compaction reports",
    request: { params: z.object({ id: z.string().min(1).max(200).openapi({ param: { name: "id", in: "path" } }) }) },
    responses: { 200: json(SessionResponse, "The session"), 401: json(ErrorBody, "Missing or wrong token") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const snap = (await sessionOf(c.env, id).snapshot()) as { state: unknown; reports: unknown[] };
    return c.json({ id, state: snap.state, reports: snap.reports } as z.infer<typeof SessionResponse>, 200);
  },
);

// ---- POST /v1/chat/completions: the compacting proxy --------------------------------------------

/** Usage from an OpenAI stream (the chunk that carries it) or JSON body, for calibration. */
async function usageOf(body: ReadableStream<Uint8Array>, streamed: boolean): Promise<unknown> {
  const text = await new Response(body).text();
  if (!streamed) return JSON.parse(text)?.usage;
  let usage: unknown;
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:") || line.includes("[DONE]")) continue;
    try {
      usage = JSON.parse(line.slice(5)).usage ?? usage;
    } catch {
      // not JSON: not ours to judge, the client gets the stream unchanged
    }
  }
  return usage;
}

app.openapi(
  createRoute({
    method: "post",
    path: "/v1/chat/completions",
    summary: "OpenAI-compatible proxy: compacts `messages` when needed, forwards to the upstream, streams its answer back unchanged",
    request: {
      body: { content: { "application/json": { schema: ChatRequest } }, required: true },
      headers: z.object({ "x-session-id": z.string().optional(), "x-context-window": z.string().optional() }),
    },
    responses: { 200: { description: "The upstream's answer, unchanged; the compaction report in x-compaction-* headers" }, ...errors, 502: json(ErrorBody, "Upstream failure") },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const upstream = c.env.UPSTREAM_BASE_URL?.replace(/\/+$/, "");
    if (!upstream) return error(c, 502, "no_upstream", "UPSTREAM_BASE_URL is not configured: only /v1/plan and /v1/compact are available");
    const sessionId = c.req.header("x-session-id");
    const options: HttpOptions = {
      contextWindow: windowFor(c.env, body.model, c.req.header("x-context-window")),
      maxOutputTokens: body.max_completion_tokens ?? body.max_tokens,
      tools: body.tools,
    };
    const result = await runCompact(c.env, body.messages, options, sessionId);

    let res: Response;
    try {
      res = await fetch(`${upstream}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(c.env.UPSTREAM_API_KEY ? { authorization: `Bearer ${c.env.UPSTREAM_API_KEY}` } : {}) },
        body: JSON.stringify({ ...body, messages: result.messages }),
        signal: c.req.raw.signal,
      });
    } catch (err) {
      return error(c, 502, "upstream_unreachable", redactMessage(`the upstream could not be reached: ${err instanceof Error ? err.message : "network error"}`));
    }
    if (!res.ok) {
      const text = await res.text();
      let message = text;
      try {
        message = String(JSON.parse(text)?.error?.message ?? text);
      } catch {
        // plain text
      }
      // The upstream may echo the key or the prompt: redacted whole, then capped.
      return c.json({ error: { type: "upstream_error", message: redactMessage(`upstream answered ${res.status}: ${message}`), status: res.status } }, 502);
    }

    const r = result.report;
    const headers = new Headers();
    for (const k of ["content-type", "cache-control", "x-request-id", "openai-processing-ms"]) {
      const v = res.headers.get(k);
      if (v) headers.set(k, v);
    }
    headers.set("x-compaction-mode", r.mode);
    headers.set("x-compaction-tokens-before", String(r.tokensBefore));
    headers.set("x-compaction-tokens-after", String(r.tokensAfter));
    headers.set("x-compaction-messages-before", String(r.messagesBefore));
    headers.set("x-compaction-messages-after", String(r.messagesAfter));
    headers.set("x-compaction-first-changed-index", String(r.firstChangedIndex));
    if (r.summary) headers.set("x-compaction-summary", r.summary.source);

    let out = res.body;
    if (out && sessionId) {
      // One branch to the client, untouched; the other read for usage, which calibrates the session.
      const [client, watch] = out.tee();
      out = client;
      c.executionCtx.waitUntil(
        usageOf(watch, body.stream === true)
          .then((usage) => (usage ? sessionOf(c.env, sessionId).observeUsage(usage) : undefined))
          .catch(() => undefined),
      );
    }
    return new Response(out, { status: res.status, headers }) as never;
  },
);

// ---- documents and the demo -----------------------------------------------------------------------

app.doc31("/openapi.json", {
  openapi: "3.1.0",
  info: { title: "context-compactor edge worker", version: "0.1.0", description: "Compaction of LLM transcripts at the edge: plan, compact, and an OpenAI-compatible compacting proxy." },
  security: [{ bearer: [] }],
});
app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });

app.notFound((c) => (c.req.path.startsWith("/v1/") ? error(c, 404, "not_found", `no route ${c.req.method} ${c.req.path}`) : c.env.ASSETS ? c.env.ASSETS.fetch(c.req.raw) : error(c, 404, "not_found", "no demo build")));
