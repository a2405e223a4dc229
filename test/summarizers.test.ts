// The fetch-based summarizers on every recorded SSE stream, split at random chunk boundaries.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SummarizerError, anthropic, compact, openAICompatible, plan, workersAI, type FailureKind, type Summarizer } from "../src/index.js";
import { notCheckpoint } from "../src/summarize/check.js";
import { eventsOf, sseEvents } from "../src/summarizers/sse.js";
import { violations } from "./support/invariants.js";
import { trajectory } from "./support/fixtures.js";
import { fakeFetch, sseBytes, sseFiles, sseResponse, chunked, type Captured } from "./support/sse.js";

/** Failure class of each recorded stream that must fail; every other one must yield its text. */
const FAILS: Record<string, FailureKind> = {
  "openai-chat__max-tokens-length.txt": "truncated",
  "openai-chat__refusal.txt": "refusal",
  "openai-chat__refusal-logprobs.txt": "refusal",
  "openai-chat__ERROR-first-chunk.txt": "overloaded",
  "openai-chat__ERROR-first-chunk-400.txt": "http",
  "openai-chat__MALFORMED-unparsable.txt": "malformed",
  "anthropic__sdk-max-tokens-partial-json.txt": "truncated",
  "anthropic__sdk-thinking-refusal.txt": "refusal",
  "anthropic__sdk-ERROR-overloaded.txt": "overloaded",
  "anthropic__vercel-refusal.txt": "refusal",
  "anthropic__vercel-MALFORMED-duplicate-message-start.txt": "malformed",
  "anthropic__vercel-ERROR-CUTOFF-after-ping.txt": "error",
  "anthropic__vercel-ERROR-overloaded-first.txt": "overloaded",
  "cloudflare__workers-ai-finish-error.txt": "error",
};

/** The expected text, by a deliberately different reader: whole file, blank-line split, no streaming. */
function referenceText(file: string): string {
  const text = new TextDecoder().decode(sseBytes(file));
  let out = "";
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    if (!data || data === "[DONE]") continue;
    const j = JSON.parse(data);
    if (file.startsWith("anthropic")) out += j.type === "content_block_delta" && j.delta.type === "text_delta" ? j.delta.text : "";
    else out += j.response ?? j.choices?.find((c: any) => (c.index ?? 0) === 0)?.delta?.content ?? "";
  }
  return out;
}

const providerFiles = sseFiles().filter((f) => !f.startsWith("sse-edge"));

function summarizerFor(file: string, respond: () => Response, seen?: Captured[]): Summarizer {
  const fetch = fakeFetch(respond, seen);
  if (file.startsWith("anthropic")) return anthropic({ model: "claude-test", apiKey: "k", fetch });
  if (file.startsWith("cloudflare")) {
    return workersAI({ run: async () => respond().body! }, "@cf/test");
  }
  return openAICompatible({ model: "gpt-test", apiKey: "k", fetch });
}

async function outcome(s: Summarizer): Promise<{ text: string } | { kind: FailureKind }> {
  let text = "";
  try {
    for await (const d of s({ messages: [{ role: "user", content: "summarize" }], maxOutputTokens: 100 }) as AsyncIterable<string>) text += d;
    return { text };
  } catch (e) {
    if (e instanceof SummarizerError) return { kind: e.kind };
    throw e;
  }
}

describe("SSE parsing", () => {
  it("keeps multi-byte characters whole when chunks split them anywhere", async () => {
    const bytes = sseBytes("sse-edge__multibyte-split-across-chunks.txt");
    const whole = await collect(eventsOf(chunked(bytes)));
    for (let cut = 0; cut <= bytes.length; cut++) expect(await collect(eventsOf(chunked(bytes, [cut])))).toEqual(whole);
    expect(whole[0].data).toMatch(/[^\x00-\x7f]/);
  });

  it("joins multiple data lines, empty ones included", async () => {
    const events = await collect(eventsOf(chunked(sseBytes("sse-edge__multiple-data-lines.txt"))));
    expect(events).toEqual([{ event: "ping", data: '{\n"foo":\n\n\ntrue}' }]);
  });

  it("dispatches nothing for events without data", async () => {
    expect(await collect(eventsOf(chunked(sseBytes("sse-edge__event-without-data.txt"))))).toEqual([]);
  });

  it("handles CRLF, lone CR, comments and a CRLF split across chunks", async () => {
    const text = ": comment\r\ndata: a\r\ndata: b\r\n\r\nevent: x\rdata: c\r\rdata:d\n\n";
    for (let cut = 0; cut <= text.length; cut++) {
      const events = await collect(stringStream([text.slice(0, cut), text.slice(cut)]).pipeThrough(sseEvents()));
      expect(events).toEqual([
        { event: "message", data: "a\nb" },
        { event: "x", data: "c" },
        { event: "message", data: "d" },
      ]);
    }
  });

  it("drops an event that the stream cuts off before its blank line", async () => {
    expect(await collect(stringStream(["data: whole\n\ndata: half"]).pipeThrough(sseEvents()))).toEqual([{ event: "message", data: "whole" }]);
  });
});

describe.each(providerFiles)("%s", (file) => {
  const bytes = sseBytes(file);
  const expected = FAILS[file] ? { kind: FAILS[file] } : { text: referenceText(file) };

  it("gives the expected text or failure class, wherever the chunks are cut", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), async (cuts) => {
        expect(await outcome(summarizerFor(file, () => sseResponse(bytes, cuts)))).toEqual(expected);
      }),
      { numRuns: 40 },
    );
    // and byte by byte (every 61st byte for the long ones)
    const step = bytes.length > 20_000 ? 61 : 1;
    const cuts = Array.from({ length: Math.ceil(bytes.length / step) }, (_, i) => i * step);
    expect(await outcome(summarizerFor(file, () => sseResponse(bytes, cuts)))).toEqual(expected);
  });

  it("drives a compaction to a valid transcript, noting any fallback", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const options = { contextWindow: 32_000, summarizer: summarizerFor(file, () => sseResponse(bytes)) };
    const snapshot = JSON.stringify(messages);
    const result = await compact(messages, options);
    expect(violations({ input: messages, snapshot, plan: plan(messages, options), result })).toEqual([]);
    // These recordings answer the providers' sample prompts, not a checkpoint: a text without the
    // checkpoint's sections is refused like an empty one, and the deterministic checkpoint stands in.
    const kind = "kind" in expected ? expected.kind : expected.text.trim() === "" ? "empty" : notCheckpoint(expected.text) && "malformed";
    expect(result.report.mode).toBe(kind ? "fallback" : "summary");
    if (kind) {
      expect(result.report.summary?.source).toBe("deterministic");
      expect(result.report.failures[0].kind).toBe(kind);
      expect(result.report.warnings.some((w) => w.includes(result.report.failures[0].kind))).toBe(true);
    }
  });
});

describe("HTTP failures are classified", () => {
  it.each([
    [401, "auth"],
    [403, "auth"],
    [404, "not_found"],
    [408, "timeout"],
    [504, "timeout"],
    [429, "rate_limit"],
    [500, "overloaded"],
    [503, "overloaded"],
    [529, "overloaded"],
    [400, "http"],
  ] as const)("%i → %s, with the provider's message", async (status, kind) => {
    const body = JSON.stringify({ error: { message: `upstream said ${status}` } });
    for (const make of [openAICompatible, anthropic]) {
      const s = make({ model: "m", fetch: fakeFetch(() => new Response(body, { status })) });
      const error = await (async () => {
        try {
          for await (const _ of s({ messages: [], maxOutputTokens: 1 }) as AsyncIterable<string>);
        } catch (e) {
          return e as SummarizerError;
        }
      })();
      expect(error).toBeInstanceOf(SummarizerError);
      expect(error!.kind).toBe(kind);
      expect(error!.message).toBe(`HTTP ${status}: upstream said ${status}`);
    }
  });

  it("a network error is classified as network", async () => {
    const s = openAICompatible({ model: "m", fetch: (async () => { throw new TypeError("fetch failed"); }) as typeof fetch });
    expect(await outcome(s)).toEqual({ kind: "network" });
  });
});

describe("requests", () => {
  it("openAICompatible posts a streamed chat completion to baseURL/chat/completions", async () => {
    const seen: Captured[] = [];
    const s = openAICompatible({ baseURL: "http://x.test/v1/", apiKey: "sk-test", model: "m1", headers: { "x-extra": "1" }, fetch: fakeFetch(() => sseResponse(sseBytes("openai-chat__text-plain.txt")), seen) });
    await outcome(s);
    expect(seen[0].url).toBe("http://x.test/v1/chat/completions");
    expect(seen[0].init.headers).toMatchObject({ authorization: "Bearer sk-test", "x-extra": "1", accept: "text/event-stream" });
    expect(seen[0].body).toMatchObject({ model: "m1", stream: true, max_tokens: 100 });
    expect(s.label).toBe("openai:m1");
  });

  it("anthropic posts to baseURL/v1/messages with the system prompt apart", async () => {
    const seen: Captured[] = [];
    const s = anthropic({ apiKey: "k1", model: "claude-x", fetch: fakeFetch(() => sseResponse(sseBytes("anthropic__sdk-basic-text.txt")), seen) });
    for await (const _ of s({ messages: [{ role: "system", content: "rules" }, { role: "user", content: "go" }], maxOutputTokens: 50 }) as AsyncIterable<string>);
    expect(seen[0].url).toBe("https://api.anthropic.com/v1/messages");
    expect(seen[0].init.headers).toMatchObject({ "x-api-key": "k1", "anthropic-version": "2023-06-01" });
    expect(seen[0].body).toMatchObject({ system: "rules", messages: [{ role: "user", content: "go" }], max_tokens: 50, stream: true });
  });

  it("workersAI also accepts a non-streamed {response}", async () => {
    const s = workersAI({ run: async () => ({ response: "## Active task\n- x" }) }, "@cf/m");
    expect(await outcome(s)).toEqual({ text: "## Active task\n- x" });
  });

  it("the prompt that leaves the process is redacted and bounded", async () => {
    const seen: Captured[] = [];
    const secret = "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe12345";
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const planted = messages.map((m, i) => (i === 100 && m.role === "tool" ? { ...m, content: `${m.content}\nexport GITHUB_TOKEN=${secret}` } : m));
    expect(JSON.stringify(planted)).toContain(secret);
    const s = openAICompatible({ model: "m", fetch: fakeFetch(() => sseResponse(sseBytes("openai-chat__text-plain.txt")), seen) });
    const r = await compact(planted, { contextWindow: 32_000, summarizer: s });
    expect(r.report.failures).toMatchObject([{ summarizer: "openai:m", kind: "malformed" }]); // the recording is no checkpoint; what was sent is the point
    const sent = JSON.stringify(seen[0].body);
    expect(sent).not.toContain(secret);
    expect(sent.length).toBeLessThan(200_000);
  });
});

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of stream as unknown as AsyncIterable<T>) out.push(x);
  return out;
}

function stringStream(parts: string[]): ReadableStream<string> {
  return new ReadableStream({
    start(c) {
      for (const p of parts) if (p) c.enqueue(p);
      c.close();
    },
  });
}
