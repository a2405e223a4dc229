// POST /v1/responses and the endpoints passed through, inside workerd, against a mocked upstream.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SYSTEM_NOTE } from "../../src/index.js";
import { app } from "../../workers/app.js";
import { trajectories } from "../portable/fixtures.gen.js";
import { toResponses } from "../support/responses.js";
import { responsesValidity } from "../support/validity.js";

const auth = { authorization: "Bearer test-token", "content-type": "application/json" };
const upstreamEnv = { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1", UPSTREAM_API_KEY: "sk-upstream" };
const ctx = (pending: Promise<unknown>[] = []) => ({ waitUntil: (p: Promise<unknown>) => pending.push(p), passThroughOnException: () => {}, props: {} }) as unknown as ExecutionContext;
const call = (path: string, init: RequestInit, pending?: Promise<unknown>[]) => app.request(`http://localhost${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } }, upstreamEnv, ctx(pending));
const post = (body: unknown, headers: Record<string, string> = {}, pending?: Promise<unknown>[]) => call("/v1/responses", { method: "POST", body: JSON.stringify(body), headers }, pending);

// A real agent session (Claude Code, 150 tool calls) as Responses items: reasoning before each turn,
// custom tool calls, a web search, a provider compaction item.
const big = toResponses(trajectories.find((t) => t.name.startsWith("claude-code-spotter__4d5611e5-241a"))!.messages);
const small = toResponses(trajectories.find((t) => t.name === "swe-agent__function_calling_simple")!.messages);

const completed = { id: "resp_1", object: "response", status: "completed", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] }], usage: { input_tokens: 3000, input_tokens_details: { cached_tokens: 2048 }, output_tokens: 5, total_tokens: 3005 } };
const sse = [
  `event: response.created\ndata: ${JSON.stringify({ type: "response.created", sequence_number: 0, response: { ...completed, status: "in_progress", usage: null } })}\n\n`,
  `event: response.output_text.delta\ndata: ${JSON.stringify({ type: "response.output_text.delta", sequence_number: 1, delta: "ok" })}\n\n`,
  `event: response.completed\ndata: ${JSON.stringify({ type: "response.completed", sequence_number: 2, response: completed })}\n\n`,
].join("");

interface Sent {
  url: string;
  method: string;
  auth: string | null;
  text: string;
}

function upstream(answer: () => Response): Sent[] {
  const sent: Sent[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
    sent.push({ url: String(url), method: init?.method ?? "GET", auth: new Headers(init?.headers).get("authorization"), text: String(init?.body ?? "") });
    return answer();
  });
  return sent;
}

afterEach(() => vi.restoreAllMocks());

describe("POST /v1/responses", () => {
  it("passes a small request through: the same input, the JSON answer unchanged", async () => {
    const sent = upstream(() => Response.json(completed, { headers: { "x-request-id": "req_9" } }));
    const body = { model: "gpt-5.1-codex", instructions: "You are Codex.", input: small, store: false, include: ["reasoning.encrypted_content"], prompt_cache_key: "k1", parallel_tool_calls: true, tools: [{ type: "custom", name: "apply_patch" }, { type: "local_shell" }] };
    const text = JSON.stringify(body, null, 1);
    const res = await call("/v1/responses", { method: "POST", body: text });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(completed);
    expect(res.headers.get("x-compaction-mode")).toBe("noop");
    expect(res.headers.get("x-request-id")).toBe("req_9");
    expect(res.headers.get("x-compaction-messages-before")).toBe(String(small.length));
    expect(sent[0]).toMatchObject({ url: "http://upstream.test/v1/responses", method: "POST", auth: "Bearer sk-upstream" });
    expect(sent[0].text).toBe(text); // byte for byte
  });

  it("compacts a long session: the upstream gets a smaller, valid input, reasoning with its calls, the note once in instructions", async () => {
    const sent = upstream(() => new Response(sse, { headers: { "content-type": "text/event-stream" } }));
    const body = { model: "gpt-5.1-codex", instructions: "You are Codex.", input: big, stream: true, store: false, reasoning: { effort: "high" }, context_management: [{ type: "compaction", compact_threshold: 100000 }] };
    const res = await post(body, { "x-context-window": "64000" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(sse);
    expect(res.headers.get("x-compaction-mode")).toBe("summary");
    expect(Number(res.headers.get("x-compaction-tokens-after"))).toBeLessThan(Number(res.headers.get("x-compaction-tokens-before")));
    expect(res.headers.get("x-compaction-messages-before")).toBe(String(big.length));
    const up = JSON.parse(sent[0].text) as { input: Record<string, unknown>[]; instructions: string; reasoning: unknown; context_management: unknown; store: boolean };
    expect(up.instructions).toBe(`You are Codex.\n\n${SYSTEM_NOTE}`);
    expect(up.input.some((m) => JSON.stringify(m).includes(SYSTEM_NOTE.slice(0, 40)))).toBe(false);
    expect(up.input.length).toBeLessThan(big.length);
    expect(Number(res.headers.get("x-compaction-messages-after"))).toBe(up.input.length);
    expect(responsesValidity(up.input as never)).toEqual([]);
    // Every reasoning item sent is the input's own, still right before the item it preceded.
    for (const [k, m] of up.input.entries()) {
      if (m.type !== "reasoning") continue;
      const j = big.findIndex((x) => (x as { id?: string }).id === m.id);
      expect(JSON.stringify(m)).toBe(JSON.stringify(big[j]));
      expect(JSON.stringify(up.input[k + 1])).toBe(JSON.stringify(big[j + 1]));
    }
    expect(up).toMatchObject({ reasoning: { effort: "high" }, context_management: [{ type: "compaction", compact_threshold: 100000 }], store: false });
  });

  it("reads the usage of response.completed to calibrate a session", async () => {
    upstream(() => new Response(sse, { headers: { "content-type": "text/event-stream" } }));
    const id = `resp-cal-${crypto.randomUUID()}`;
    const pending: Promise<unknown>[] = [];
    const res = await post({ model: "gpt-5", input: small, stream: true }, { "x-session-id": id }, pending);
    await res.text();
    await Promise.all(pending);
    const session = (await (await SELF.fetch(`http://localhost/v1/sessions/${id}`, { headers: auth })).json()) as { state: { calibration?: { samples: number } } };
    expect(session.state.calibration?.samples).toBe(1);
  });

  it("forwards a request continuing a stored response untouched, compaction skipped", async () => {
    const sent = upstream(() => Response.json(completed));
    const body = { model: "gpt-5", previous_response_id: "resp_0", input: big, store: true };
    const text = JSON.stringify(body, null, 2);
    const res = await call("/v1/responses", { method: "POST", body: text, headers: { "x-context-window": "16000" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-compaction-mode")).toBe("skipped");
    expect(sent[0].text).toBe(text);
  });

  it("forwards a request in a stored conversation untouched, compaction skipped", async () => {
    const sent = upstream(() => Response.json(completed));
    const body = { model: "gpt-5", conversation: "conv_1", input: big };
    const res = await post(body, { "x-context-window": "16000" });
    expect(res.headers.get("x-compaction-mode")).toBe("skipped");
    expect(sent[0].text).toBe(JSON.stringify(body));
  });

  it("forwards a string input untouched", async () => {
    const sent = upstream(() => Response.json(completed));
    const res = await post({ model: "gpt-5", input: "Say hi" });
    expect(res.headers.get("x-compaction-mode")).toBe("skipped");
    expect(JSON.parse(sent[0].text)).toEqual({ model: "gpt-5", input: "Say hi" });
  });

  it("names a bad item by its index in input, instructions or not, with a session too", async () => {
    upstream(() => Response.json(completed));
    const input = [{ role: "user", content: "hi" }, { type: "function_call", call_id: "c1", name: "shell" }];
    for (const [instructions, session] of [[undefined, undefined], ["Be brief.", undefined], ["Be brief.", `bad-${crypto.randomUUID()}`]]) {
      const res = await post({ model: "gpt-5", instructions, input }, session ? { "x-session-id": session } : {});
      expect(res.status).toBe(400);
      const e = (await res.json()) as { error: { type: string; message: string; issues: { path: string }[] } };
      expect(e.error.type).toBe("invalid_messages");
      expect(e.error.message).toMatch(/^input\[1\]: arguments: a function_call item needs a string "arguments"/);
      expect(e.error.issues[0].path).toBe("input.1");
    }
  });

  it("passes an upstream failure on with its status, in OpenAI's error shape", async () => {
    upstream(() => Response.json({ error: { message: "Your input exceeds the context window of this model.", type: "invalid_request_error", code: "context_length_exceeded" } }, { status: 400 }));
    const res = await post({ model: "gpt-5", input: small });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: "upstream_error", code: "context_length_exceeded", message: expect.stringMatching(/context window/) } });
  });

  it("answers 502 when no upstream is configured", async () => {
    const res = await SELF.fetch("http://localhost/v1/responses", { method: "POST", headers: auth, body: JSON.stringify({ model: "gpt-5", input: "hi" }) });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: { type: "no_upstream", message: expect.stringMatching(/^UPSTREAM_BASE_URL is not configured: .*Set it \(https:\/\/api\.openai\.com\/v1 or .*\) in \.dev\.vars for `npm start` \(see \.dev\.vars\.example\), or under \[vars\] in wrangler\.toml/) } });
  });
});

describe("the dialect by name on /v1/plan and /v1/compact", () => {
  it("compacts Responses items with dialect: \"openai-responses\"", async () => {
    const res = await SELF.fetch("http://localhost/v1/compact", { method: "POST", headers: auth, body: JSON.stringify({ messages: big, options: { contextWindow: 32_000, dialect: "openai-responses" } }) });
    expect(res.status).toBe(200);
    const r = (await res.json()) as { messages: never[]; report: { mode: string } };
    expect(r.report.mode).toBe("summary");
    expect(responsesValidity(r.messages)).toEqual([]);
  });
});

describe("passed through untouched", () => {
  it("POST /v1/responses/compact: the body byte for byte, the answer unchanged", async () => {
    const answer = { id: "cmp_1", object: "response.compaction", output: [{ type: "compaction", encrypted_content: "gAAAA" }], usage: { input_tokens: 10 } };
    const sent = upstream(() => Response.json(answer));
    const text = JSON.stringify({ model: "gpt-5", input: big.slice(0, 20) }, null, 1);
    const res = await call("/v1/responses/compact", { method: "POST", body: text });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(answer);
    expect(sent[0]).toMatchObject({ url: "http://upstream.test/v1/responses/compact", method: "POST", auth: "Bearer sk-upstream", text });
  });

  it("GET and DELETE /v1/responses/:id, its input_items and cancel, input_tokens: path and query kept", async () => {
    const sent = upstream(() => Response.json(completed));
    const got = await call("/v1/responses/resp_1?include[]=reasoning.encrypted_content", { method: "GET" });
    expect(await got.json()).toEqual(completed);
    await call("/v1/responses/resp_1", { method: "DELETE" });
    await call("/v1/responses/resp_1/input_items?limit=5", { method: "GET" });
    await call("/v1/responses/resp_1/cancel", { method: "POST", body: "" });
    await call("/v1/responses/input_tokens", { method: "POST", body: JSON.stringify({ model: "gpt-5", input: "hi" }) });
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET http://upstream.test/v1/responses/resp_1?include[]=reasoning.encrypted_content",
      "DELETE http://upstream.test/v1/responses/resp_1",
      "GET http://upstream.test/v1/responses/resp_1/input_items?limit=5",
      "POST http://upstream.test/v1/responses/resp_1/cancel",
      "POST http://upstream.test/v1/responses/input_tokens",
    ]);
  });
});
