// The summarizers against a real HTTP server on 127.0.0.1: slow streams, dropped connections, silence.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SummarizerError, compact, openAICompatible, type Summarizer } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";
import { sseBytes } from "./support/sse.js";

const FIXTURE = sseBytes("openai-chat__text-plain.txt");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let base = "";

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  // The fixture, one event every 15 ms.
  "/slow/chat/completions": async (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const event of new TextDecoder().decode(FIXTURE).split(/(?<=\n\n)/)) {
      res.write(event);
      await sleep(15);
    }
    res.end();
  },
  // Half the fixture, then the connection is destroyed.
  "/drop/chat/completions": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(FIXTURE.slice(0, FIXTURE.length >> 1), () => setTimeout(() => res.socket?.destroy(), 20));
  },
  // Headers and nothing else, ever.
  "/silent/chat/completions": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.flushHeaders();
  },
  // Never even answers.
  "/never/chat/completions": () => {},
};

const server = createServer((req, res) => (routes[req.url ?? ""] ?? ((_q, s) => s.writeHead(404).end()))(req, res));
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

async function run(s: Summarizer, signal?: AbortSignal): Promise<string> {
  let text = "";
  for await (const d of s({ messages: [{ role: "user", content: "x" }], maxOutputTokens: 50, signal }) as AsyncIterable<string>) text += d;
  return text;
}

async function failure(p: Promise<unknown>): Promise<SummarizerError> {
  try {
    await p;
  } catch (e) {
    return e as SummarizerError;
  }
  throw new Error("no failure");
}

describe("a real local server", () => {
  it("streams a slow answer through whole, delta by delta", async () => {
    const deltas: string[] = [];
    const s = openAICompatible({ baseURL: `${base}/slow`, model: "m", timeoutMs: 2_000 });
    for await (const d of s({ messages: [], maxOutputTokens: 50 }) as AsyncIterable<string>) deltas.push(d);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toMatch(/^I'm unable to provide real-time weather updates/);
  });

  it("a connection dropped mid-stream is a cut-off stream", async () => {
    const e = await failure(run(openAICompatible({ baseURL: `${base}/drop`, model: "m", timeoutMs: 2_000 })));
    expect(e).toBeInstanceOf(SummarizerError);
    expect(e.kind).toBe("cut_off");
  });

  it("a stream that goes silent times out", async () => {
    const e = await failure(run(openAICompatible({ baseURL: `${base}/silent`, model: "m", timeoutMs: 300 })));
    expect(e.kind).toBe("timeout");
    expect(e.message).toBe("no data for 300 ms");
  });

  it("a server that never answers times out, and the request is aborted", async () => {
    const signals: AbortSignal[] = [];
    const spy: typeof fetch = (url, init) => {
      signals.push(init!.signal!);
      return fetch(url, init);
    };
    const e = await failure(run(openAICompatible({ baseURL: `${base}/never`, model: "m", timeoutMs: 300, fetch: spy })));
    expect(e.kind).toBe("timeout");
    expect(signals[0].aborted).toBe(true);
  });

  it("an abort stops the request at once and compact returns the input unchanged", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const spy: typeof fetch = (url, init) => {
      signals.push(init!.signal!);
      setTimeout(() => controller.abort(), 50);
      return fetch(url, init);
    };
    const r = await compact(messages, {
      contextWindow: 32_000,
      signal: controller.signal,
      summarizer: openAICompatible({ baseURL: `${base}/never`, model: "m", timeoutMs: 60_000, fetch: spy }),
    });
    expect(r.report.mode).toBe("aborted");
    expect(r.messages).toBe(messages);
    expect(signals).toHaveLength(1);
    expect(signals[0].aborted).toBe(true); // the HTTP request itself was aborted, not left running
  });

  it("a timed-out primary falls back to the deterministic summary and cools down", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const s = openAICompatible({ baseURL: `${base}/silent`, model: "m", timeoutMs: 200 });
    const r = await compact(messages, { contextWindow: 32_000, summarizer: s, now: () => 0 });
    expect(r.report.mode).toBe("fallback");
    expect(r.report.failures).toMatchObject([{ summarizer: "openai:m", kind: "timeout" }]);
    expect(r.state.cooldowns["openai:m"]).toMatchObject({ kind: "timeout", until: 60_000 });
  });
});
