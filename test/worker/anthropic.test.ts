/// <reference types="vite/client" />
// POST /v1/messages inside workerd, through the real Durable Object: compaction on the way, the
// recorded Anthropic stream back byte for byte, calibration from input_tokens, Anthropic's error shape.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../workers/app.js";
import { fromOpenAI } from "../../src/convert.js";
import { SYSTEM_NOTE, type AnthropicMessage } from "../../src/index.js";
import { trajectories } from "../portable/fixtures.gen.js";
import { anthropicValidity } from "../support/validity.js";
import { CLAUDE_CODE_HEADERS, breakpoints, claudeCodeRequest, environment } from "../support/claude-code.js";
import toolUseStream from "../fixtures/sse/anthropic__sdk-tool-use.txt?raw";
import inputInDelta from "../fixtures/sse/anthropic__vercel-message-delta-input-tokens.txt?raw";
import overloadedStream from "../fixtures/sse/anthropic__sdk-ERROR-overloaded.txt?raw";

const long = fromOpenAI(trajectories.find((t) => t.name.startsWith("claude-code-spotter__4d5611e5-241a"))!.messages, "anthropic");
const short = [{ role: "user", content: "What's the weather in Paris?" }];
const upstreamEnv = { ...env, ANTHROPIC_UPSTREAM_BASE_URL: "http://anthropic.test/", ANTHROPIC_API_KEY: "sk-ant-upstream" };
const headers = { "x-api-key": "test-token", "content-type": "application/json", "anthropic-version": "2023-06-01" };

function call(body: unknown, extra: Record<string, string> = {}, bindings: object = upstreamEnv, pending: Promise<unknown>[] = []) {
  const ctx = { waitUntil: (p: Promise<unknown>) => pending.push(p), passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  return app.request("http://localhost/v1/messages", { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) }, bindings, ctx);
}

interface Sent {
  url: string;
  headers: Headers;
  body: { messages: AnthropicMessage[]; system?: unknown; max_tokens: number; stream?: boolean };
}

/** An upstream stand-in: records what it is sent, answers with `respond`. */
function upstream(respond: () => Response): Sent[] {
  const sent: Sent[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
    sent.push({ url: String(url), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
    return respond();
  });
  return sent;
}
const sse = (text: string) => () => new Response(text, { headers: { "content-type": "text/event-stream", "request-id": "req_1" } });

afterEach(() => vi.restoreAllMocks());

describe("POST /v1/messages", () => {
  it("compacts a long conversation for the upstream and streams its answer back byte for byte", async () => {
    const sent = upstream(sse(toolUseStream));
    const res = await call({ model: "claude-sonnet-4-5", max_tokens: 1024, stream: true, system: "You are a coding agent.", messages: long.messages }, { "x-context-window": "32000", "anthropic-beta": "prompt-caching-2024-07-31" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(toolUseStream);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("request-id")).toBe("req_1");
    expect(res.headers.get("x-compaction-mode")).toBe("summary");
    expect(Number(res.headers.get("x-compaction-tokens-after"))).toBeLessThan(Number(res.headers.get("x-compaction-tokens-before")) / 2);

    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe("http://anthropic.test/v1/messages");
    expect(sent[0].headers.get("x-api-key")).toBe("sk-ant-upstream");
    expect(sent[0].headers.get("anthropic-version")).toBe("2023-06-01");
    expect(sent[0].headers.get("anthropic-beta")).toBe("prompt-caching-2024-07-31");
    const { messages, system } = sent[0].body;
    expect(messages.length).toBeLessThan(long.messages.length);
    expect(anthropicValidity(messages)).toEqual([]);
    expect(JSON.stringify(messages).length).toBeLessThan(JSON.stringify(long.messages).length / 4);
    // The separate system prompt carries the note that the conversation was compacted.
    expect(system).toBe(`You are a coding agent.\n\n${SYSTEM_NOTE}`);
  });

  it("passes a short conversation through untouched, as JSON when not streamed", async () => {
    const answer = { id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text: "Sunny." }], usage: { input_tokens: 14, output_tokens: 3 } };
    const sent = upstream(() => Response.json(answer));
    const res = await call({ model: "claude-sonnet-4-5", max_tokens: 100, messages: short });
    expect(res.headers.get("x-compaction-mode")).toBe("noop");
    expect(await res.json()).toEqual(answer);
    expect(sent[0].body.messages).toEqual(short);
    expect(sent[0].body.system).toBeUndefined();
  });

  it("calibrates the session from the stream's input_tokens, message_delta's count included", async () => {
    const id = `anthropic-${crypto.randomUUID()}`;
    const pending: Promise<unknown>[] = [];
    upstream(sse(inputInDelta));
    const res = await call({ model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: short }, { "x-session-id": id }, upstreamEnv, pending);
    await res.text();
    await Promise.all(pending);
    const session = (await (await SELF.fetch(`http://localhost/v1/sessions/${id}`, { headers: { authorization: "Bearer test-token" } })).json()) as { state: { calibration?: { samples: number; ratio: number } } };
    expect(session.state.calibration?.samples).toBe(1);
  });

  it("passes an error the upstream streams (status 200, event: error) through unchanged", async () => {
    upstream(sse(overloadedStream));
    const res = await call({ model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: short });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(overloadedStream);
  });

  it("answers the OpenAPI document with the route", async () => {
    const doc = (await (await SELF.fetch("http://localhost/openapi.json")).json()) as { paths: Record<string, { post?: { responses: Record<string, unknown> } }> };
    expect(Object.keys(doc.paths["/v1/messages"].post!.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "502", "504"]));
  });
});

describe("POST /v1/messages errors, in Anthropic's shape", () => {
  it("names the missing field", async () => {
    const res = await call({ model: "claude-sonnet-4-5", messages: short });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.error.message).toMatch(/max_tokens/);
  });

  it("refuses a body nested too deep with a 400 naming where, not a 500", async () => {
    const depth = 490_000;
    const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    for (const where of [`"messages":[{"role":"user","content":[{"type":"mystery","v":${nested}}]}]`, `"messages":[{"role":"user","content":"hi"}],"metadata":${nested}`]) {
      const res = await app.request("http://localhost/v1/messages", { method: "POST", headers, body: `{"model":"m","max_tokens":1,${where}}` }, upstreamEnv);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: expect.stringMatching(/(messages\.0|metadata): nested deeper than \d+ levels/) } });
    }
  });

  it("says so when the body is not JSON", async () => {
    const res = await app.request("http://localhost/v1/messages", { method: "POST", headers, body: '{"model": "m", ' }, upstreamEnv);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.error.message).toMatch(/JSON/);
  });

  it("names the message index and the problem of a malformed transcript", async () => {
    upstream(sse(toolUseStream));
    const res = await call({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [...short, { role: "tool", content: "x" }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.error.message).toMatch(/1.*role must be "user", "assistant" or "system"/);
  });

  it("refuses a wrong key, and takes the token as x-api-key or bearer", async () => {
    const wrong = await call({ model: "m", max_tokens: 1, messages: short }, { "x-api-key": "nope" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    upstream(() => Response.json({ content: [] }));
    const bearer = await call({ model: "m", max_tokens: 1, messages: short }, { "x-api-key": "", authorization: "Bearer test-token" });
    expect(bearer.status).toBe(200);
  });

  it("passes an upstream error on with its status and type, its message redacted", async () => {
    const leaked = "sk-ant-api03-" + "abcdefghij0123456789".repeat(4);
    upstream(() => Response.json({ type: "error", error: { type: "overloaded_error", message: `Overloaded (key ${leaked})` } }, { status: 529 }));
    const res = await call({ model: "m", max_tokens: 1, messages: short });
    expect(res.status).toBe(529);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
    expect(body.error.message).toMatch(/^upstream answered 529: Overloaded/);
    expect(body.error.message).not.toContain(leaked.slice(13));
  });

  it("passes the upstream's back-off headers on with its 429", async () => {
    upstream(() => Response.json({ type: "error", error: { type: "rate_limit_error", message: "slow down" } }, { status: 429, headers: { "retry-after": "12", "anthropic-ratelimit-requests-remaining": "0", "request-id": "req_9", "x-other": "no" } }));
    const res = await call({ model: "m", max_tokens: 1, messages: short });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("12");
    expect(res.headers.get("anthropic-ratelimit-requests-remaining")).toBe("0");
    expect(res.headers.get("request-id")).toBe("req_9");
    expect(res.headers.get("x-other")).toBeNull();
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error", message: "upstream answered 429: slow down" } });
  });

  it("caps a long upstream error message after redaction", async () => {
    upstream(() => new Response("x".repeat(5000), { status: 500 }));
    const body = (await (await call({ model: "m", max_tokens: 1, messages: short })).json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("api_error");
    expect(body.error.message.length).toBeLessThan(600);
  });

  it("answers 504 when the upstream does not answer within UPSTREAM_TIMEOUT_MS", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation((_url, init) => new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("aborted")))));
    const res = await call({ model: "m", max_tokens: 1, messages: short }, {}, { ...upstreamEnv, UPSTREAM_TIMEOUT_MS: "20" });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "timeout_error", message: "the upstream sent nothing for 20 ms" } });
  });

  it("answers 502 without an upstream, or when it cannot be reached", async () => {
    const none = await call({ model: "m", max_tokens: 1, messages: short }, {}, env);
    expect(none.status).toBe(502);
    expect(await none.json()).toMatchObject({ type: "error", error: { type: "api_error", message: expect.stringMatching(/^ANTHROPIC_UPSTREAM_BASE_URL is not configured: .*Set it \(https:\/\/api\.anthropic\.com\) in \.dev\.vars for `npm start` \(see \.dev\.vars\.example\), or under \[vars\] in wrangler\.toml/) } });
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("connection refused"));
    const down = await call({ model: "m", max_tokens: 1, messages: short });
    expect(down.status).toBe(502);
    expect(((await down.json()) as { error: { message: string } }).error.message).toMatch(/connection refused/);
  });

  it("refuses a body over the limit as request_too_large", async () => {
    const res = await call({ model: "m", max_tokens: 1, messages: [{ role: "user", content: "x".repeat(2_100_000) }] });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "request_too_large" } });
  });

  it("leaves the other routes' error format as it was", async () => {
    const res = await SELF.fetch("http://localhost/v1/plan", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(await res.json()).toMatchObject({ error: { type: "unauthorized" } });
  });
});

// ---- Claude Code's wire: what the real client sends, as it sends it ---------------------------------

function callAt(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> }, bindings: object = upstreamEnv, pending: Promise<unknown>[] = []) {
  const ctx = { waitUntil: (p: Promise<unknown>) => pending.push(p), passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return app.request(`http://localhost${path}`, { method: init.method ?? "POST", headers: { ...headers, ...init.headers }, body }, bindings, ctx);
}

/** An upstream that answers each call with the next of `answers` (the last one repeats), recording what it is sent. */
function upstreamSequence(...answers: (() => Response)[]): Sent[] {
  const sent: Sent[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
    sent.push({ url: String(url), headers: new Headers(init?.headers), body: init?.body ? JSON.parse(String(init.body)) : undefined } as Sent);
    return answers[Math.min(sent.length, answers.length) - 1]();
  });
  return sent;
}

describe("Claude Code's wire", () => {
  const clientOnly = { authorization: "Bearer test-token", cookie: "session=abc", connection: "keep-alive, x-hop", "x-hop": "1", "keep-alive": "timeout=5", "x-context-window": "16000" };

  it("accepts its default model's request (a system message at messages[1]) and forwards its query and headers, never its credentials", async () => {
    const req = claudeCodeRequest(60, { outputChars: 200 });
    const sent = upstream(sse(toolUseStream));
    const res = await callAt("/v1/messages?beta=true", { body: req, headers: { ...CLAUDE_CODE_HEADERS, ...clientOnly, "x-session-id": `cc-${crypto.randomUUID()}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(toolUseStream);
    expect(res.headers.get("x-compaction-mode")).toBe("summary");

    expect(sent[0].url).toBe("http://anthropic.test/v1/messages?beta=true");
    for (const [k, v] of Object.entries(CLAUDE_CODE_HEADERS)) expect(sent[0].headers.get(k), k).toBe(v);
    expect(sent[0].headers.get("x-api-key")).toBe("sk-ant-upstream");
    for (const k of ["authorization", "cookie", "connection", "keep-alive", "x-hop", "x-session-id", "x-context-window", "host", "content-length"]) expect(sent[0].headers.get(k), k).toBeNull();

    const out = sent[0].body;
    expect(anthropicValidity(out.messages)).toEqual([]);
    expect(out.messages[1]).toEqual(environment);
    // Kept blocks byte for byte: every thinking block sent, signature and all, is one of the input's.
    const blocksOf = (ms: AnthropicMessage[]) => ms.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
    const input = new Set(blocksOf(req.messages).map((b) => JSON.stringify(b)));
    const thinking = blocksOf(out.messages).filter((b) => b.type === "thinking" || b.type === "redacted_thinking");
    expect(thinking.length).toBeGreaterThan(0);
    for (const b of thinking) expect(input.has(JSON.stringify(b))).toBe(true);
    // The last message, with Claude Code's rolling breakpoint, goes as it came.
    expect(JSON.stringify(out.messages.at(-1))).toBe(JSON.stringify(req.messages.at(-1)));
    expect(breakpoints({ system: out.system, tools: (out as { tools?: unknown }).tools, messages: out.messages })).toBeLessThanOrEqual(4);
    expect((out as { thinking?: unknown }).thinking).toEqual(req.thinking);
    expect((out as { metadata?: unknown }).metadata).toEqual(req.metadata);
  });

  it("forwards count_tokens with its query, answered in Anthropic's shape", async () => {
    const req = claudeCodeRequest(60, { outputChars: 200 });
    const { max_tokens: _, stream: __, ...count } = req;
    const sent = upstream(() => Response.json({ input_tokens: 12_345 }, { headers: { "request-id": "req_c" } }));
    const res = await callAt("/v1/messages/count_tokens?beta=true", { body: count, headers: { ...CLAUDE_CODE_HEADERS, "x-context-window": "8000" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ input_tokens: 12_345 });
    expect(res.headers.get("request-id")).toBe("req_c");
    expect(sent[0].url).toBe("http://anthropic.test/v1/messages/count_tokens?beta=true");
    expect(sent[0].headers.get("anthropic-beta")).toBe(CLAUDE_CODE_HEADERS["anthropic-beta"]);
    // It counts what /v1/messages would send: the compacted request.
    expect(res.headers.get("x-compaction-mode")).toBe("summary");
    expect(sent[0].body.messages.length).toBeLessThan(req.messages.length);
  });

  it("answers count_tokens with its own estimate when the upstream has no such route, and errors in Anthropic's shape", async () => {
    upstream(() => Response.json({ error: { message: "Not Found" } }, { status: 404 }));
    const res = await callAt("/v1/messages/count_tokens", { body: { model: "claude-opus-5-5", messages: short } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-count-source")).toBe("estimate");
    const { input_tokens } = (await res.json()) as { input_tokens: number };
    expect(input_tokens).toBeGreaterThan(0);
    const bad = await callAt("/v1/messages/count_tokens", { body: { model: "m" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: expect.stringMatching(/messages/) } });
  });

  it("passes GET /v1/models through to the Anthropic upstream, query and all", async () => {
    const list = { data: [{ id: "claude-opus-5-5", type: "model" }], has_more: false };
    const sent = upstreamSequence(() => Response.json(list));
    const res = await callAt("/v1/models?limit=1000", { method: "GET", headers: CLAUDE_CODE_HEADERS });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(list);
    expect(sent[0].url).toBe("http://anthropic.test/v1/models?limit=1000");
    expect(sent[0].headers.get("x-api-key")).toBe("sk-ant-upstream");
    const none = await callAt("/v1/models", { method: "GET", headers: CLAUDE_CODE_HEADERS }, env);
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
  });

  it("a stream the upstream leaves silent ends with an error event, never a clean message_stop", async () => {
    const head = toolUseStream.slice(0, toolUseStream.indexOf("event: content_block_delta"));
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(head)) }); // then nothing
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const res = await call({ model: "claude-opus-5-5", max_tokens: 100, stream: true, messages: short }, {}, { ...upstreamEnv, UPSTREAM_TIMEOUT_MS: "30" });
    const text = await res.text();
    expect(text.startsWith(head)).toBe(true);
    expect(text).not.toContain("message_stop");
    expect(text.slice(head.length)).toMatch(/^\n*event: error\ndata: (.*)\n\n$/);
    const data = JSON.parse(/data: (.*)\n\n$/.exec(text)![1]);
    expect(data).toEqual({ type: "error", error: { type: "overloaded_error", message: expect.stringMatching(/cut.*30 ms/) } });
  });
});

describe("a provider's overflow error", () => {
  const tooLong = (counted: number, limit: number) => () =>
    Response.json({ type: "error", error: { type: "invalid_request_error", message: `prompt is too long: ${counted} tokens > ${limit} maximum` } }, { status: 400 });

  it("triggers one compaction for the limit it states and one retry, reported; the session learns the limit", async () => {
    const id = `overflow-${crypto.randomUUID()}`;
    const req = claudeCodeRequest(60, { outputChars: 200 });
    const sent = upstreamSequence(tooLong(60_000, 20_000), sse(toolUseStream));
    const res = await call({ ...req, model: "claude-haiku-4-5" }, { "x-session-id": id });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(toolUseStream);
    expect(res.headers.get("x-compaction-retried")).toBe("overflow");
    expect(res.headers.get("x-compaction-mode")).not.toBe("noop");
    expect(sent).toHaveLength(2);
    expect(JSON.stringify(sent[1].body).length).toBeLessThan(JSON.stringify(sent[0].body).length);
    expect(anthropicValidity(sent[1].body.messages)).toEqual([]);
    // The session's report says why it compacted again, and the session knows the limit from now on.
    const session = (await (await SELF.fetch(`http://localhost/v1/sessions/${id}`, { headers: { authorization: "Bearer test-token" } })).json()) as { reports: { mode: string; warnings: string[] }[] };
    expect(session.reports.map((r) => r.mode)).toEqual([expect.stringMatching(/summary|prune/), "overflow", expect.stringMatching(/noop|summary|prune/)].slice(0, session.reports.length));
    expect(session.reports[1]).toMatchObject({ mode: "overflow", model: "claude-haiku-4-5", window: 20_000 });
    expect(session.reports[1].warnings[0]).toMatch(/refused the request as over its context window \(60000 tokens > 20000\)/);
    expect(await env.SESSIONS.get(env.SESSIONS.idFromName(id)).learnedWindow("claude-haiku-4-5")).toBe(20_000);

    const next = upstreamSequence(sse(toolUseStream));
    const again = await call({ ...req, model: "claude-haiku-4-5" }, { "x-session-id": id });
    await again.text();
    expect(next).toHaveLength(1); // compacted for the learned window at once
    expect(again.headers.get("x-compaction-retried")).toBeNull();
  });

  it("retries once only, and passes the second refusal on", async () => {
    const sent = upstreamSequence(tooLong(300_000, 200_000));
    const res = await call({ model: "claude-haiku-4-5", max_tokens: 100, messages: short });
    expect(sent).toHaveLength(2);
    expect(res.status).toBe(400);
    expect(res.headers.get("x-compaction-retried")).toBe("overflow");
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: expect.stringMatching(/prompt is too long/) } });
  });

  it("leaves any other 400 alone", async () => {
    const sent = upstreamSequence(() => Response.json({ type: "error", error: { type: "invalid_request_error", message: "messages.1: tool_use ids must be unique" } }, { status: 400 }));
    const res = await call({ model: "claude-haiku-4-5", max_tokens: 100, messages: short });
    expect(sent).toHaveLength(1);
    expect(res.status).toBe(400);
    expect(res.headers.get("x-compaction-retried")).toBeNull();
  });
});
