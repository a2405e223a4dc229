import { describe, expect, it } from "vitest";
import { CompactionInputError, compact, plan, type ChatMessage } from "../src/index.js";

const ok: ChatMessage = { role: "user", content: "hi" };

function errorOf(messages: unknown): CompactionInputError {
  try {
    plan(messages as never, { contextWindow: 1000 });
  } catch (e) {
    expect(e).toBeInstanceOf(CompactionInputError);
    return e as CompactionInputError;
  }
  throw new Error("no error thrown");
}

describe("bad input names the index and the problem", () => {
  it.each([
    ["a message without a role", [ok, { content: "x" }], 1, /needs a role/],
    ["an unknown role", [ok, ok, { role: "bot", content: "x" }], 2, /unknown role "bot"/],
    ["a tool result without tool_call_id", [{ role: "tool", content: "x" }], 0, /tool_call_id/],
    ["content of the wrong type", [ok, { role: "user", content: 42 }], 1, /content must be a string, null or an array/],
    ["a part without type", [{ role: "user", content: [{ text: "x" }] }], 0, /"type"/],
    ["a text part without text", [{ role: "user", content: [{ type: "text" }] }], 0, /"text" part needs a string/],
    ["tool calls without a function", [{ role: "assistant", tool_calls: [{ id: "a" }] }], 0, /function/],
    ["something that is not an object", [ok, "hello"], 1, /must be an object/],
  ])("%s", (_, messages, index, pattern) => {
    const e = errorOf(messages);
    expect(e.index).toBe(index);
    expect(e.message).toMatch(new RegExp(`^messages\\[${index}\\]`));
    expect(e.message).toMatch(pattern);
    expect(e.issues.length).toBeGreaterThan(0);
  });

  it("quotes a bad value short and redacted, never whole", () => {
    const key = `sk-ant-api03-${"Qx7vB2mZ9kLp4Rt8".repeat(6)}-AbCd3fGh`;
    const e = errorOf([ok, { role: key + "x".repeat(200_000), content: "x" }]);
    expect(e.message).toMatch(/unknown role/);
    expect(e.message.length).toBeLessThan(200);
    expect(e.message).not.toContain(key.slice(14, 40));
  });

  it("not an array at all", () => {
    expect(errorOf({ messages: [] }).index).toBe(-1);
  });

  it("compact rejects with the same error", async () => {
    await expect(compact([{ role: "x" }] as never, { contextWindow: 1000 })).rejects.toBeInstanceOf(CompactionInputError);
  });

  it("bad options get a clear RangeError", () => {
    expect(() => plan([ok], { contextWindow: 0 })).toThrow(/contextWindow must be a positive/);
    expect(() => plan([ok], { contextWindow: 100, maxOutputTokens: 100 })).toThrow(/maxOutputTokens/);
    expect(() => plan([ok], { contextWindow: 100, threshold: 1.5 })).toThrow(/threshold/);
  });
});

describe("valid but odd transcripts never throw", () => {
  const odd: [string, ChatMessage[]][] = [
    ["only a system prompt", [{ role: "system", content: "be brief" }]],
    ["no user message at all", [{ role: "system", content: "s" }, { role: "assistant", content: "a".repeat(9000) }, { role: "assistant", content: "b" }]],
    ["consecutive same roles", Array.from({ length: 30 }, (_, i) => ({ role: "user" as const, content: `u${i} ${"x".repeat(900)}` }))],
    ["orphan tool results", [ok, { role: "tool", tool_call_id: "gone", content: "y".repeat(9000) }, ok, { role: "tool", tool_call_id: "x", content: "z" }, ok]],
    ["empty transcript", []],
    ["null and empty contents", [{ role: "user", content: null }, { role: "assistant", content: "" }, { role: "user", content: [] }]],
  ];
  it.each(odd)("%s", async (_, messages) => {
    const r = await compact(messages, { contextWindow: 2000, force: true });
    expect(r.report.messagesBefore).toBe(messages.length);
  });
});
