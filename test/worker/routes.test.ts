// Every route of the worker, inside workerd, through the real Durable Object and assets bindings.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../workers/app.js";
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

  it("turns an upstream failure into a 502 with the upstream's status and message", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ error: { message: "Rate limit reached" } }, { status: 429 }));
    const res = await request({ model: "gpt-4o", messages: small });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { type: "upstream_error", message: "upstream answered 429: Rate limit reached", status: 429 } });
  });

  it("redacts the upstream's message whole, then caps it: no key it echoes reaches the 502 body", async () => {
    const key = "3f9a2c7e1b4d8f60a5c3e9b17d2f4a86";
    const echoes = [
      Response.json({ error: { message: `Incorrect API key provided: ${key}. ${"See the docs. ".repeat(100)}` } }, { status: 401 }),
      new Response(`${"upstream trace ".repeat(40)}Authorization: Bearer sk-live-${key}`, { status: 500 }),
    ];
    for (const answer of echoes) {
      vi.spyOn(globalThis, "fetch").mockImplementation(async () => answer);
      const res = await request({ model: "gpt-4o", messages: small });
      expect(res.status).toBe(502);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).not.toContain(key.slice(6, 16));
      expect(body.error.message.length).toBeLessThanOrEqual(500);
      vi.restoreAllMocks();
    }
  });

  it("answers 502 when no upstream is configured", async () => {
    const res = await post("/v1/chat/completions", { model: "gpt-4o", messages: small });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: { type: "no_upstream" } });
  });

  it("answers 400 for a request without a model", async () => {
    const res = await post("/v1/chat/completions", { messages: small });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { issues: { path: string }[] } }).error.issues[0].path).toBe("model");
  });
});

describe("documents", () => {
  it("serves the OpenAPI document of every route", async () => {
    const doc = (await (await SELF.fetch("http://localhost/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).sort()).toEqual(["/v1/chat/completions", "/v1/compact", "/v1/plan", "/v1/sessions/{id}"]);
  });

  it("serves the demo at /", async () => {
    const res = await SELF.fetch("http://localhost/");
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/context-compactor/);
  });

  it("answers CORS preflights for the demo", async () => {
    const res = await SELF.fetch("http://localhost/v1/plan", { method: "OPTIONS", headers: { origin: "http://example.com", "access-control-request-method": "POST" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
