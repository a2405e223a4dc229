// The edge worker: plan, compact (JSON or SSE), the compacting OpenAI and Anthropic proxies, sessions.
import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import { normalizeRef, plan, type CompactResult } from "../src/index.js";
import type { ProposalAnswer } from "./session.js";
import { RECALL_MAX } from "../src/archive/recall.js";
import { anthropicErrorShape, countTokensRoute, messagesRoute, modelsRoute } from "./anthropic.js";
import { windowFor, type Env } from "./env.js";
import { answered, errorData, fail, failWith, upstreamMissing, type Outcome } from "./errors.js";
import { COMPACTION_HEADERS, auth, corsAllowList } from "./guard.js";
import { coreOptions, type HttpOptions } from "./options.js";
import { requestBytesBudget, toolOutputBudget } from "./trim.js";
import { compactPass, isStream, proxyHeaders, runCompact, sessionKey, sessionOf, sseData, unreachable, upstreamError, watchUsage } from "./proxy.js";
import { responsesRoutes } from "./responses.js";
import { AcceptRequest, ArchiveResponse, ChatRequest, CompactRequest, CompactResponse, ErrorBody, PlanRequest, PlanResponse, ProposalRequest, ProposalResponse, SessionId, SessionResponse } from "./schemas.js";
import { cutAware, idleFetch, upstreamTimeoutMs } from "./upstream.js";
import { outputReserve, sendCompacted, type Sent } from "./overflow.js";
import { forwardedHeaders, upstreamUrl } from "./wire.js";
import { redactMessage } from "../src/redact/index.js";

export type App = { Bindings: Env };

export const DEFAULT_MAX_BODY = 10 * 1024 * 1024;

export const app = new OpenAPIHono<App>({
  // Validation failures name every offending field.
  defaultHook: (result, c) => {
    if (!result.success) {
      // zod quotes unknown field names: the input's own text, redacted like any that leaves.
      const issues = result.error.issues.map((i) => ({ path: redactMessage(i.path.join(".")) || "(body)", message: redactMessage(i.message) }));
      return fail(c, 400, "invalid_request", `invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
    }
  },
});

app.use("/v1/messages", anthropicErrorShape); // first, so that every error of that route takes Anthropic's shape
app.use("/v1/messages/*", anthropicErrorShape);
app.use("/v1/*", corsAllowList(["authorization", "content-type", "x-session-id", "x-context-window", "x-api-key", "anthropic-version", "anthropic-beta"], COMPACTION_HEADERS));
app.use("/v1/*", auth);
app.use("/v1/*", async (c, next) =>
  bodyLimit({
    maxSize: Number(c.env.MAX_BODY_BYTES) || DEFAULT_MAX_BODY,
    onError: (c) => fail(c, 413, "body_too_large", `the request body is larger than ${Number(c.env.MAX_BODY_BYTES) || DEFAULT_MAX_BODY} bytes`),
  })(c, next),
);

app.onError((err, c) => failWith(c, errorData(err)));

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
      return c.json((await compactPass(c.env, messages, options, sessionId)) as unknown as z.infer<typeof CompactResponse>, 200);
    }
    return streamSSE(c, async (stream) => {
      const sent: Promise<void>[] = [];
      try {
        const result = await compactPass(c.env, messages, options, sessionId, (e) => {
          sent.push(stream.writeSSE({ event: (e as { type: string }).type, data: JSON.stringify(e) }));
        });
        await Promise.all(sent);
        await stream.writeSSE({ event: "result", data: JSON.stringify(result) });
      } catch (err) {
        const { type, message, issues } = errorData(err);
        await stream.writeSSE({ event: "error", data: JSON.stringify({ error: { type, message, ...(issues ? { issues } : {}) } }) });
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
    request: { params: z.object({ id: SessionId.openapi({ param: { name: "id", in: "path" } }) }) },
    responses: { 200: json(SessionResponse, "The session"), 401: json(ErrorBody, "Missing or wrong token") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const snap = (await sessionOf(c.env, id).snapshot()) as { state: unknown; reports: unknown[]; evicted: unknown[]; span: unknown };
    return c.json({ id, ...snap } as z.infer<typeof SessionResponse>, 200);
  },
);

// ---- GET /v1/sessions/:id/archive/:ref ----------------------------------------------------------

app.openapi(
  createRoute({
    method: "get",
    path: "/v1/sessions/{id}/archive/{ref}",
    summary: "What a compaction removed or pruned, by the reference its handoff cites (#212, written 212 or %23212), in pieces",
    request: {
      params: z.object({
        id: SessionId.openapi({ param: { name: "id", in: "path" } }),
        // #212, #1.45, or a trimmed tool output's #out-<hash> (workers/trim.ts)
        ref: z.string().regex(/^#?(?:\d+(?:\.\d+)?|out-[\da-z]+)$/).openapi({ param: { name: "ref", in: "path" } }),
      }),
      query: z.object({ offset: z.coerce.number().int().min(0).optional(), limit: z.coerce.number().int().min(1).max(RECALL_MAX).optional() }),
    },
    responses: {
      200: json(ArchiveResponse, "The archived content, redacted"),
      401: json(ErrorBody, "Missing or wrong token"),
      404: json(ErrorBody, "No such reference in this session's archive"),
    },
  }),
  async (c) => {
    const { id, ref } = c.req.valid("param");
    const text = await sessionOf(c.env, id).archived(ref, c.req.valid("query"));
    if (text === undefined) return fail(c, 404, "not_found", `session ${id} has no archived ${normalizeRef(ref)} (never archived, or evicted)`) as never;
    return c.json({ id, ref: normalizeRef(ref), text }, 200);
  },
);

// ---- POST /v1/sessions/:id/proposals, …/proposals/:pid/accept: review before commit --------------

app.openapi(
  createRoute({
    method: "post",
    path: "/v1/sessions/{id}/proposals",
    summary: "What a compaction pass would do with the session's state (plan, handoff, messages, archive, report), applied only when accepted",
    request: {
      params: z.object({ id: SessionId.openapi({ param: { name: "id", in: "path" } }) }),
      body: { content: { "application/json": { schema: ProposalRequest } }, required: true },
    },
    responses: { 200: json(ProposalResponse, "The proposal; its mode in x-compaction-mode"), ...errors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { messages, options } = c.req.valid("json");
    const proposal = answered((await sessionOf(c.env, id).propose(messages, options)) as Outcome<ProposalAnswer>);
    return c.json(proposal as unknown as z.infer<typeof ProposalResponse>, 200, { "x-compaction-mode": proposal.report.mode });
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/v1/sessions/{id}/proposals/{pid}/accept",
    summary: "Applies a proposal to the session, its handoff as proposed or edited (redacted and checked like a model's summary)",
    request: {
      params: z.object({ id: SessionId.openapi({ param: { name: "id", in: "path" } }), pid: z.string().min(1).max(100).openapi({ param: { name: "pid", in: "path" } }) }),
      body: { content: { "application/json": { schema: AcceptRequest } }, required: false },
    },
    responses: {
      200: json(CompactResponse, "The pass applied, as POST /v1/compact answers it; its mode in x-compaction-mode"),
      ...errors,
      404: json(ErrorBody, "The session holds no such proposal"),
      409: json(ErrorBody, "The proposal expired: the session moved on since it was made (type proposal_expired)"),
    },
  }),
  async (c) => {
    const { id, pid } = c.req.valid("param");
    const { handoff } = (c.req.header("content-type") ?? "").includes("json") ? c.req.valid("json") : { handoff: undefined };
    const result = answered((await sessionOf(c.env, id).accept(pid, handoff)) as Outcome<CompactResult<unknown>>);
    return c.json(result as unknown as z.infer<typeof CompactResponse>, 200, { "x-compaction-mode": result.report.mode });
  },
);

// ---- POST /v1/chat/completions: the compacting proxy --------------------------------------------

/** Usage from an OpenAI stream (the chunk that carries it) or JSON body, for calibration. */
function openAIUsage(text: string, streamed: boolean): unknown {
  if (!streamed) return JSON.parse(text)?.usage;
  return sseData(text).reduce((usage: unknown, chunk) => (chunk as { usage?: unknown })?.usage ?? usage, undefined);
}

app.openapi(
  createRoute({
    method: "post",
    path: "/v1/chat/completions",
    summary: "OpenAI-compatible proxy: compacts `messages` when needed, forwards to the upstream, streams its answer back unchanged",
    request: {
      body: { content: { "application/json": { schema: ChatRequest } }, required: true },
      headers: z.object({ "x-session-id": SessionId.optional(), "x-context-window": z.string().optional() }),
    },
    responses: {
      200: { description: "The upstream's answer, unchanged; the compaction report in x-compaction-* headers" },
      ...errors,
      429: json(ErrorBody, "The upstream's rate limit, passed on with its Retry-After and x-ratelimit-* headers (any other upstream 4xx/5xx is passed on the same way, type `upstream_error`)"),
      502: json(ErrorBody, "No upstream, or the upstream could not be reached"),
      504: json(ErrorBody, "The upstream sent nothing for UPSTREAM_TIMEOUT_MS"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const upstream = c.env.UPSTREAM_BASE_URL;
    if (!upstream) return fail(c, 502, "no_upstream", upstreamMissing("UPSTREAM_BASE_URL"));
    const sessionId = c.req.valid("header")["x-session-id"];
    const session = await sessionKey(c.req.raw.headers, sessionId, undefined, body.messages);
    const window = windowFor(c.env, body.model, c.req.header("x-context-window"));
    const learned = session ? await sessionOf(c.env, session).learnedWindow(body.model) : undefined;
    const maxRequestBytes = requestBytesBudget(c.env, c.req.raw.headers);
    const options = (contextWindow: number, force: boolean): HttpOptions => ({ contextWindow, force, maxOutputTokens: outputReserve(body.max_completion_tokens ?? body.max_tokens, contextWindow), tools: body.tools, maxRequestBytes });
    const trim = toolOutputBudget(c.env, c.req.raw.headers);

    let sent: Sent;
    try {
      sent = await sendCompacted({
        window: Math.min(window, learned ?? window),
        compactFor: (contextWindow, force) => runCompact(c.env, body.messages, options(contextWindow, force), session, trim),
        send: (result) =>
          idleFetch(
            upstreamUrl(upstream, "/chat/completions", c.req.url),
            {
              method: "POST",
              // The client's headers pass on, but its credential: the upstream gets the worker's own key.
              headers: forwardedHeaders(c.req.raw.headers, { "content-type": "application/json", authorization: c.env.UPSTREAM_API_KEY ? `Bearer ${c.env.UPSTREAM_API_KEY}` : undefined }),
              body: JSON.stringify({ ...body, messages: result.messages }),
            },
            upstreamTimeoutMs(c.env),
            c.req.raw.signal,
          ),
        learn: session ? (tokens, note) => sessionOf(c.env, session).learnedWindow(body.model, tokens, note) : undefined,
      });
    } catch (failed) {
      return unreachable(c, failed);
    }
    const { result, res } = sent;
    const retried = Boolean(sent.retried);
    if (!res.ok) return (await upstreamError(res, retried)) as never;

    const headers = proxyHeaders(res, ["content-type", "cache-control", "x-request-id", "openai-processing-ms"], result, retried);
    const out = watchUsage(c, isStream(res, body.stream) ? cutAware(res.body!, "openai-chat") : res.body, result.session, (text) => openAIUsage(text, body.stream === true), result);
    return new Response(out, { status: res.status, headers }) as never;
  },
);

messagesRoute(app);
countTokensRoute(app);
modelsRoute(app);
responsesRoutes(app);

// ---- documents and the demo -----------------------------------------------------------------------

app.doc31("/openapi.json", {
  openapi: "3.1.0",
  info: { title: "context-compactor edge worker", version: "0.1.0", description: "Compaction of LLM transcripts at the edge: plan, compact, and compacting proxies for OpenAI Chat Completions, OpenAI Responses and Anthropic Messages clients." },
  security: [{ bearer: [] }],
});
app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });

/** The methods the API serves at `path` (its own routes, not middleware). */
function methodsAt(path: string): string[] {
  const at = (pattern: string) => new RegExp(`^${pattern.replace(/:[^/]+/g, "[^/]+")}$`).test(path);
  return [...new Set(app.routes.filter((r) => r.method !== "ALL" && at(r.path)).map((r) => r.method))];
}

app.notFound((c) => {
  if (!c.req.path.startsWith("/v1/")) return c.env.ASSETS ? c.env.ASSETS.fetch(c.req.raw) : fail(c, 404, "not_found", "no demo build");
  const allow = methodsAt(c.req.path);
  if (allow.length) return fail(c, 405, "method_not_allowed", `${c.req.method} is not served at ${c.req.path}: use ${allow.join(", ")}`, undefined, { allow: allow.join(", ") });
  return fail(c, 404, "not_found", `no route ${c.req.method} ${c.req.path}`);
});
