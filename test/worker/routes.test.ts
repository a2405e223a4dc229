// Every route of the worker, inside workerd, through the real Durable Object and assets bindings.
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../workers/app.js";
import { ARCHIVE_CAP, type SessionObject } from "../../workers/session.js";
import { windowFor } from "../../workers/env.js";
import { trajectories } from "../portable/fixtures.gen.js";

const auth = { authorization: "Bearer test-token", "content-type": "application/json" };
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch(`http://localhost${path}`, { method: "POST", headers: { ...auth, ...headers }, body: JSON.stringify(body) });
const big = trajectories.find((t) => t.name.startsWith("claude-code-spotter__4d5611e5-241a"))!.messages;
const small = trajectories.find((t) => t.name === "swe-agent__gpt4_default__pydicom-1458")!.messages;

afterEach(() => vi.restoreAllMocks());

describe("auth", () => {
  it("rejects a missing or wrong bearer token when API_TOKEN is set", async () => {
    const body = JSON.stringify({ messages: [], options: { contextWindow: 1000 } });
    const none = await SELF.fetch("http://localhost/v1/plan", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { type: "unauthorized" } });
    const wrong = await SELF.fetch("http://localhost/v1/plan", { method: "POST", body, headers: { ...auth, authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
  });

  it("without API_TOKEN serves only local development requests, and says so", async () => {
    const open = { ...env, API_TOKEN: undefined };
    const body = JSON.stringify({ messages: [], options: { contextWindow: 1000 } });
    const init = { method: "POST", body, headers: { "content-type": "application/json" } };
    const local = await app.request("http://127.0.0.1:8787/v1/plan", init, open);
    expect(local.status).toBe(200);
    expect(local.headers.get("x-context-compactor-warning")).toMatch(/API_TOKEN is not set/);
    const remote = await app.request("https://compactor.example.com/v1/plan", init, open);
    expect(remote.status).toBe(401);
    expect(((await remote.json()) as { error: { message: string } }).error.message).toMatch(/API_TOKEN is not set/);
  });
});

describe("POST /v1/plan", () => {
  it("plans a real transcript", async () => {
    const res = await post("/v1/plan", { messages: big, options: { contextWindow: 32000 } });
    expect(res.status).toBe(200);
    const p = (await res.json()) as { shouldCompact: boolean; tokens: { total: number } };
    expect(p.shouldCompact).toBe(true);
    expect(p.tokens.total).toBeGreaterThan(100_000);
  });

  it("answers 400 naming each bad field", async () => {
    const res = await post("/v1/plan", { messages: "nope", options: { contextWindow: 0, extra: 1 } });
    expect(res.status).toBe(400);
    const e = (await res.json()) as { error: { type: string; issues: { path: string }[] } };
    expect(e.error.type).toBe("invalid_request");
    expect(e.error.issues.map((i) => i.path).sort()).toEqual(["messages", "options", "options.contextWindow"]);
  });

  it("answers 400 naming the message index for a bad message", async () => {
    const res = await post("/v1/plan", { messages: [{ role: "user", content: "x" }, { role: "tool", content: "y" }], options: { contextWindow: 1000 } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: "invalid_messages", message: expect.stringMatching(/^messages\[1\]: tool_call_id/) } });
  });

  it("answers 413 for a body over the limit", async () => {
    const res = await post("/v1/plan", { messages: [{ role: "user", content: "x".repeat(2_100_000) }], options: { contextWindow: 1000 } });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { type: "body_too_large" } });
  });
});

describe("POST /v1/compact", () => {
  it("compacts and returns the result as JSON", async () => {
    const res = await post("/v1/compact", { messages: big, options: { contextWindow: 32000 } });
    expect(res.status).toBe(200);
    const r = (await res.json()) as { report: { mode: string; tokensAfter: number }; messages: unknown[] };
    expect(r.report.mode).toBe("summary");
    expect(r.report.tokensAfter).toBeLessThan(24000);
  });

  it("streams progress as SSE, then the result", async () => {
    const res = await post("/v1/compact", { messages: big, options: { contextWindow: 32000 } }, { accept: "text/event-stream" });
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const text = await res.text();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("plan");
    expect(events).toContain("summary-delta");
    expect(events.at(-1)).toBe("result");
  });

  it("keeps state per session in its Durable Object, and never loses an update under concurrency", async () => {
    const id = `s-${crypto.randomUUID()}`;
    const body = { messages: big, options: { contextWindow: 32000 }, sessionId: id };
    const [a, b] = await Promise.all([post("/v1/compact", body), post("/v1/compact", body)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const session = (await (await SELF.fetch(`http://localhost/v1/sessions/${id}`, { headers: auth })).json()) as { state: { compactions: number; previousSummary: string }; reports: unknown[] };
    expect(session.state.compactions).toBe(2);
    expect(session.reports).toHaveLength(2);
    expect(session.state.previousSummary).toMatch(/## Active task/);
  });
});

describe("GET /v1/sessions/:id/archive/:ref", () => {
  it("serves what a session's compaction removed, by the reference its handoff cites, in pieces", async () => {
    const id = `s-${crypto.randomUUID()}`;
    const r = (await (await post("/v1/compact", { messages: big, options: { contextWindow: 32000 }, sessionId: id })).json()) as { messages: { content: unknown }[]; archive: Record<string, unknown> };
    const handoff = JSON.stringify(r.messages);
    const ref = /#(\d+)/.exec(handoff.slice(handoff.indexOf("## Completed actions")))![1];
    const get = (path: string) => SELF.fetch(`http://localhost/v1/sessions/${id}/archive/${path}`, { headers: auth });
    const whole = (await (await get(ref)).json()) as { ref: string; text: string };
    expect(whole.ref).toBe(`#${ref}`);
    expect(whole.text.startsWith(`#${ref} `)).toBe(true);
    expect(Object.keys(r.archive)).toContain(`#${ref}`);
    expect(((await (await get(`%23${ref}`)).json()) as { text: string }).text).toBe(whole.text);
    const piece = (await (await get(`${ref}?offset=0&limit=5`)).json()) as { text: string };
    expect(piece.text).toMatch(new RegExp(`^#${ref} .*\n\\[characters 0–5 of \\d+`));
    const missing = await get("999999");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { type: "not_found" } });
    expect((await get("not-a-ref")).status).toBe(400);
  });

  it("keeps each session's archive under its cap, evicting the oldest entries", async () => {
    const id = `s-${crypto.randomUUID()}`;
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(id));
    await runInDurableObject(stub, async (instance: SessionObject, state) => {
      const entry = (n: number) => ({ role: "tool", results: ["x".repeat(n)] });
      const keep = (instance as unknown as { keepArchive(a: unknown): { skipped: string[]; evicted: string[] } }).keepArchive.bind(instance);
      // 1.5 MB entries: thirteen fit the 20 MB cap, a fourteenth evicts the oldest; a row over 1.9 MB is refused.
      const many = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`#${i}`, entry(ARCHIVE_CAP / 13.3)]));
      expect(keep(many)).toEqual({ skipped: [], evicted: ["#0"] });
      expect(keep({ "#1.5": entry(2_000_000) })).toEqual({ skipped: ["#1.5"], evicted: [] });
      // The row limit is in bytes: 700k CJK characters are 2.1 MB of UTF-8, refused, not a failed INSERT.
      expect(keep({ "#1.6": entry(0), "#1.7": { role: "tool", results: ["字".repeat(700_000)] } })).toEqual({ skipped: ["#1.7"], evicted: [] });
      const refs = state.storage.sql.exec<{ ref: string }>("SELECT ref FROM archive ORDER BY id").toArray().map((x) => x.ref);
      expect(refs).toEqual([...Array.from({ length: 13 }, (_, i) => `#${i + 1}`), "#1.6"]); // #0, the oldest, went first
      expect(await instance.archived("13", { limit: 10 })).toMatch(/^#13 tool\n/);
    });
  });
});

describe("POST /v1/chat/completions", () => {
  const upstreamEnv = { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1", UPSTREAM_API_KEY: "sk-upstream" };
  const request = (body: unknown, headers: Record<string, string> = {}) =>
    app.request("http://localhost/v1/chat/completions", { method: "POST", headers: { ...auth, ...headers }, body: JSON.stringify(body) }, upstreamEnv, { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext);

  it("compacts a long conversation on the way and streams the upstream answer back unchanged", async () => {
    const sse = 'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    let sent: { url: string; auth: string | null; body: { messages: unknown[] } } | undefined;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
      sent = { url: String(url), auth: new Headers(init?.headers).get("authorization"), body: JSON.parse(String(init?.body)) };
      return new Response(sse, { headers: { "content-type": "text/event-stream" } });
    });
    const res = await request({ model: "gpt-4o", stream: true, messages: big }, { "x-context-window": "32000" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(sse);
    expect(res.headers.get("x-compaction-mode")).toBe("summary");
    expect(Number(res.headers.get("x-compaction-tokens-after"))).toBeLessThan(Number(res.headers.get("x-compaction-tokens-before")));
    expect(sent!.url).toBe("http://upstream.test/v1/chat/completions");
    expect(sent!.auth).toBe("Bearer sk-upstream");
    expect(sent!.body.messages.length).toBeLessThan(big.length);
  });

  it("observes the upstream's usage to calibrate the session", async () => {
    const id = `cal-${crypto.randomUUID()}`;
    const pending: Promise<unknown>[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }], usage: { prompt_tokens: 30_000 } }),
    );
    const ctx = { waitUntil: (p: Promise<unknown>) => pending.push(p), passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const res = await app.request(
      "http://localhost/v1/chat/completions",
      { method: "POST", headers: { ...auth, "x-session-id": id }, body: JSON.stringify({ model: "gpt-4o", messages: small }) },
      upstreamEnv,
      ctx,
    );
    expect(res.status).toBe(200);
    await res.text();
    await Promise.all(pending);
    const session = (await (await SELF.fetch(`http://localhost/v1/sessions/${id}`, { headers: auth })).json()) as { state: { calibration?: { ratio: number; samples: number } } };
    expect(session.state.calibration?.samples).toBe(1);
    expect(session.state.calibration?.ratio).toBeGreaterThan(1); // the provider counted more than the estimate
  });

  it("calibrates against the estimate of the request the usage answers, even after the next one compacted", async () => {
    const id = `race-${crypto.randomUUID()}`;
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(id));
    await runInDurableObject(stub, async (instance: SessionObject) => {
      const first = (await instance.compact(small, { contextWindow: 128_000 })) as { result: { report: { tokensAfter: number } } };
      await instance.compact(big, { contextWindow: 400_000 }); // the agent's next request, before the first answer's usage arrives
      const estimate = first.result.report.tokensAfter;
      await instance.observeUsage({ prompt_tokens: Math.round(estimate * 1.2) }, estimate);
      expect((await instance.snapshot()).state?.calibration?.ratio).toBeCloseTo(1.2, 2);
    });
  });

  it("shrinks a newest tool output that alone would overflow the window, and says so in x-compaction-shrunk", async () => {
    let sent: { messages: { content: unknown }[] } | undefined;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
      sent = JSON.parse(String(init?.body));
      return Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }] });
    });
    const output = `${Array.from({ length: 6000 }, (_, i) => `line ${i}: some build output`).join("\n")}\nerror: the build failed`;
    const messages = [
      { role: "user", content: "Build it" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "Bash", arguments: '{"command":"make"}' } }] },
      { role: "tool", tool_call_id: "c1", content: output },
    ];
    const res = await request({ model: "gpt-4o", messages }, { "x-context-window": "20000" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-compaction-shrunk")).toBe("1");
    const last = String(sent!.messages.at(-1)!.content);
    expect(last.length).toBeLessThan(output.length / 2);
    expect(last).toContain("error: the build failed");
  });

  it("passes a small conversation through untouched", async () => {
    let sent: unknown[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
      sent = JSON.parse(String(init?.body)).messages;
      return Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }], usage: { prompt_tokens: 10 } });
    });
    const res = await request({ model: "gpt-4o", messages: small });
    expect(res.headers.get("x-compaction-mode")).toBe("noop");
    expect(sent).toEqual(small);
  });

  it("passes an upstream failure on with its status, code and back-off headers, so a client's retry logic works", async () => {
    const headers = { "retry-after": "7", "x-ratelimit-remaining-requests": "0", "x-request-id": "req_1", "set-cookie": "a=b", "x-internal": "no" };
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { status: 429, headers }));
    const res = await request({ model: "gpt-4o", messages: small });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    expect(res.headers.get("x-request-id")).toBe("req_1");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("x-internal")).toBeNull();
    expect(await res.json()).toEqual({ error: { type: "upstream_error", message: "upstream answered 429: Rate limit reached", status: 429, code: "rate_limit_exceeded" } });
  });

  it("passes a server error's status on, and keeps free text out of the error code", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ error: { message: "boom", code: "not an identifier: sk-live-3f9a2c7e1b4d8f60" } }, { status: 503 }));
    const res = await request({ model: "gpt-4o", messages: small });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { type: "upstream_error", message: "upstream answered 503: boom", status: 503 } });
  });

  it("redacts the upstream's message whole, then caps it: no key it echoes reaches the error body", async () => {
    const key = "3f9a2c7e1b4d8f60a5c3e9b17d2f4a86";
    const echoes = [
      Response.json({ error: { message: `Incorrect API key provided: ${key}. ${"See the docs. ".repeat(100)}` } }, { status: 401 }),
      new Response(`${"upstream trace ".repeat(40)}Authorization: Bearer sk-live-${key}`, { status: 500 }),
    ];
    for (const answer of echoes) {
      vi.spyOn(globalThis, "fetch").mockImplementation(async () => answer);
      const res = await request({ model: "gpt-4o", messages: small });
      expect(res.status).toBe(answer.status);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).not.toContain(key.slice(6, 16));
      expect(body.error.message.length).toBeLessThanOrEqual(500);
      vi.restoreAllMocks();
    }
  });

  it("answers 502 when no upstream is configured", async () => {
    const res = await post("/v1/chat/completions", { model: "gpt-4o", messages: small });
    expect(res.status).toBe(502);
    // The answer says how to fix it, locally and deployed.
    expect(await res.json()).toMatchObject({ error: { type: "no_upstream", message: expect.stringMatching(/^UPSTREAM_BASE_URL is not configured: .*Set it \(https:\/\/api\.openai\.com\/v1 or .*\) in \.dev\.vars for `npm start` \(see \.dev\.vars\.example\), or under \[vars\] in wrangler\.toml/) } });
  });

  it("answers 400 for a request without a model", async () => {
    const res = await post("/v1/chat/completions", { messages: small });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { issues: { path: string }[] } }).error.issues[0].path).toBe("model");
  });

  it("forwards the client's query and headers, with the worker's key in place of the client's credentials", async () => {
    const seen: { url: string; headers: Headers }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
      seen.push({ url: String(url), headers: new Headers(init?.headers) });
      return Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }] });
    });
    const client = { "x-stainless-lang": "js", "openai-organization": "org-1", "user-agent": "OpenAI/JS 6.1.0", cookie: "a=b", "x-session-id": `h-${crypto.randomUUID()}`, "x-context-window": "128000", connection: "close", te: "trailers" };
    const res = await app.request("http://localhost/v1/chat/completions?api-version=2026-01-01", { method: "POST", headers: { ...auth, ...client }, body: JSON.stringify({ model: "gpt-4o", messages: small }) }, upstreamEnv, { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext);
    expect(res.status).toBe(200);
    expect(seen[0].url).toBe("http://upstream.test/v1/chat/completions?api-version=2026-01-01");
    expect(seen[0].headers.get("authorization")).toBe("Bearer sk-upstream");
    for (const k of ["x-stainless-lang", "openai-organization", "user-agent"]) expect(seen[0].headers.get(k), k).toBe(client[k as keyof typeof client]);
    for (const k of ["cookie", "x-session-id", "x-context-window", "connection", "te"]) expect(seen[0].headers.get(k), k).toBeNull();
  });

  it("answers a context_length_exceeded error with one compaction for the stated limit and one retry", async () => {
    const id = `ctx-${crypto.randomUUID()}`;
    const bodies: { messages: unknown[] }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      if (bodies.length > 1) return Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }] });
      const message = "This model's maximum context length is 16384 tokens. However, your messages resulted in 140000 tokens. Please reduce the length of the messages.";
      return Response.json({ error: { message, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } }, { status: 400 });
    });
    const res = await request({ model: "gpt-4o", messages: big }, { "x-session-id": id });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-compaction-retried")).toBe("overflow");
    expect(bodies).toHaveLength(2);
    expect(bodies[1].messages.length).toBeLessThan(bodies[0].messages.length);
    expect(Number(res.headers.get("x-compaction-tokens-after"))).toBeLessThan(16_384);
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(id)) as DurableObjectStub<SessionObject>;
    expect(await stub.learnedWindow("gpt-4o")).toBe(16_384);
  });
});

describe("model windows", () => {
  it("cover the current families, the 1M beta and suffix, a provider path, and MODEL_WINDOWS", () => {
    const w = (model: string, beta?: string, extra: object = {}) => windowFor({ ...env, ...extra } as never, model, undefined, beta);
    expect(w("claude-opus-5-5")).toBe(1_000_000);
    expect(w("claude-sonnet-5")).toBe(1_000_000);
    expect(w("claude-haiku-4-5-20251001")).toBe(200_000);
    expect(w("claude-sonnet-4-5-20250929")).toBe(200_000);
    expect(w("claude-sonnet-4-5-20250929", "claude-code-20250219,context-1m-2025-08-07")).toBe(1_000_000);
    expect(w("claude-opus-4-6[1m]")).toBe(1_000_000);
    expect(w("anthropic/claude-opus-5-5")).toBe(1_000_000);
    expect(w("gpt-5")).toBe(400_000);
    expect(w("gpt-5-mini")).toBe(400_000);
    expect(w("gpt-5.1-codex")).toBe(400_000);
    expect(w("gpt-5.4")).toBe(1_050_000);
    expect(w("gpt-5.4-mini")).toBe(400_000);
    expect(w("gpt-4.1-nano")).toBe(1_047_576);
    expect(w("o3-mini")).toBe(200_000);
    expect(w("gemini-2.5-pro")).toBe(1_048_576);
    expect(w("models/gemini-3-flash")).toBe(1_048_576);
    expect(w("gemini-3.5-pro")).toBe(2_097_152);
    expect(w("llama-3")).toBe(128_000);
    expect(w("my-model", undefined, { MODEL_WINDOWS: '{"my-model": 32000}' })).toBe(32_000);
    expect(windowFor(env as never, "claude-opus-5-5", "64000")).toBe(64_000);
  });
});

describe("documents", () => {
  it("serves the OpenAPI document of every route", async () => {
    const doc = (await (await SELF.fetch("http://localhost/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/v1/chat/completions", "/v1/compact", "/v1/messages", "/v1/messages/count_tokens", "/v1/models", "/v1/models/{id}", "/v1/plan",
      "/v1/responses", "/v1/responses/compact", "/v1/responses/{id}", "/v1/sessions/{id}", "/v1/sessions/{id}/archive/{ref}",
      "/v1/sessions/{id}/proposals", "/v1/sessions/{id}/proposals/{pid}/accept",
    ]);
  });

  it("serves the demo at /", async () => {
    const res = await SELF.fetch("http://localhost/");
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/context-compactor/);
  });

  it("answers CORS preflights only for origins in ALLOWED_ORIGINS (none by default)", async () => {
    const preflight = (origin: string, e: object = env) =>
      app.request("http://localhost/v1/plan", { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } }, e);
    expect((await preflight("http://example.com")).headers.get("access-control-allow-origin")).toBeNull();
    const listed = { ...env, ALLOWED_ORIGINS: "https://app.example, https://other.example" };
    expect((await preflight("https://app.example", listed)).headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect((await preflight("https://evil.example", listed)).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("local mode (no API_TOKEN) is safe by default", () => {
  const open = { ...env, API_TOKEN: undefined };
  const body = JSON.stringify({ messages: [], options: { contextWindow: 1000 } });
  const plan = (headers: Record<string, string>, url = "http://127.0.0.1:8787/v1/plan", e: object = open) =>
    app.request(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }, e);

  it("serves loopback clients and same-origin or loopback pages", async () => {
    for (const headers of [{}, { "cf-connecting-ip": "127.0.0.1" }, { "cf-connecting-ip": "::1" }, { origin: "http://127.0.0.1:8787" }, { origin: "http://localhost:5173" }, { "sec-fetch-site": "same-origin" }]) {
      expect((await plan(headers)).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("refuses a page on another site: a drive-by POST never reaches the upstream", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const upstream = { ...open, UPSTREAM_BASE_URL: "http://upstream.test/v1", UPSTREAM_API_KEY: "sk-upstream" };
    const res = await app.request(
      "http://127.0.0.1:8787/v1/chat/completions",
      { method: "POST", body: JSON.stringify({ model: "gpt-4o", messages: small }), headers: { "content-type": "application/json", origin: "https://evil.example" } },
      upstream,
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await res.json()).toMatchObject({ error: { type: "unauthorized", message: expect.stringMatching(/origin/) } });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect((await plan({ origin: "null" })).status).toBe(401);
    expect((await plan({ "sec-fetch-site": "cross-site" })).status).toBe(401);
  });

  it("refuses a non-loopback client even with Host: localhost", async () => {
    const res = await plan({ "cf-connecting-ip": "203.0.113.7" }, "http://localhost:8787/v1/plan");
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/API_TOKEN is not set/);
  });

  it("serves an origin listed in ALLOWED_ORIGINS", async () => {
    const res = await plan({ origin: "https://app.example" }, undefined, { ...open, ALLOWED_ORIGINS: "https://app.example" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });
});

describe("one error format for every non-2xx answer", () => {
  const raw = (path: string, init: RequestInit) => SELF.fetch(`http://localhost${path}`, { ...init, headers: { authorization: "Bearer test-token", ...(init.headers as object) } });
  const errorOf = async (res: Response) => {
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    return ((await res.json()) as { error: { type: string; message: string } }).error;
  };

  it("malformed JSON is a JSON 400", async () => {
    const res = await raw("/v1/plan", { method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ type: "invalid_json", message: expect.stringMatching(/JSON/) });
  });

  it("a wrong content type is a JSON 415", async () => {
    const res = await raw("/v1/plan", { method: "POST", body: "{}", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toMatchObject({ type: "unsupported_media_type" });
  });

  it("an unknown route is a JSON 404, a wrong method a JSON 405 with Allow", async () => {
    const missing = await raw("/v1/nope", { method: "POST" });
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ type: "not_found" });
    const wrong = await raw("/v1/plan", { method: "GET" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(await errorOf(wrong)).toMatchObject({ type: "method_not_allowed" });
  });

  it("accepts the bearer scheme in any case", async () => {
    const res = await raw("/v1/plan", { method: "POST", body: JSON.stringify({ messages: [], options: { contextWindow: 1000 } }), headers: { authorization: "bearer test-token", "content-type": "application/json" } });
    expect(res.status).toBe(200);
  });

  it("invalid messages are a 400 naming the index with a session too, on /v1/compact and the proxy", async () => {
    const bad = [{ role: "user", content: "x" }, { role: "tool", content: "y" }];
    const id = `bad-${crypto.randomUUID()}`;
    for (const res of [
      await post("/v1/compact", { messages: bad, options: { contextWindow: 1000 }, sessionId: id }),
      await post("/v1/compact", { messages: bad, options: { contextWindow: 1000 }, sessionId: id }, { accept: "application/json" }),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { type: "invalid_messages", message: expect.stringMatching(/^messages\[1\]: tool_call_id/), issues: [{ path: "messages.1" }] } });
    }
    const proxied = await app.request(
      "http://localhost/v1/chat/completions",
      { method: "POST", headers: { ...auth, "x-session-id": id }, body: JSON.stringify({ model: "gpt-4o", messages: bad }) },
      { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1" },
    );
    expect(proxied.status).toBe(400);
    expect(await proxied.json()).toMatchObject({ error: { type: "invalid_messages" } });
  });

  it("a session id longer than the sessions route reads is a 400, header or body", async () => {
    const long = "s".repeat(201);
    const header = await app.request(
      "http://localhost/v1/chat/completions",
      { method: "POST", headers: { ...auth, "x-session-id": long }, body: JSON.stringify({ model: "gpt-4o", messages: small }) },
      { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1" },
    );
    expect(header.status).toBe(400);
    expect(((await header.json()) as { error: { issues: { path: string }[] } }).error.issues[0].path).toBe("x-session-id");
    expect((await post("/v1/compact", { messages: small, options: { contextWindow: 1000 }, sessionId: long })).status).toBe(400);
  });

  it("a body nested too deep is a 400 naming where, on every route, not a 500", async () => {
    const depth = 490_000;
    const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    for (const path of ["/v1/plan", "/v1/compact"]) {
      const body = `{"messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"mystery","v":${nested}}]}],"options":{"contextWindow":1000}}`;
      const res = await raw(path, { method: "POST", body, headers: { "content-type": "application/json" } });
      expect(res.status, path).toBe(400);
      expect(await errorOf(res)).toMatchObject({ type: "invalid_request", message: expect.stringMatching(/messages\.1: nested deeper than \d+ levels/) });
    }
  });
});

describe("the proxy's upstream", () => {
  const upstreamEnv = { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1", UPSTREAM_TIMEOUT_MS: "50" };
  const chat = (init: RequestInit = {}) =>
    app.request("http://localhost/v1/chat/completions", { method: "POST", headers: auth, body: JSON.stringify({ model: "gpt-4o", stream: true, messages: small }), ...init }, upstreamEnv, {
      waitUntil: () => {},
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext);
  /** An upstream that accepts and never answers, until it is aborted. */
  const silent = (seen: AbortSignal[]) =>
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_url, init) =>
        new Promise((_, reject) => {
          seen.push(init!.signal!);
          init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason));
        }),
    );

  it("answers 504 in the JSON format when the upstream sends nothing", async () => {
    const seen: AbortSignal[] = [];
    silent(seen);
    const res = await chat();
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: { type: "upstream_timeout", message: expect.stringMatching(/50 ms/) } });
    expect(seen[0].aborted).toBe(true);
  });

  it("ends a stream that goes quiet with an error chunk, never a clean [DONE], and aborts the upstream", async () => {
    let upstreamSignal: AbortSignal | undefined;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
      upstreamSignal = init!.signal!;
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"Hal')) }); // cut mid-event, then nothing
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const res = await chat();
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("[DONE]");
    // The error is an event of its own, after the half-sent one, in the format OpenAI clients read.
    const events = text.split("\n\n").filter(Boolean);
    const last = JSON.parse(events.at(-1)!.replace(/^data: /, ""));
    expect(last).toEqual({ error: { type: "upstream_timeout", code: "upstream_timeout", message: expect.stringMatching(/cut.*50 ms/) } });
    expect(upstreamSignal!.aborted).toBe(true);
  });

  it("ends a stream the upstream breaks with an error chunk too", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      let sent = false;
      const body = new ReadableStream({
        pull: (c) => {
          if (sent) return c.error(new TypeError("Network connection lost."));
          sent = true;
          c.enqueue(new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const text = await (await chat()).text();
    expect(text.startsWith('data: {"choices"')).toBe(true);
    expect(text.endsWith("\n\n")).toBe(true);
    expect(JSON.parse(text.split("\n\n").filter(Boolean).at(-1)!.slice(6))).toMatchObject({ error: { type: "upstream_error", message: expect.stringMatching(/Network connection lost/) } });
  });

  it("aborts the upstream request when the client goes away", async () => {
    const seen: AbortSignal[] = [];
    silent(seen);
    const client = new AbortController();
    const pending = app.request(
      new Request("http://localhost/v1/chat/completions", { method: "POST", headers: auth, body: JSON.stringify({ model: "gpt-4o", messages: small }), signal: client.signal }),
      undefined,
      { ...upstreamEnv, UPSTREAM_TIMEOUT_MS: "600000" },
    );
    while (!seen.length) await new Promise((r) => setTimeout(r, 1));
    client.abort();
    await Promise.resolve(pending).catch(() => undefined);
    expect(seen[0].aborted).toBe(true);
  });

  it("an upstream error whose message is an object comes back as its JSON, redacted", async () => {
    const key = "sk-proj-AbCdEf0123456789AbCdEf0123456789AbCdEf0123456789xyz";
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ error: { message: { reason: "bad key", key } } }, { status: 401 }));
    const res = await chat();
    expect(res.status).toBe(401);
    const e = ((await res.json()) as { error: { message: string } }).error;
    expect(e.message).not.toContain("[object Object]");
    expect(e.message).toContain("bad key");
    expect(e.message).not.toContain(key);
  });
});
