import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens, heuristicTokens, type ChatMessage } from "../src/index.js";
import { tiktokenCounter } from "../src/tiktoken.js";
import { FEATURES, scanTokens, WEIGHTS } from "../src/estimate/heuristic.js";
import { referenceScan } from "./support/estimate-reference.js";
import { FIXTURES, trajectories } from "./support/fixtures.js";

const exact = tiktokenCounter();
/** Signed relative error of the estimate over `texts` against exact o200k counts. */
function error(texts: string[]): number {
  let est = 0;
  let ref = 0;
  for (const t of texts) {
    est += heuristicTokens(t);
    ref += exact(t);
  }
  return (est - ref) / ref;
}
const lines = (file: string) => readFileSync(`${FIXTURES}text/${file}`, "utf8").trim().split("\n");

describe("heuristicTokens", () => {
  it("counts nothing in nothing, and a common English word as about one token", () => {
    expect(heuristicTokens("")).toBe(0);
    expect(heuristicTokens("the")).toBe(1);
    const sentence = " the cat sat on the mat";
    expect(Math.abs(heuristicTokens(sentence) - exact(sentence))).toBeLessThanOrEqual(1);
  });

  it("charges a word per camelCase part and a token per digit triple, as o200k cuts them", () => {
    expect(heuristicTokens("parseTokenCount")).toBe(heuristicTokens("parse token count"));
    expect(heuristicTokens("1234567")).toBeGreaterThan(heuristicTokens("123456"));
    expect(heuristicTokens("123456")).toBe(heuristicTokens("1234"));
  });

  it("charges CJK, kana and hangul below one token a character, as o200k merges common pairs", () => {
    for (const s of ["修复测试失败", "ファイル", "한국어"]) {
      const perChar = heuristicTokens(s.repeat(50)) / (s.length * 50);
      expect(perChar).toBeGreaterThan(0.5);
      expect(perChar).toBeLessThan(0.9);
    }
  });

  it("counts an astral code point (emoji) once, not per surrogate", () => {
    expect(heuristicTokens("🙂".repeat(10))).toBe(14);
  });
});

// The shipped scan is a table-driven automaton built for speed; the rules are written plainly in
// test/support/estimate-reference.ts. Each event count must agree exactly, not only the weighted sum.
describe("the estimate's automaton against its rules written plainly", () => {
  const units = FEATURES.map((_, j) => FEATURES.map((_, k) => (k === j ? 1 : 0)));
  const agree = (text: string) => {
    for (const w of [WEIGHTS, ...units]) expect(scanTokens(text, w)).toBeCloseTo(referenceScan(text, w), 9);
  };

  it("counts every event alike on every string of the fixtures", () => {
    const texts = trajectories().flatMap((t) => t.messages.flatMap((m) => [typeof m.content === "string" ? m.content : "", ...(m.tool_calls ?? []).map((c) => c.function.arguments)]));
    for (const t of texts) agree(t);
  });

  it("counts every event alike on any string, runs of every class and their boundaries included", () => {
    // Units from every class and their edges: letters of each case and script, digits, both space
    // characters, CR/LF, punctuation, CJK, kana, hangul, symbols, an emoji, lone surrogates.
    const unit = fc.constantFrom(..."aAzZé Ω\t\r\n09.{~\u007f\u0080中ア한—🙂\ud800\udc00x ".split(""), "  ", "abcdefgh", "ABCDEFGH", "1234567", "\u{1F600}");
    fc.assert(fc.property(fc.array(unit, { maxLength: 40 }).map((u) => u.join("")), agree), { numRuns: 3000 });
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), agree), { numRuns: 3000 });
  });

  it("reads every UTF-16 code unit as its class, alone and inside runs (the scan looks classes up in a table)", () => {
    for (let c = 0; c < 0x10000; c++) {
      const u = String.fromCharCode(c);
      const text = `ab${u}x${u}${u}12 ${u}`;
      expect(scanTokens(text, WEIGHTS)).toBeCloseTo(referenceScan(text, WEIGHTS), 9);
    }
  });
});

// The error bounds of the bench (`npm run bench -- estimation`) on the vendored fixtures, against exact
// o200k counts from context-compactor/tiktoken: the estimate is deterministic, so they are fair bounds.
describe("heuristicTokens against exact o200k counts on the fixtures", () => {
  const prose: string[] = [];
  const code: string[] = [];
  for (const t of trajectories()) {
    for (const m of t.messages) {
      const text = typeof m.content === "string" ? m.content : "";
      if (text) (m.role === "tool" ? code : prose).push(text);
      for (const c of m.tool_calls ?? []) code.push(c.function.arguments);
    }
  }
  const sse = readdirSync(`${FIXTURES}sse`)
    .filter((f) => f.endsWith(".txt"))
    .map((f) => readFileSync(`${FIXTURES}sse/${f}`, "utf8"));

  const classes: Record<string, string[]> = {
    "English prose (user/assistant text)": prose,
    "code and JSON (tool outputs and arguments)": code,
    "SSE recordings (JSON events)": sse,
    "CJK text (zh/ja/ko)": lines("cjk.txt"),
    "accented Latin, Cyrillic, Greek": lines("latin-cyrillic.txt"),
  };
  it.each(Object.keys(classes))("is within ±10 percent on %s", (name) => {
    expect(Math.abs(error(classes[name]))).toBeLessThan(0.1);
  });

  it("is within ±10 % on every fixture transcript and on the mixed total", () => {
    let est = 0;
    let ref = 0;
    for (const t of trajectories()) {
      const e = estimateTokens(t.messages);
      const r = estimateTokens(t.messages, { countTokens: exact });
      expect(Math.abs(e - r) / r, t.name).toBeLessThan(0.1);
      est += e;
      ref += r;
    }
    expect(Math.abs(est - ref) / ref).toBeLessThan(0.1);
  });
});

describe("estimateTokens", () => {
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
      tool_calls: [{ id: "c1", type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: "x ".repeat(400) }) } }],
    };
    expect(estimateTokens(call)).toBeGreaterThan(100);
    const tools = [{ type: "function", function: { name: "Bash", description: "d ".repeat(2000), parameters: {} } }];
    expect(estimateTokens([call], { tools }) - estimateTokens([call])).toBeGreaterThan(1000);
  });

  it("uses a custom counter for text when given", () => {
    expect(estimateTokens("hello world", { countTokens: (t) => t.split(" ").length })).toBe(2);
    const m: ChatMessage = { role: "user", content: "one two three" };
    expect(estimateTokens(m, { countTokens: (t) => t.split(" ").length })).toBe(3 + 4);
  });
});
