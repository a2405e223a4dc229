// End to end: `wrangler dev` as deployed, a recorded upstream on 127.0.0.1, the official openai client.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trajectory } from "./support/fixtures.js";
import { SSE_DIR } from "./support/sse.js";
import { openAIValidity } from "./support/validity.js";
import { buildDemo } from "../tools/build-demo.mjs";
import { startWranglerDev } from "../tools/dev-server.mjs";

const REPLAY = readFileSync(`${SSE_DIR}openai-chat__text-plain.txt`);
const received: { messages: unknown[] }[] = [];
let upstream: Server;
let upstreamPort = 0;
let base = "";
const persist = mkdtempSync(`${tmpdir()}/compactor-dev-`);

/** A provider stand-in: records each request and replays a recorded stream, event by event. */
function startUpstream(): Promise<void> {
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const parsed = JSON.parse(body);
      if (parsed.model === "silent") return; // accepts, and never answers
      received.push(parsed);
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of REPLAY.toString("utf8").split(/(?<=\n\n)/)) {
        res.write(event);
        await new Promise((r) => setTimeout(r, 2));
      }
      res.end();
    });
  });
  return new Promise((r) => upstream.listen(0, "127.0.0.1", () => ((upstreamPort = (upstream.address() as AddressInfo).port), r())));
}

let stopWorker = async () => {};

async function startWorker(): Promise<void> {
  const dev = await startWranglerDev({ persist, vars: { UPSTREAM_BASE_URL: `http://127.0.0.1:${upstreamPort}/v1`, UPSTREAM_TIMEOUT_MS: "1500" } });
  base = dev.base;
  stopWorker = dev.stop;
}

beforeAll(async () => {
  await buildDemo();
  await startUpstream();
  await startWorker();
}, 60_000);

afterAll(async () => {
  await stopWorker();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
  rmSync(persist, { recursive: true, force: true });
});

describe("wrangler dev, end to end", () => {
  it("streams a chat completion through the proxy, intact, to the official openai client", async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused-locally" });
    const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "What's the weather?" }] });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    const expected = REPLAY.toString("utf8")
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).choices[0]?.delta?.content ?? "")
      .join("");
    expect(text).toBe(expected);
    expect(text.length).toBeGreaterThan(50);
  });

  it("compacts a long conversation on its way to the upstream, which receives a valid, smaller request", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const before = received.length;
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-context-window": "32000", "x-session-id": "e2e" },
      body: JSON.stringify({ model: "gpt-4o", stream: true, messages }),
    });
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get("x-compaction-mode")).toBe("summary");
    expect(Number(res.headers.get("x-compaction-tokens-after"))).toBeLessThan(24_000);
    const sent = received[before].messages as Parameters<typeof openAIValidity>[0];
    expect(sent.length).toBeLessThan(messages.length);
    expect(openAIValidity(sent)).toEqual([]);
    expect(JSON.stringify(sent).length).toBeLessThan(JSON.stringify(messages).length / 4);
  });

  it("keeps session state across a restart of wrangler dev", async () => {
    const first = (await (await fetch(`${base}/v1/sessions/e2e`)).json()) as { state: { compactions: number } };
    expect(first.state.compactions).toBe(1);
    await stopWorker();
    await startWorker();
    const again = (await (await fetch(`${base}/v1/sessions/e2e`)).json()) as { state: { compactions: number }; reports: unknown[] };
    expect(again.state.compactions).toBe(1);
    expect(again.reports).toHaveLength(1);
  });

  it("answers 504 in the JSON error format when the upstream accepts and never answers", async () => {
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "silent", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: { type: "upstream_timeout" } });
  });

  it("refuses a page of another site without API_TOKEN, and answers every error as JSON", async () => {
    const body = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    const before = received.length;
    const drive = await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json", origin: "https://evil.example" }, body });
    expect(drive.status).toBe(401);
    expect(drive.headers.get("access-control-allow-origin")).toBeNull();
    expect(received.length).toBe(before); // the upstream was never called
    const preflight = await fetch(`${base}/v1/chat/completions`, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    for (const [init, status] of [
      [{ method: "POST", headers: { "content-type": "application/json" }, body: "{nope" }, 400],
      [{ method: "POST", headers: { "content-type": "text/plain" }, body }, 415],
      [{ method: "GET" }, 405],
    ] as const) {
      const res = await fetch(`${base}/v1/chat/completions`, init);
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBeTruthy();
    }
  });

  it("serves the demo at /", async () => {
    const res = await fetch(`${base}/`);
    expect(await res.text()).toMatch(/<title>context-compactor/);
  });
});
