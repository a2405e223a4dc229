// POST /v1/responses: the compacting proxy for OpenAI Responses API clients (Codex, the Agents SDK,
// `client.responses.create`). Compacts `input` with the Responses dialect, `instructions` counted as
// the system prompt and given the note; forwards to UPSTREAM_BASE_URL/responses; JSON and SSE answers
// come back unchanged. A request continuing a stored response (`previous_response_id`), and the
// other /v1/responses endpoints, are forwarded untouched.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { windowFor, type Env } from "./env.js";
import { ErrorAnswer, errorData, fail, upstreamMissing } from "./errors.js";
import { SendFailed, outputReserve, sendCompacted, type Sent } from "./overflow.js";
import { requestBytesBudget, toolOutputBudget } from "./trim.js";
import { isStream, proxyHeaders, runCompact, sessionKey, sessionOf, sseData, unreachable, upstreamError, watchUsage, type ProxyResult } from "./proxy.js";
import { ErrorBody, ResponsesRequest, SessionId } from "./schemas.js";
import { cutAware, idleFetch, upstreamTimeoutMs } from "./upstream.js";
import { forwardedHeaders, upstreamUrl } from "./wire.js";

type App = { Bindings: Env };

const KEEP = ["content-type", "cache-control", "x-request-id", "openai-processing-ms"];

/** Provider usage from a Responses answer: the body's, or the last stream event's `response.usage` (response.completed). */
function responsesUsage(text: string, streamed: boolean): unknown {
  if (!streamed) return JSON.parse(text)?.usage;
  return sseData(text).reduce((usage: unknown, e) => (e as { response?: { usage?: unknown } })?.response?.usage ?? usage, undefined);
}

/**
 * A compaction input error named by `input` index: the instructions went first as item 0 when
 * `shift` is 1, so messages[k] is input[k - shift].
 */
function asInputError(err: unknown, shift: number): unknown {
  const e = errorData(err);
  if (e.type !== "invalid_messages") return err;
  const rename = (s: string) => s.replace(/^messages(?:\[(\d+)\]|\.(\d+))?/, (_, a?: string, b?: string) => {
    const k = a ?? b;
    return k === undefined ? "input" : a !== undefined ? `input[${Number(k) - shift}]` : `input.${Number(k) - shift}`;
  });
  return new ErrorAnswer({ ...e, message: rename(e.message), issues: e.issues?.map((i) => ({ ...i, path: rename(i.path) })) });
}

/** The report as the client counts: without the instructions item compaction read first. */
function withoutInstructions(r: ProxyResult, shift: number): ProxyResult {
  if (!shift) return r;
  const { report } = r;
  // 0 stays 0: the instructions took the note, the first change of the request.
  const first = report.firstChangedIndex > 0 ? report.firstChangedIndex - shift : report.firstChangedIndex;
  return { ...r, report: { ...report, messagesBefore: report.messagesBefore - shift, messagesAfter: report.messagesAfter - shift, firstChangedIndex: first } };
}

/** The upstream call and its failures, in the worker's (OpenAI's) error shape. */
async function forward(c: Context<App>, url: string, init: RequestInit): Promise<Response> {
  try {
    const res = await idleFetch(url, init, upstreamTimeoutMs(c.env), c.req.raw.signal);
    return res.ok ? res : await upstreamError(res);
  } catch (err) {
    return unreachable(c, new SendFailed(err));
  }
}

const upstreamOf = (env: Env) => env.UPSTREAM_BASE_URL?.replace(/\/+$/, "");
const authHeaders = (env: Env): Record<string, string> => (env.UPSTREAM_API_KEY ? { authorization: `Bearer ${env.UPSTREAM_API_KEY}` } : {});
const noUpstream = (c: Context<App>) => fail(c, 502, "no_upstream", upstreamMissing("UPSTREAM_BASE_URL"));

/** An answer forwarded as it came: status, body and the headers worth keeping (a passthrough route). */
function relayed(res: Response, extra?: Headers): Response {
  if (!res.ok || !res.body) return res;
  const headers = extra ?? new Headers();
  for (const k of KEEP) {
    const v = res.headers.get(k);
    if (v && !headers.has(k)) headers.set(k, v);
  }
  return new Response(res.body, { status: res.status, headers });
}

/** The request's path and query under the upstream base, for the endpoints passed through untouched. */
async function passThrough(c: Context<App>, method: string): Promise<Response> {
  const upstream = upstreamOf(c.env);
  if (!upstream) return noUpstream(c);
  const url = new URL(c.req.url);
  const body = method === "GET" || method === "DELETE" ? undefined : await c.req.text();
  const headers = { ...authHeaders(c.env), ...(body === undefined ? {} : { "content-type": c.req.header("content-type") ?? "application/json" }) };
  return relayed(await forward(c, `${upstream}${url.pathname.replace(/^\/v1/, "")}${url.search}`, { method, headers, body }));
}

const json = (description: string) => ({ content: { "application/json": { schema: ErrorBody } }, description });
const passed = { 200: { description: "The upstream's answer, unchanged" }, 401: json("Missing or wrong token"), 502: json("No upstream, or the upstream could not be reached") };

export function responsesRoutes(app: OpenAPIHono<App>): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/responses",
      summary: "OpenAI Responses API proxy: compacts `input` when needed, forwards to the upstream, streams its answer back unchanged",
      description:
        "`instructions` is the system prompt (counted; given the compaction note when a handoff is written). Every other field " +
        "(`tools`, `store`, `include`, `reasoning`, `context_management`, …) is forwarded untouched. A request with " +
        "`previous_response_id` or `conversation` (the server holds the history), or a string `input`, is forwarded untouched with `x-compaction-mode: skipped`.",
      request: {
        body: { content: { "application/json": { schema: ResponsesRequest } }, required: true },
        headers: z.object({ "x-session-id": SessionId.optional(), "x-context-window": z.string().optional() }),
      },
      responses: {
        200: { description: "The upstream's answer, unchanged (JSON, or SSE with stream: true); the compaction report in x-compaction-* headers" },
        400: json("Invalid input (a bad item is named by its index in `input`)"),
        401: json("Missing or wrong token"),
        413: json("Body too large"),
        502: json("No upstream, or the upstream could not be reached"),
        504: json("The upstream sent nothing for UPSTREAM_TIMEOUT_MS"),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const upstream = upstreamOf(c.env);
      if (!upstream) return noUpstream(c) as never;
      // The client's headers pass on, but its credential: the upstream gets the worker's own key.
      const init = (payload: string): RequestInit => ({ method: "POST", headers: forwardedHeaders(c.req.raw.headers, { "content-type": "application/json", authorization: c.env.UPSTREAM_API_KEY ? `Bearer ${c.env.UPSTREAM_API_KEY}` : undefined }), body: payload });
      const asSent = () => c.req.text(); // the body as the client wrote it

      // The server holds the history (or there is none to compact): forwarded as it came.
      if (body.previous_response_id || body.conversation || !Array.isArray(body.input)) {
        const res = await forward(c, `${upstream}/responses`, init(await asSent()));
        return relayed(res, new Headers({ "x-compaction-mode": "skipped" })) as never;
      }

      const sessionId = c.req.valid("header")["x-session-id"];
      const instructions = typeof body.instructions === "string" && body.instructions ? body.instructions : undefined;
      const shift = instructions === undefined ? 0 : 1;
      // The instructions go first as a system message: counted, kept in the head, noted once.
      const items = shift ? [{ role: "system", content: instructions }, ...body.input] : body.input;
      const session = await sessionKey(c.req.raw.headers, sessionId, instructions, body.input);
      const model = body.model ?? "";
      const window = windowFor(c.env, model, c.req.header("x-context-window"));
      const learned = session ? await sessionOf(c.env, session).learnedWindow(model) : undefined;
      const maxRequestBytes = requestBytesBudget(c.env, c.req.raw.headers);
      const options = (contextWindow: number, force: boolean) => ({
        contextWindow,
        force,
        maxOutputTokens: outputReserve(body.max_output_tokens ?? undefined, contextWindow),
        tools: body.tools,
        dialect: "openai-responses" as const,
        maxRequestBytes,
      });
      const trim = toolOutputBudget(c.env, c.req.raw.headers);
      const payload = async (result: ProxyResult) =>
        (result.report.mode === "noop" || result.report.mode === "aborted" || result.report.mode === "stalled") && !result.trimmed
          ? await asSent()
          : JSON.stringify({ ...body, input: result.messages.slice(shift), ...(shift ? { instructions: (result.messages[0] as { content: string }).content } : {}) });

      let sent: Sent;
      try {
        sent = await sendCompacted({
          window: Math.min(window, learned ?? window),
          compactFor: (contextWindow, force) => runCompact(c.env, items, options(contextWindow, force), session, trim).catch((err: unknown) => Promise.reject(asInputError(err, shift))),
          send: async (result) => idleFetch(upstreamUrl(upstream, "/responses", c.req.url), init(await payload(result)), upstreamTimeoutMs(c.env), c.req.raw.signal),
          learn: session ? (tokens, note) => sessionOf(c.env, session).learnedWindow(model, tokens, note) : undefined,
        });
      } catch (failed) {
        return unreachable(c, failed) as never;
      }
      const { result, res } = sent;
      const retried = Boolean(sent.retried);
      if (!res.ok) return (await upstreamError(res, retried)) as never;
      const headers = proxyHeaders(res, KEEP, withoutInstructions(result, shift), retried);
      const streamed = isStream(res);
      const out = watchUsage(c, streamed ? cutAware(res.body!, "responses") : res.body, result.session, (text) => responsesUsage(text, streamed), result);
      return new Response(out, { status: res.status, headers }) as never;
    },
  );

  // Compaction by the provider itself (its encrypted `compaction` item), and the stored responses: untouched.
  app.openapi(
    createRoute({ method: "post", path: "/v1/responses/compact", summary: "Passed through to the upstream untouched (the provider's own compaction)", responses: passed }),
    (c) => passThrough(c, "POST") as never,
  );
  const id = z.object({ id: z.string().min(1).openapi({ param: { name: "id", in: "path" } }) });
  app.openapi(
    createRoute({ method: "get", path: "/v1/responses/{id}", summary: "A stored response, passed through to the upstream", request: { params: id }, responses: passed }),
    (c) => passThrough(c, "GET") as never,
  );
  app.openapi(
    createRoute({ method: "delete", path: "/v1/responses/{id}", summary: "Deletes a stored response at the upstream", request: { params: id }, responses: passed }),
    (c) => passThrough(c, "DELETE") as never,
  );
  // The rest of the Responses API a client may call, undocumented here: the provider documents them.
  app.post("/v1/responses/input_tokens", (c) => passThrough(c, "POST"));
  app.post("/v1/responses/:id/cancel", (c) => passThrough(c, "POST"));
  app.get("/v1/responses/:id/input_items", (c) => passThrough(c, "GET"));
}
