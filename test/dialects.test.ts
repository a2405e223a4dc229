// Anthropic Messages and AI SDK ModelMessage: each compacted by its own rules, untouched messages kept.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  HANDOFF_PREFIX,
  SYSTEM_NOTE,
  aiSdkMessages,
  anthropicMessages,
  compact,
  estimateTokens,
  plan,
  type AnthropicMessage,
  type DialectName,
  type ModelMessage,
} from "../src/index.js";
import { convert, detectDialect, dialects, fromOpenAI, toOpenAI } from "../src/convert.js";
import { options, transcript } from "./support/arbitraries.js";
import { trajectories } from "./support/fixtures.js";
import { violations } from "./support/invariants.js";
import { validity } from "./support/validity.js";

const DIALECTS: DialectName[] = ["anthropic", "ai-sdk"];
const WINDOWS = [16_000, 32_000, 64_000];

async function check(dialect: DialectName, messages: unknown[], opts: Parameters<typeof plan>[1], system?: string) {
  const o = { ...opts, dialect: dialects[dialect], system };
  const snapshot = JSON.stringify(messages);
  const p = plan(messages, o);
  const result = await compact(messages as any[], o);
  return { result, problems: violations({ input: messages as any[], snapshot, plan: p, result, dialect }) };
}

describe.each(DIALECTS)("%s", (dialect) => {
  describe.each(trajectories())("$name", ({ messages }) => {
    const converted = fromOpenAI(messages, dialect);

    it("converts from OpenAI into a valid transcript, losing nothing", () => {
      expect(converted.lost).toEqual([]);
      // Plain text transcripts look the same in every dialect; tool calls tell them apart.
      if (messages.some((m) => m.tool_calls?.length)) expect(detectDialect(converted.messages)).toBe(dialect);
    });

    it.each(WINDOWS)("compacts at %i tokens by the dialect's own rules", async (contextWindow) => {
      const { result, problems } = await check(dialect, converted.messages, { contextWindow }, converted.system);
      expect(problems).toEqual([]);
      if (dialect === "anthropic" && result.report.mode !== "noop" && converted.system !== undefined) {
        expect(result.system).toBe(`${converted.system}\n\n${SYSTEM_NOTE}`);
        expect(result.report.systemChanged).toBe(true);
      }
    });
  });

  it("keeps the invariants over generated transcripts", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, async (t, opts) => {
        const c = fromOpenAI(t, dialect);
        const { problems } = await check(dialect, c.messages, opts, c.system);
        expect(problems).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("anthropic specifics", () => {
  const thinking = { type: "thinking", thinking: "Let me check the tests first.", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" };
  function session(turns: number): AnthropicMessage[] {
    const m: AnthropicMessage[] = [{ role: "user", content: "Fix the failing test." }];
    for (let i = 0; i < turns; i++) {
      // Long reasoning and short results (the tests give a runway that pruning old thinking cannot reach: the middle needs a summary).
      m.push({ role: "assistant", content: [{ ...thinking, thinking: `Step ${i}: ${"check the failing assertion again. ".repeat(30)}` }, { type: "tool_use", id: `tu_${i}`, name: "Bash", input: { command: `npm test ${i}` } }] });
      m.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: `FAIL src/app${i}.test.ts` }] });
    }
    m.push({ role: "assistant", content: [{ ...thinking }, { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "x" } }, { type: "web_search_tool_result", tool_use_id: "srv_1", content: [] }, { type: "text", text: "Found it." }] });
    m.push({ role: "user", content: "Good, now commit." });
    return m;
  }

  it("a thinking block with its signature in the tail comes back byte-identical", async () => {
    const m = session(40);
    const o = { contextWindow: 16_000, dialect: anthropicMessages, system: "You are careful.", runway: 11_000 };
    const p = plan(m, o);
    const r = await compact(m, o);
    expect(r.report.mode).not.toBe("noop");
    const tail = m.slice(p.tail.start + (p.seam === "merge" ? 1 : 0)); // a merged first message is rewritten
    for (const msg of tail) expect(r.messages).toContain(msg);
    expect(JSON.stringify(r.messages.at(-2))).toBe(JSON.stringify(m.at(-2)));
    expect(validity("anthropic", r.messages)).toEqual([]);
    expect(r.system).toBe(`You are careful.\n\n${SYSTEM_NOTE}`);
  });

  it("a handoff merged into an assistant message goes after its thinking blocks", async () => {
    // Head ends with a user message and the tail starts with an assistant message: both roles collide.
    const m = session(40);
    const o = { contextWindow: 16_000, dialect: anthropicMessages, headMessages: 1, tailTokens: 10, runway: 11_000 };
    const p = plan(m, o);
    expect(p.seam).toBe("merge");
    const r = await compact(m, o);
    const merged = r.messages[1] as AnthropicMessage;
    const blocks = merged.content as { type: string; text?: string }[];
    expect(blocks[0].type).toBe("thinking");
    expect(blocks[1].text).toMatch(new RegExp(`^\\${HANDOFF_PREFIX}`));
    expect(validity("anthropic", r.messages)).toEqual([]);
  });

  it("a tool_result holding an image costs the fixed image estimate", () => {
    const withImage: AnthropicMessage = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "screenshot" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "A".repeat(400_000) } }] }],
    };
    const t = estimateTokens(withImage, { dialect: anthropicMessages });
    expect(t).toBeGreaterThanOrEqual(1600);
    expect(t).toBeLessThan(1650);
  });

  it("rejects an unknown role inside messages with a clear error", () => {
    expect(() => plan([{ role: "tool", content: "x" }] as never, { contextWindow: 1000, dialect: anthropicMessages })).toThrow(/messages\[0\]: role: role must be "user", "assistant" or "system"/);
  });
});

describe("ai-sdk specifics", () => {
  it("keeps provider options and every tool-result output type", async () => {
    const outputs = [
      { type: "text", value: "ok" },
      { type: "json", value: { a: 1 } },
      { type: "error-text", value: "boom" },
      { type: "error-json", value: { code: 2 } },
      { type: "content", value: [{ type: "text", text: "see" }, { type: "media", data: "AAAA", mediaType: "image/png" }] },
    ];
    const m: ModelMessage[] = [{ role: "system", content: "rules", providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } }, { role: "user", content: "go" }];
    for (let i = 0; i < 30; i++) {
      m.push({ role: "assistant", content: [{ type: "reasoning", text: "thinking" }, { type: "tool-call", toolCallId: `c${i}`, toolName: "Bash", input: { command: `x${i}` } }] });
      m.push({ role: "tool", content: [{ type: "tool-result", toolCallId: `c${i}`, toolName: "Bash", output: outputs[i % outputs.length], providerOptions: { x: { y: 1 } } }] });
    }
    m.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: "ask", toolName: "Bash", input: {} }, { type: "tool-approval-request", approvalId: "ap1", toolCallId: "ask" }] });
    const r = await compact(m, { contextWindow: 4_000, dialect: aiSdkMessages, force: true });
    expect(validity("ai-sdk", r.messages)).toEqual([]);
    expect(r.messages.at(-1)).toBe(m.at(-1)); // the pending approval stays as it is
    expect((r.messages[0] as ModelMessage).providerOptions).toEqual(m[0].providerOptions);
    const est = estimateTokens(m[m.length - 2], { dialect: aiSdkMessages });
    expect(est).toBeGreaterThan(0);
  });
});

describe("conversions", () => {
  it("detectDialect: a request's separate system prompt is Anthropic's when its text-only messages do not tell", () => {
    const messages = [
      { role: "user", content: [{ type: "text", text: "Fix the build." }] },
      { role: "assistant", content: "On it." },
    ];
    expect(detectDialect(messages)).toBe("openai");
    expect(detectDialect(messages, "You are a coding agent.")).toBe("anthropic");
    expect(detectDialect(messages, [{ type: "text", text: "You are a coding agent." }])).toBe("anthropic");
    // The messages' own shape still wins: an OpenAI tool call, an AI SDK tool result.
    expect(detectDialect([{ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] }], "s")).toBe("openai");
    expect(detectDialect([{ role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "f", output: { type: "text", value: "ok" } }] }], "s")).toBe("ai-sdk");
  });

  it.each(DIALECTS)("OpenAI → %s → OpenAI keeps every text and tool id of the fixtures", (dialect) => {
    for (const { messages } of trajectories()) {
      const there = fromOpenAI(messages, dialect);
      const back = toOpenAI(there.messages, dialect, there.system);
      expect(back.lost).toEqual([]);
      const ids = (ms: typeof messages) => ms.flatMap((m) => [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id ? [m.tool_call_id] : [])]);
      expect(ids(back.messages)).toEqual(ids(messages));
      // Anthropic merges neighbours of one role; the text, in order, is what must survive.
      const texts = (ms: typeof messages) => ms.map((m) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => String(p.text ?? "")).join("\n"))).filter(Boolean).join("\n");
      expect(texts(back.messages)).toBe(texts(messages));
    }
  });

  it("says what a format cannot carry", () => {
    const r = convert([{ role: "assistant", content: [{ type: "thinking", thinking: "hm", signature: "s" }, { type: "text", text: "hi" }] }], { from: "anthropic", to: "openai" });
    expect(r.lost).toEqual(['message 0: a "thinking" block has no OpenAI equivalent']);
    expect(r.messages).toEqual([{ role: "assistant", content: "hi" }]);
  });
});
