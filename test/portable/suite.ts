// The portable suite: every public function of the core on real fixture transcripts, run unchanged in
// Node, Deno, workerd and Chromium. Web-standard APIs only, like the core itself.
import {
  HANDOFF_PREFIX,
  SummarizerError,
  anthropic,
  openAICompatible,
  workersAI,
  compact,
  createCompactor,
  deterministicSummarizer,
  estimateTokens,
  plan,
  redact,
  CompactionInputError,
  aiSdkMessages,
  anthropicMessages,
  type ChatMessage,
  type Dialect,
  type Summarizer,
} from "../../src/index.js";
import { speakerTurns, type Turn } from "../support/speaker-dialect.js";
import { convert, dialects, fromOpenAI } from "../../src/convert.js";
import { violations } from "../support/invariants.js";
import { validity } from "../support/validity.js";
import { sse, trajectories } from "./fixtures.gen.js";
import { assert, equal, same, test } from "./harness.js";

const fixtures = trajectories as { name: string; messages: ChatMessage[] }[];
const largest = fixtures.reduce((a, b) => (estimateTokens(b.messages) > estimateTokens(a.messages) ? b : a));
const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

test("fixtures are loaded", () => {
  equal(fixtures.length, 17, "fixture transcripts");
});

test("estimateTokens: text, CJK, images at a fixed price, whole transcripts", () => {
  // The same numbers in every runtime (exact o200k: 130 and 4).
  equal(estimateTokens("The build failed on step 3; rerun the tests.\n".repeat(10)), 118, "English text");
  equal(estimateTokens("修复测试失败"), 4, "CJK");
  const shot: ChatMessage = { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(500_000)}` } }] };
  assert(estimateTokens(shot) < 1700, "a 500 kB image costs the fixed estimate");
  assert(estimateTokens(largest.messages) > 100_000, "the largest fixture is over 100k tokens");
});

for (const contextWindow of [16_000, 64_000]) {
  test(`plan + compact (deterministic) keep every invariant on every fixture at ${contextWindow}`, async () => {
    for (const { name, messages } of fixtures) {
      const options = { contextWindow };
      const snapshot = JSON.stringify(messages);
      const p = plan(messages, options);
      const result = await compact(messages, options);
      same(violations({ input: messages, snapshot, plan: p, result }), [], `${name} at ${contextWindow}`);
    }
  });
}

test("compact with a fake streaming summarizer streams deltas into the handoff", async () => {
  const model: Summarizer = async function* (req) {
    assert(req.messages[0].role === "system", "the prompt starts with instructions");
    // It keeps the latest request ("continue"): a summary that lost it would get the ledgers appended.
    for (const part of ["## Active task\n", "> continue\n", "- keep going ", "on the epic"]) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      yield part;
    }
  };
  model.label = "fake-model";
  const deltas: string[] = [];
  const r = await compact(largest.messages, {
    contextWindow: 32_000,
    summarizer: model,
    onEvent: (e) => {
      if (e.type === "summary-delta") deltas.push(e.text);
    },
  });
  equal(r.report.mode, "summary", "mode");
  equal(r.report.summary?.summarizer, "fake-model", "summarizer");
  equal(deltas.join(""), "## Active task\n> continue\n- keep going on the epic", "streamed text");
  equal(r.report.summary?.check?.ledgersAppended, false, "the check passed");
  assert(r.messages.some((m) => text(m).startsWith(HANDOFF_PREFIX) && text(m).includes("on the epic")), "handoff carries the summary");
  assert(r.report.tokensAfter < 32_000 * 0.75, "fits under the threshold");
});

test("deterministicSummarizer works on its own", async () => {
  const s = deterministicSummarizer();
  const out = await s({ messages: [{ role: "user", content: "Fix the failing test in src/app.ts" }], maxOutputTokens: 1000 });
  assert(typeof out === "string" && out.includes("## Active task"), "it writes the checkpoint sections");
});

test("redact removes secret shapes and keeps ids", () => {
  const r = redact("key sk-proj-Zx81fQ2mN7pLkT3BlbkFJ3vT9wRy4uHs6dJc0bAe and id call_abc123 and 3f2504e0-4f89-11d3-9a0c-0305e82c3301");
  assert(!r.includes("Zx81fQ2mN7pLkT3BlbkFJ3vT9wRy4uHs6dJc0bAe"), "the key is gone");
  assert(r.includes("call_abc123") && r.includes("3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "ids stay");
});

test("redact reads a secret spelled in escapes (the escape pass's decoder runs on this runtime)", () => {
  // JSON and URL escapes decoded in windows, made a string by the runtime's UTF-16 decoder, or by
  // fromCharCode where the window holds an unpaired surrogate (the decoder, fatal, refuses it)
  const json = '{"msg":"api_key: \\u0041Zx81fQ2mN7pLk3vT9wRy"} and /q?token=%41Zx81fQ2mN7pLk3vT9wRy4u';
  for (const text of [json, json.replace("api_key", "\ud800 api_key")]) {
    const r = redact(text);
    assert(!r.includes("Zx81fQ2mN7pLk3vT9wRy"), "the escaped values are gone");
    assert(r.includes('{"msg":"') && r.includes("/q?token="), "the text around them stays");
    assert(r.includes("\ud800") === text.includes("\ud800"), "an unpaired surrogate stays where it was");
  }
});

test("createCompactor keeps state across passes and calibrates from usage", async () => {
  const c = createCompactor({ contextWindow: 32_000 });
  assert(c.shouldCompact(largest.messages), "the largest fixture needs compaction");
  const r = await c.compact(largest.messages);
  equal(c.state.compactions, 1, "compactions");
  assert(!c.shouldCompact(r.messages), "the result needs none");
  c.observeUsage({ prompt_tokens: 20_000 });
  assert(c.state.calibration !== undefined, "usage calibrates");
});

test("bad input is rejected with the index", () => {
  let error: unknown;
  try {
    plan([{ role: "user", content: "x" }, { role: "robot" } as never], { contextWindow: 1000 });
  } catch (e) {
    error = e;
  }
  assert(error instanceof CompactionInputError, "a CompactionInputError");
  equal(error.index, 1, "index");
});

/** A recorded stream, cut every `every` bytes, as a fetch Response. */
function replay(file: string, every = 7): Response {
  const bytes = new Uint8Array(sse[file]);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += every)));
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

async function read(s: Summarizer): Promise<string> {
  let text = "";
  for await (const d of s({ messages: [{ role: "user", content: "x" }], maxOutputTokens: 50 }) as AsyncIterable<string>) text += d;
  return text;
}

test("openAICompatible, anthropic and workersAI read recorded streams cut into small chunks", async () => {
  const fetchOf = (file: string) => (async () => replay(file)) as unknown as typeof fetch;
  const o = await read(openAICompatible({ model: "m", fetch: fetchOf("openai-chat__text-plain.txt") }));
  assert(o.startsWith("I'm unable to provide real-time weather updates"), `openai text: ${o.slice(0, 60)}`);
  const a = await read(anthropic({ model: "m", fetch: fetchOf("anthropic__sdk-basic-text.txt") }));
  equal(a, "Hello there!", "anthropic text");
  const w = await read(workersAI({ run: async () => replay("cloudflare__workers-ai-native-text.txt").body }, "@cf/m"));
  equal(w, "Hello chunk1Hello chunk2", "workers ai text");
});

test("a multi-byte character split across chunks arrives whole", async () => {
  const bytes = sse["sse-edge__multibyte-split-across-chunks.txt"];
  for (let every = 1; every <= 4; every++) {
    const body = replay("sse-edge__multibyte-split-across-chunks.txt", every).body!;
    const text = await new Response(body).text();
    equal(text, new TextDecoder().decode(new Uint8Array(bytes)), `cut every ${every} bytes`);
  }
});

test("an error event in a recorded stream is a classified failure, and compaction falls back", async () => {
  const s = openAICompatible({ model: "m", fetch: (async () => replay("openai-chat__ERROR-first-chunk.txt")) as unknown as typeof fetch });
  let kind = "";
  try {
    await read(s);
  } catch (e) {
    if (e instanceof SummarizerError) kind = e.kind;
  }
  equal(kind, "overloaded", "failure class");
  const r = await compact(largest.messages, { contextWindow: 32_000, summarizer: s });
  equal(r.report.mode, "fallback", "mode");
  equal(r.report.summary?.source, "deterministic", "summary source");
});

test("convert and compact the largest fixture with the anthropicMessages and aiSdkMessages dialect objects", async () => {
  for (const [dialect, object] of [["anthropic", anthropicMessages], ["ai-sdk", aiSdkMessages]] as const) {
    const c = fromOpenAI(largest.messages, dialect);
    same(c.lost, [], `${dialect}: nothing lost`);
    equal(dialects[dialect], object as unknown, `${dialect}: the converters name the same object`);
    const r = await compact(c.messages, { contextWindow: 32_000, dialect: object as Dialect<unknown>, system: c.system });
    equal(r.report.mode, "summary", `${dialect}: mode`);
    same(validity(dialect, r.messages), [], `${dialect}: valid`);
    const back = convert(r.messages, { from: dialect, to: "openai", system: r.system });
    assert(back.messages.length > 0, `${dialect}: converts back`);
  }
});

test("a dialect of the user's own ({ speaker, text } turns) compacts in its own format", async () => {
  const turns: Turn[] = largest.messages
    .filter((m) => m.role === "user" || (m.role === "assistant" && typeof m.content === "string" && m.content))
    .map((m) => ({ speaker: m.role === "user" ? "user" : "bot", text: text(m) }));
  const r = await compact(turns, { contextWindow: 8_000, dialect: speakerTurns });
  assert(r.report.mode === "summary", `mode ${r.report.mode}`);
  assert(r.messages.some((t) => t.text.startsWith(HANDOFF_PREFIX)), "a handoff turn");
  equal(r.messages.at(-1), turns.at(-1), "the last turn is the same object");
});
