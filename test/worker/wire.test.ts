// The pieces every proxy route shares: which headers pass on, which errors are overflows and the
// window a retry compacts for, and the error event that ends a cut stream in each SSE format.
import { describe, expect, it } from "vitest";
import { overflowOf, retryWindow, outputReserve } from "../../workers/overflow.js";
import { UpstreamTimeout, cutAware, streamErrorEvent } from "../../workers/upstream.js";
import { forwardedHeaders, upstreamUrl } from "../../workers/wire.js";

describe("forwardedHeaders", () => {
  it("passes the client's own headers on, never hop-by-hop ones, credentials, the worker's own or the edge's", () => {
    const client = new Headers({
      "anthropic-beta": "context-1m-2025-08-07",
      "x-app": "cli",
      "x-stainless-retry-count": "0",
      connection: "keep-alive, x-private-hop",
      "x-private-hop": "1",
      "keep-alive": "timeout=5",
      "transfer-encoding": "chunked",
      te: "trailers",
      trailer: "x",
      upgrade: "h2c",
      "proxy-authorization": "Basic eA==",
      host: "worker.example",
      "content-length": "12",
      authorization: "Bearer worker-token",
      "x-api-key": "worker-token",
      cookie: "a=b",
      "x-session-id": "s",
      "x-context-window": "1000",
      "cf-connecting-ip": "203.0.113.9",
      "x-forwarded-for": "203.0.113.9",
    });
    const out = forwardedHeaders(client, { "x-api-key": "sk-upstream", authorization: undefined });
    expect([...out.keys()].sort()).toEqual(["anthropic-beta", "x-api-key", "x-app", "x-stainless-retry-count"]);
    expect(out.get("x-api-key")).toBe("sk-upstream");
  });

  it("keeps the client's query string", () => {
    expect(upstreamUrl("http://a.test/", "/v1/messages", "http://localhost/v1/messages?beta=true")).toBe("http://a.test/v1/messages?beta=true");
    expect(upstreamUrl("http://a.test/v1", "/chat/completions", "http://localhost/v1/chat/completions")).toBe("http://a.test/v1/chat/completions");
  });
});

describe("overflowOf", () => {
  it("reads each provider's context-overflow error, and nothing else", () => {
    const anthropic = (message: string) => JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } });
    expect(overflowOf(400, anthropic("prompt is too long: 208310 tokens > 200000 maximum"))).toEqual({ counted: 208_310, limit: 200_000 });
    expect(overflowOf(400, anthropic("input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again"))).toEqual({ counted: 188_240, limit: 200_000 });
    const openai = JSON.stringify({ error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130411 tokens. Please reduce the length of the messages.", type: "invalid_request_error", code: "context_length_exceeded" } });
    expect(overflowOf(400, openai)).toEqual({ limit: 128_000, counted: 130_411 });
    const responses = JSON.stringify({ error: { message: "Your input exceeds the context window of this model. Please adjust your input and try again.", type: "invalid_request_error", code: "context_length_exceeded" } });
    expect(overflowOf(400, responses)).toEqual({});
    expect(overflowOf(400, anthropic("messages.1: tool_use ids must be unique"))).toBeUndefined();
    expect(overflowOf(429, anthropic("prompt is too long: 2 tokens > 1 maximum"))).toBeUndefined();
    expect(overflowOf(500, openai)).toBeUndefined();
  });

  it("retries for the stated limit scaled by how far the estimate fell short, or 80 % of the window, always smaller", () => {
    expect(retryWindow(200_000, 150_000, { counted: 250_000, limit: 200_000 })).toBe(120_000);
    expect(retryWindow(200_000, 190_000, { limit: 180_000 })).toBe(180_000);
    expect(retryWindow(100_000, 90_000, {})).toBe(80_000);
    expect(retryWindow(100_000, 90_000, { limit: 400_000 })).toBe(95_000);
    expect(outputReserve(32_000, 20_000)).toBe(10_000);
    expect(outputReserve(1_000, 20_000)).toBe(1_000);
    expect(outputReserve(undefined, 20_000)).toBeUndefined();
  });
});

describe("a cut stream", () => {
  const cut = (chunks: string[], err: unknown) => {
    let i = 0;
    return new ReadableStream<Uint8Array>({
      pull: (c) => (i < chunks.length ? c.enqueue(new TextEncoder().encode(chunks[i++])) : c.error(err)),
    });
  };

  it.each([
    ["anthropic", 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"the upstream stream was cut: the upstream sent nothing for 5 ms"}}\n\n'],
    ["openai-chat", 'data: {"error":{"type":"upstream_timeout","code":"upstream_timeout","message":"the upstream stream was cut: the upstream sent nothing for 5 ms"}}\n\n'],
    ["responses", 'event: error\ndata: {"type":"error","code":"upstream_timeout","message":"the upstream stream was cut: the upstream sent nothing for 5 ms","param":null}\n\n'],
  ] as const)("ends in %s's own error event, on an event boundary", async (format, event) => {
    expect(streamErrorEvent(format, new UpstreamTimeout(5))).toBe(event);
    expect(await new Response(cutAware(cut(["data: {}\n\n"], new UpstreamTimeout(5)), format)).text()).toBe(`data: {}\n\n${event}`);
    expect(await new Response(cutAware(cut(["data: {", "\"a\":1}\n"], new UpstreamTimeout(5)), format)).text()).toBe(`data: {"a":1}\n\n${event}`);
    expect(await new Response(cutAware(cut(["data: {\"a\""], new UpstreamTimeout(5)), format)).text()).toBe(`data: {"a"\n\n${event}`);
  });

  it("passes a stream that ends normally through untouched", async () => {
    const body = new Response("event: message_stop\ndata: {}\n\n").body!;
    expect(await new Response(cutAware(body, "anthropic")).text()).toBe("event: message_stop\ndata: {}\n\n");
  });

  it("says what broke without quoting a key the error carried", async () => {
    const key = "sk-ant-api03-" + "abcdefghij0123456789".repeat(4);
    const text = streamErrorEvent("anthropic", new TypeError(`fetch to https://x.test/?key=${key} failed`));
    expect(text).toContain('"api_error"');
    expect(text).not.toContain(key.slice(13));
  });
});
