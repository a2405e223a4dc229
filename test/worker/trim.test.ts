// Issue 30 item 3 at the edge: the proxies trim new tool outputs over x-compaction-max-tool-output-tokens
// (or MAX_TOOL_OUTPUT_TOKENS), the same bytes on every later request, the whole in the session's archive.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../workers/app.js";
import { heuristicTokens } from "../../src/index.js";

afterEach(() => vi.restoreAllMocks());

const auth = { authorization: "Bearer test-token", "content-type": "application/json" };
const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
const bindings = { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1", UPSTREAM_API_KEY: "sk-upstream", ANTHROPIC_UPSTREAM_BASE_URL: "http://anthropic.test/", ANTHROPIC_API_KEY: "sk-ant-upstream" };
const call = (path: string, body: unknown, headers: Record<string, string> = {}, vars: Record<string, string> = {}) =>
  app.request(`http://localhost${path}`, { method: "POST", headers: { ...auth, ...headers }, body: JSON.stringify(body) }, { ...bindings, ...vars }, ctx);

/** A build log of ~40k tokens that fails in the middle and reports its exit status at the end. */
const log = [
  ...Array.from({ length: 3000 }, (_, i) => `[${i}] compiling packages/core/src/module_${i}.ts`),
  "src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  ...Array.from({ length: 3000 }, (_, i) => `[${i}] emitting chunk-${i}.js`),
  "Process exited with exit code 2",
].join("\n");
const MAX = 800;

function upstream(answer: () => Response): string[] {
  const sent: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
    sent.push(String(init?.body));
    return answer();
  });
  return sent;
}
const chatAnswer = () => Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }], usage: { prompt_tokens: 10 } });

const turn1 = [
  { role: "system", content: "You build projects." },
  { role: "user", content: "Build it" },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "Bash", arguments: '{"command":"make"}' } }] },
  { role: "tool", tool_call_id: "c1", content: log },
];
const turn2 = [...turn1, { role: "assistant", content: "The build failed on a type error." }, { role: "user", content: "Fix it" }];

describe("maxToolOutputTokens in the proxies", () => {
  it("chat: a new output is trimmed once and identically on the next request (byte-identical prefix); the session archives the whole", async () => {
    const forwarded: Headers[] = [];
    const sent: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
      forwarded.push(new Headers(init?.headers));
      sent.push(String(init?.body));
      return chatAnswer();
    });
    const headers = { "x-session-id": "trim-chat", "x-compaction-max-tool-output-tokens": String(MAX) };
    const r1 = await call("/v1/chat/completions", { model: "gpt-4o", messages: turn1 }, headers);
    const r2 = await call("/v1/chat/completions", { model: "gpt-4o", messages: turn2 }, headers);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r1.headers.get("x-compaction-trimmed")).toBe("1");
    expect(r2.headers.get("x-compaction-trimmed")).toBe("1");
    expect(r1.headers.get("x-compaction-mode")).toBe("noop");
    expect(forwarded[0].get("x-compaction-max-tool-output-tokens")).toBeNull(); // the worker's own header
    const [a, b] = sent.map((s) => JSON.parse(s).messages as { content: string }[]);
    expect(JSON.stringify(b.slice(0, a.length))).toBe(JSON.stringify(a));
    const output = a[3].content;
    expect(heuristicTokens(output)).toBeLessThanOrEqual(MAX);
    expect(output).toContain("error TS2322");
    expect(output).toContain("Process exited with exit code 2");
    const ref = /archived as (#out-\w+)/.exec(output)![1];
    const archived = await SELF.fetch(`http://localhost/v1/sessions/trim-chat/archive/${encodeURIComponent(ref)}?limit=1000000`, { headers: auth });
    expect(archived.status).toBe(200);
    expect(JSON.stringify(await archived.json())).toContain(JSON.stringify(log).slice(1, -1).slice(0, 2000));
  });

  it("chat: MAX_TOOL_OUTPUT_TOKENS turns it on for every request, the header turns it off, and a bad value is a 400", async () => {
    const sent = upstream(chatAnswer);
    const on = await call("/v1/chat/completions", { model: "gpt-4o", messages: turn1 }, {}, { MAX_TOOL_OUTPUT_TOKENS: String(MAX) });
    expect(on.headers.get("x-compaction-trimmed")).toBe("1");
    const off = await call("/v1/chat/completions", { model: "gpt-4o", messages: turn1 }, { "x-compaction-max-tool-output-tokens": "off" }, { MAX_TOOL_OUTPUT_TOKENS: String(MAX) });
    expect(off.headers.get("x-compaction-trimmed")).toBeNull();
    expect(JSON.parse(sent[1]).messages[3].content).toBe(log);
    const none = await call("/v1/chat/completions", { model: "gpt-4o", messages: turn1 });
    expect(none.headers.get("x-compaction-trimmed")).toBeNull();
    const bad = await call("/v1/chat/completions", { model: "gpt-4o", messages: turn1 }, { "x-compaction-max-tool-output-tokens": "lots" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("x-compaction-max-tool-output-tokens");
  });

  it("messages (Anthropic): tool_result content trimmed, reported", async () => {
    const sent = upstream(() => Response.json({ id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text: "ok" }], usage: { input_tokens: 10, output_tokens: 1 } }));
    const messages = [
      { role: "user", content: "Build it" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "make" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: log }] },
    ];
    const headers = { "x-api-key": "test-token", "anthropic-version": "2023-06-01", "x-compaction-max-tool-output-tokens": String(MAX) };
    const r = await call("/v1/messages", { model: "claude-sonnet-4-5", max_tokens: 100, messages }, headers);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-compaction-trimmed")).toBe("1");
    const out = JSON.stringify(JSON.parse(sent[0]).messages[2].content);
    expect(out.length).toBeLessThan(log.length / 5);
    expect(out).toContain("Process exited with exit code 2");
  });

  it("count_tokens counts the request as /v1/messages would send it: trimmed", async () => {
    const sent = upstream(() => Response.json({ input_tokens: 1234 }));
    const messages = [
      { role: "user", content: "Build it" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "make" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: log }] },
    ];
    const headers = { "x-api-key": "test-token", "anthropic-version": "2023-06-01", "x-compaction-max-tool-output-tokens": String(MAX) };
    const r = await call("/v1/messages/count_tokens", { model: "claude-sonnet-4-5", messages }, headers);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-compaction-trimmed")).toBe("1");
    expect(JSON.stringify(JSON.parse(sent[0]).messages[2].content).length).toBeLessThan(log.length / 5);
  });

  it("responses: a function_call_output trimmed even when no pass runs", async () => {
    const completed = { id: "resp_1", object: "response", status: "completed", output: [], usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11 } };
    const sent = upstream(() => Response.json(completed));
    const input = [
      { role: "user", content: "Build it" },
      { type: "function_call", call_id: "f1", name: "bash", arguments: '{"command":"make"}' },
      { type: "function_call_output", call_id: "f1", output: log },
    ];
    const r = await call("/v1/responses", { model: "gpt-5", input }, { "x-compaction-max-tool-output-tokens": String(MAX) });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-compaction-trimmed")).toBe("1");
    const output = JSON.parse(sent[0]).input[2].output as string;
    expect(heuristicTokens(output)).toBeLessThanOrEqual(MAX);
    expect(output).toContain("error TS2322");
  });
});

// Issue 30 item 4 at the edge: a provider's request cap (codex#41338: 32.9 MB of screenshots against
// 32 MB) as x-compaction-max-request-bytes (or MAX_REQUEST_BYTES): the oldest images go first.
describe("maxRequestBytes in the proxies", () => {
  /** A base64 PNG data URL of about `size` bytes of noise (a screenshot does not compress). */
  const screenshot = (seed: number, size = 300_000) => {
    let x = seed + 1;
    const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let out = "iVBORw0KGgo";
    while (out.length < size) out += chars[(x = (x * 1103515245 + 12345) >>> 0) >>> 26];
    return `data:image/png;base64,${out}`;
  };
  const CAP = 1_000_000;
  const bytes = (x: unknown) => new TextEncoder().encode(JSON.stringify(x)).length;

  it("chat: over the cap, the oldest images are stubbed until it fits, the latest request's kept", async () => {
    const sent = upstream(chatAnswer);
    const messages: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      messages.push({ role: "user", content: [{ type: "text", text: `Screenshot ${i}` }, { type: "image_url", image_url: { url: screenshot(i) } }] });
      if (i < 4) messages.push({ role: "assistant", content: `Looks fine (${i}).` });
    }
    expect(bytes(messages)).toBeGreaterThan(CAP);
    const r = await call("/v1/chat/completions", { model: "gpt-4o", messages }, { "x-compaction-max-request-bytes": String(CAP) });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-compaction-mode")).toBe("prune");
    const out = JSON.parse(sent[0]).messages as { content: unknown }[];
    expect(bytes(out)).toBeLessThanOrEqual(CAP);
    expect(JSON.stringify(out[0])).toContain("omitted: the request was over maxRequestBytes");
    expect(out.at(-1)).toEqual(messages.at(-1)); // the latest request, its screenshot whole
  });

  it("responses: MAX_REQUEST_BYTES applies without a header; a bad value is a 400", async () => {
    const completed = { id: "resp_1", object: "response", status: "completed", output: [], usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11 } };
    const sent = upstream(() => Response.json(completed));
    const input: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      input.push({ role: "user", content: [{ type: "input_text", text: `Screenshot ${i}` }, { type: "input_image", image_url: screenshot(i) }] });
      if (i < 4) input.push({ role: "assistant", content: [{ type: "output_text", text: `Fine ${i}.` }] });
    }
    const r = await call("/v1/responses", { model: "gpt-5", input }, {}, { MAX_REQUEST_BYTES: String(CAP) });
    expect(r.status).toBe(200);
    expect(bytes(JSON.parse(sent[0]).input)).toBeLessThanOrEqual(CAP);
    const bad = await call("/v1/responses", { model: "gpt-5", input }, { "x-compaction-max-request-bytes": "32MB" });
    expect(bad.status).toBe(400);
  });
});
