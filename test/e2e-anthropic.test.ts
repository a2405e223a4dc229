// End to end for Anthropic clients: `wrangler dev` as deployed, the official @anthropic-ai/sdk client,
// and an upstream on 127.0.0.1 that replays recorded Anthropic streams (with its own count of the
// input tokens it received, as a provider reports them).
import Anthropic from "@anthropic-ai/sdk";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fromOpenAI } from "../src/convert.js";
import { anthropicMessages, estimateTokens, type AnthropicMessage } from "../src/index.js";
import { tiktokenCounter } from "../src/tiktoken.js";
import { MessageStream } from "@anthropic-ai/sdk/lib/MessageStream.js";
import { Stream } from "@anthropic-ai/sdk/streaming";
import { trajectory } from "./support/fixtures.js";
import { readmeBlocks, runBlock } from "./support/readme.js";
import { SSE_DIR } from "./support/sse.js";
import { anthropicValidity } from "./support/validity.js";
import { buildDemo } from "../tools/build-demo.mjs";
import { startWranglerDev } from "../tools/dev-server.mjs";

const REPLAYS = ["anthropic__sdk-tool-use.txt", "anthropic__sdk-basic-text.txt", "anthropic__sdk-basic-text.txt", "anthropic__sdk-basic-text.txt"].map((f) => readFileSync(`${SSE_DIR}${f}`, "utf8"));
const count = tiktokenCounter();

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: { model: string; system?: unknown; messages: AnthropicMessage[] };
  /** What the upstream wrote back, byte for byte. */
  sent: string;
}
const received: Received[] = [];
let upstream: Server;
let base = "";
let stopWorker = async () => {};

/** The recorded stream for the nth request, its message_start counting what this request really holds. */
function replay(n: number, inputTokens: number): string {
  return REPLAYS[n].replace(/"input_tokens":\d+/, `"input_tokens":${inputTokens}`);
}

function startUpstream(): Promise<number> {
  upstream = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", async () => {
      const body = JSON.parse(text);
      const stream = replay(received.length, count(JSON.stringify(body.system ?? "") + JSON.stringify(body.messages)));
      if (body.stream !== true) {
        // Not streamed: the recorded stream's message, as the API answers it in one JSON body.
        const message = JSON.stringify(await MessageStream.fromReadableStream(Stream.fromSSEResponse(new Response(stream), new AbortController()).toReadableStream()).finalMessage());
        received.push({ headers: req.headers, body, sent: message });
        res.writeHead(200, { "content-type": "application/json" }).end(message);
        return;
      }
      received.push({ headers: req.headers, body, sent: stream });
      res.writeHead(200, { "content-type": "text/event-stream", "request-id": `req_${received.length}` });
      for (const event of stream.split(/(?<=\n\n)/)) {
        res.write(event);
        await new Promise((r) => setTimeout(r, 2));
      }
      res.end();
    });
  });
  return new Promise((r) => upstream.listen(0, "127.0.0.1", () => r((upstream.address() as AddressInfo).port)));
}

/** The worker's state and the demo it serves, removed when the file is done. */
const temporary = [mkdtempSync(`${tmpdir()}/compactor-anthropic-`), mkdtempSync(`${tmpdir()}/compactor-demo-`)];

beforeAll(async () => {
  const port = await startUpstream();
  const dev = await startWranglerDev({
    persist: temporary[0],
    assets: await buildDemo(temporary[1]),
    vars: { ANTHROPIC_UPSTREAM_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: "sk-ant-local-upstream" },
  });
  base = dev.base;
  stopWorker = dev.stop;
}, 60_000);

afterAll(async () => {
  await stopWorker();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

// A recorded session (it ends with the assistant's answer), and the user's next request.
const recorded = fromOpenAI(trajectory("claude-code-spotter__4d5611e5-241a").messages, "anthropic").messages as AnthropicMessage[];
const ASK: AnthropicMessage = { role: "user", content: "Check the weather in San Francisco before the demo." };
const long = [...recorded, ASK];
const SYSTEM = "You are a coding agent working in the spotter repository.";
const tokens = (messages: AnthropicMessage[]) => estimateTokens(messages, { dialect: anthropicMessages });
const client = (session: string) => new Anthropic({ baseURL: base, apiKey: "unused-locally", defaultHeaders: { "x-session-id": session, "x-context-window": "32000" } });

describe("wrangler dev, end to end, with the official Anthropic client", () => {
  let first: Anthropic.Message;

  it("compacts a long conversation on the way: the upstream receives fewer tokens, a valid transcript, and the client the stream byte for byte", async () => {
    const raw = await client("anthropic-e2e")
      .messages.create({ model: "claude-sonnet-5-5", max_tokens: 1024, system: SYSTEM, messages: long as Anthropic.MessageParam[], stream: true })
      .asResponse();
    expect(raw.status).toBe(200);
    expect(raw.headers.get("x-compaction-mode")).toBe("summary");
    const parsed = raw.clone();
    const bytes = await raw.text();

    const got = received[0];
    expect(bytes).toBe(got.sent);
    expect(got.headers["x-api-key"]).toBe("sk-ant-local-upstream");
    expect(anthropicValidity(got.body.messages)).toEqual([]);
    expect(got.body.messages.length).toBeLessThan(long.length);
    expect(tokens(got.body.messages)).toBeLessThan(tokens(long) / 4);
    expect(tokens(got.body.messages)).toBeLessThan(32_000 - 1024);
    expect(String(got.body.system)).toMatch(new RegExp(`^${SYSTEM}\\n\\n`));
    // The latest user message reaches the upstream verbatim.
    expect(got.body.messages.at(-1)).toEqual(ASK);

    // The same bytes, parsed by the SDK's own stream reader: the recorded tool call.
    first = await MessageStream.fromReadableStream(Stream.fromSSEResponse(parsed, new AbortController()).toReadableStream()).finalMessage();
    expect(first.content.some((b) => b.type === "tool_use")).toBe(true);
  });

  it("a second request of the session reuses its compacted span (no new pass, the first upstream body as its prefix) and its calibration, read by the SDK's stream helper", async () => {
    // The first answer's usage calibrates the session once its stream has ended (waitUntil).
    let before = await session("anthropic-e2e");
    while (!before.state.calibration) before = await session("anthropic-e2e");
    expect(before.state.compactions).toBe(1);
    expect(before.state.previousSummary).toBeTruthy();

    const call = first.content.find((b) => b.type === "tool_use")!;
    const next: Anthropic.MessageParam[] = [
      ...(long as Anthropic.MessageParam[]),
      { role: "assistant", content: first.content as Anthropic.ContentBlockParam[] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "Sunny, 21 °C" }] },
    ];
    const request = { model: "claude-sonnet-5-5", max_tokens: 1024, system: SYSTEM, messages: next };
    const stream = client("anthropic-e2e").messages.stream(request);
    const { response } = await stream.withResponse();
    expect(await stream.finalMessage()).toMatchObject({ content: [{ type: "text", text: "Hello there!" }] });
    const got = received[1];
    expect(anthropicValidity(got.body.messages)).toEqual([]);
    expect(got.body.messages.at(-1)).toEqual(next.at(-1));
    expect(tokens(got.body.messages)).toBeLessThan(tokens(next as AnthropicMessage[]) / 4);

    // Under the threshold with the span substituted: the first upstream body, then the new turns.
    expect(response.headers.get("x-compaction-mode")).toBe("reused");
    expect(got.body.messages.slice(0, received[0].body.messages.length)).toEqual(received[0].body.messages);
    expect(got.body.system).toEqual(received[0].body.system);
    const after = await session("anthropic-e2e");
    expect(after.state.compactions).toBe(1);
    expect(after.reports).toHaveLength(1);
    // The session's calibration scaled its estimate: the same request in a fresh session is counted raw.
    const fresh = await client("anthropic-e2e-fresh").messages.create({ ...request, stream: true }).asResponse();
    await fresh.text();
    const raw = Number(fresh.headers.get("x-compaction-tokens-before"));
    const calibrated = Number(response.headers.get("x-compaction-tokens-before"));
    const { ratio } = before.state.calibration!;
    expect(Math.abs(ratio - 1)).toBeGreaterThan(0.05); // the provider's count really differs from the estimate
    expect(Math.abs(calibrated / (raw * ratio) - 1)).toBeLessThan(0.01); // per-text rounding aside
  });
});

interface Session {
  state: { compactions: number; previousSummary?: string; calibration?: { ratio: number; samples: number } };
  reports: unknown[];
}
const session = async (id: string) => (await (await fetch(`${base}/v1/sessions/${id}`)).json()) as Session;

describe('README "In front of Anthropic clients", run as written against the worker', () => {
  it("compacts two long sessions (~270k tokens) for a 200k model, prints the mode and the answer", async () => {
    const [block] = readmeBlocks("In front of Anthropic clients");
    const messages = [...recorded, ...(fromOpenAI(trajectory("claude-code-spotter__fa812bfe-b295").messages, "anthropic").messages as AnthropicMessage[]), ASK];
    expect(anthropicValidity(messages)).toEqual([]);
    expect(tokens(messages)).toBeGreaterThan(200_000);
    process.env.COMPACTOR_URL = base;
    process.env.COMPACTOR_TOKEN = "unused-locally";
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await runBlock(block, "anthropic", { messages });
    const [mode, content] = log.mock.calls[0];
    log.mockRestore();
    // It printed how the worker compacted, and the upstream's answer as the SDK read it.
    const got = received.at(-1)!;
    expect(["prune", "summary"]).toContain(mode);
    expect(content).toEqual(JSON.parse(got.sent).content);
    expect(anthropicValidity(got.body.messages)).toEqual([]);
    expect(tokens(got.body.messages)).toBeLessThan(tokens(messages) / 2);
    expect((await session("agent-7")).state.compactions).toBe(1);
  });
});
