import { describe, expect, it } from "vitest";
import { estimateTokens, heuristicTokens, type ChatMessage } from "../src/index.js";

describe("estimateTokens", () => {
  it("charges about four Latin characters a token", () => {
    expect(heuristicTokens("a".repeat(400))).toBe(100);
    expect(heuristicTokens("")).toBe(0);
  });

  it("charges one token per CJK, kana and hangul code point", () => {
    expect(heuristicTokens("修复测试失败")).toBe(6);
    expect(heuristicTokens("ファイル")).toBe(4);
    expect(heuristicTokens("한국어")).toBe(3);
    expect(heuristicTokens("abcd修复")).toBe(3);
  });

  it("counts an astral code point (emoji) once, not per surrogate", () => {
    expect(heuristicTokens("🙂🙂")).toBe(2);
  });

  it("charges a fixed cost per image whatever its size: base64 is never text", () => {
    const screenshot: ChatMessage = {
      role: "user",
      content: [
        { type: "text", text: "what is on the screen?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(1_000_000)}` } },
      ],
    };
    const t = estimateTokens(screenshot);
    expect(t).toBeGreaterThanOrEqual(1600);
    expect(t).toBeLessThan(1700);
    expect(estimateTokens(screenshot, { imageTokens: 85 })).toBeLessThan(200);
  });

  it("counts tool-call names and arguments, and the request's tool definitions", () => {
    const call: ChatMessage = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: "x".repeat(400) }) } }],
    };
    expect(estimateTokens(call)).toBeGreaterThan(100);
    const tools = [{ type: "function", function: { name: "Bash", description: "d".repeat(4000), parameters: {} } }];
    expect(estimateTokens([call], { tools }) - estimateTokens([call])).toBeGreaterThan(1000);
  });

  it("uses a custom counter for text when given", () => {
    expect(estimateTokens("hello world", { countTokens: (t) => t.split(" ").length })).toBe(2);
    const m: ChatMessage = { role: "user", content: "one two three" };
    expect(estimateTokens(m, { countTokens: (t) => t.split(" ").length })).toBe(3 + 4);
  });
});
