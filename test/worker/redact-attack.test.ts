// The worker's own channels, attacked with secrets `redact` catches only with the text around them:
// the /v1/compact result and its SSE progress, the proxies' error bodies (upstream type and code,
// validation messages). Inside workerd, with the upstream and the summarizer faked through fetch.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../workers/app.js";
import { redact } from "../../src/redact/index.js";

const auth = { authorization: "Bearer test-token", "content-type": "application/json" };
const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
const call = (path: string, body: unknown, vars: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  app.request(`http://localhost${path}`, { method: "POST", headers: { ...auth, ...headers }, body: JSON.stringify(body) }, { ...env, ...vars }, ctx);

afterEach(() => vi.restoreAllMocks());

const words = (chars: number) => "word ".repeat(Math.ceil(chars / 5));
const turns = (n: number, chars: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 ? "user" : "assistant", content: `turn ${i} ${words(chars)}` }));
const toolTurn = (id: string, output: string) => [
  { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "Bash", arguments: '{"command":"./run.sh"}' } }] },
  { role: "tool", tool_call_id: id, content: output },
  { role: "assistant", content: "Looked at it." },
];
const head = [{ role: "system", content: "You are a coding agent." }, { role: "user", content: "Start the work." }, { role: "assistant", content: "Started." }, ...turns(4, 200)];

/** Any 10 characters of `secret` past its first `from` found in `text`. */
function pieces(text: string, secret: string, from = 6): string[] {
  const found: string[] = [];
  for (let i = from; i + 10 <= secret.length; i++) if (text.includes(secret.slice(i, i + 10))) found.push(secret.slice(i, i + 10));
  return found;
}

describe("POST /v1/compact", () => {
  it("a pruned output's one-liner quotes no piece of a key whose END comes after it (JSON result)", async () => {
    const body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "QyNTUxOQAAACBq9fQ8v3nX2mYlK7pR4sT6wE1uI0oA9dF3gH5jK8lZ2xCvBnM7qW4eR1tY6"];
    const output = `${body.join("\n")}\n-----END OPENSSH PRIVATE KEY-----\n${words(400)}`;
    expect(pieces(redact(output), body[0])).toEqual([]);
    const messages = [...head, ...toolTurn("k1", output), ...toolTurn("big", words(40_000)), ...turns(6, 300), { role: "user", content: "What is left?" }];
    const res = await call("/v1/compact", { messages, options: { contextWindow: 8_000 } });
    expect(res.status).toBe(200);
    const result = (await res.json()) as { report: { mode: string }; messages: unknown[] };
    expect(result.report.mode).toBe("prune");
    const written = JSON.stringify(result.messages.slice(head.length));
    expect(written).toContain("[output pruned #8] Bash");
    expect(pieces(written, body[0])).toEqual([]);
  });

  it("its SSE progress streams no summary delta the final summary redacts", async () => {
    // A command continued over lines: `mysql` stands ~270 characters before the `-p…` it makes a password.
    const password = "Hunter2xQ9vL7mZ";
    const arg = (n: number) => `--opt${n}=${"v".repeat(54)}`;
    const reply = `## Active task\n- check the replica\n\n## Critical values\n\`\`\`\nmysql \\\n  ${arg(1)} ${arg(2)} \\\n  ${arg(3)} ${arg(4)} \\\n  -p${password} -e "select 1"\n\`\`\`\n`;
    expect(redact(reply)).not.toContain(password);
    // The summarizer streams its reply four characters a chunk, as models do.
    const chunks = Array.from({ length: Math.ceil(reply.length / 4) }, (_, i) => ({ choices: [{ index: 0, delta: { content: reply.slice(i * 4, i * 4 + 4) }, finish_reason: null }] }));
    chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] } as never);
    const sse = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(sse, { headers: { "content-type": "text/event-stream" } }));
    const messages = [...head, ...turns(14, 2500), { role: "user", content: "What is left?" }];
    const res = await call("/v1/compact", { messages, options: { contextWindow: 8_000 } }, { SUMMARIZER: "openai", SUMMARIZER_BASE_URL: "http://summarizer.test/v1" }, { accept: "text/event-stream" });
    const events = await res.text();
    expect(events).toContain("event: summary-delta");
    expect(events).toContain('"source":"model"');
    expect(pieces(events, password, 4)).toEqual([]);
  });
});

describe("proxy error bodies", () => {
  const TOKEN = "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe1234";
  const small = [{ role: "user", content: "Hi." }];

  it("never pass on an upstream's error type or code that is a key", async () => {
    expect(redact(TOKEN)).not.toContain(TOKEN.slice(6));
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ error: { message: "bad key", type: TOKEN, code: TOKEN } }, { status: 401 }));
    const openai = await call("/v1/chat/completions", { model: "gpt-4o", messages: small }, { UPSTREAM_BASE_URL: "http://upstream.test/v1" });
    expect(openai.status).toBe(401);
    const anthropic = await call("/v1/messages", { model: "claude-sonnet-4", max_tokens: 100, messages: small }, { ANTHROPIC_UPSTREAM_BASE_URL: "http://upstream.test" });
    expect(anthropic.status).toBe(401);
    for (const text of [await openai.text(), await anthropic.text()]) {
      expect(text).toContain("bad key");
      expect(pieces(text, TOKEN)).toEqual([]);
    }
  });

  it("never quote a key the request put where a field name goes", async () => {
    const res = await call("/v1/plan", { messages: small, options: { contextWindow: 1000, [TOKEN]: true } });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("Unrecognized key");
    expect(pieces(text, TOKEN)).toEqual([]);
  });
});
