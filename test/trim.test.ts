// Issue 30 item 3: a tool output trimmed when it is written; the whole kept in its archive entry.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dialects, fromOpenAI } from "../src/convert.js";
import { heuristicTokens, recall, trimResults, trimToolOutput, type ChatMessage, type DialectName } from "../src/index.js";
import { validity } from "./support/validity.js";

const plain = fc.oneof(fc.lorem({ maxCount: 12 }), fc.constantFrom("build step ok", "  at Object.<anonymous> (/src/a.ts:12:5)", "x".repeat(120), "😀 ünïcödé 修复", ""));
const notable = fc.oneof(
  fc.lorem({ maxCount: 6 }).map((w) => `error: ${w}`),
  fc.nat({ max: 255 }).map((n) => `Process exited with exit code ${n}`),
  fc.lorem({ maxCount: 4 }).map((w) => `FAILED tests/${w.replace(/\W/g, "_")}.py::test_it`),
  fc.constantFrom("Traceback (most recent call last):", "fatal: not a git repository", "panic: runtime error: index out of range"),
);
const output = fc
  .array(fc.oneof({ weight: 8, arbitrary: plain }, { weight: 1, arbitrary: notable }), { minLength: 1, maxLength: 1500, size: "max" })
  .map((lines) => lines.join("\n"));
const NOTABLE = /^.*\b(?:error|exception|traceback|failed|failure|fatal|panic|exit(?:ed)?[ _-]?(?:code|status))\b.*$/gim;

describe("trimToolOutput", () => {
  it("archives the original whole, fits maxTokens, keeps every error and exit line that fits", () => {
    fc.assert(
      fc.property(output, fc.integer({ min: 150, max: 4000 }), (text, maxTokens) => {
        const t = trimToolOutput(text, { maxTokens });
        expect(heuristicTokens(t.text)).toBeLessThanOrEqual(maxTokens);
        expect(t.tokensAfter).toBe(heuristicTokens(t.text));
        if (!t.trimmed) {
          expect(t.text).toBe(text);
          expect(t.archive).toBeUndefined();
          return;
        }
        expect(heuristicTokens(text)).toBeGreaterThan(maxTokens);
        expect(Object.keys(t.archive!)).toEqual([t.ref]);
        expect(t.archive![t.ref!].results).toEqual([text]);
        expect(t.text).toContain(`archived as ${t.ref}`);
        expect(recall(t.archive!, t.ref!, { limit: 1_000_000 })).toContain(text);
        const lines = (text.match(NOTABLE) ?? []).filter((l) => l.length <= 300);
        if (heuristicTokens(lines.join("\n")) <= maxTokens / 4) for (const l of lines) expect(t.text).toContain(l);
        // Deterministic: the same output trims to the same bytes.
        expect(trimToolOutput(text, { maxTokens })).toEqual(t);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps head, tail and the failure of a real-looking build log", () => {
    const log = [...Array.from({ length: 4000 }, (_, i) => `[${i}] compiling module_${i}.ts ok`), "src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.", ...Array.from({ length: 3000 }, (_, i) => `[${i}] bundling chunk ${i}`), "Process exited with exit code 2"].join("\n");
    const t = trimToolOutput(log, { maxTokens: 1000 });
    expect(t.trimmed).toBe(true);
    expect(t.text.startsWith("[0] compiling module_0.ts ok")).toBe(true);
    expect(t.text.endsWith("Process exited with exit code 2")).toBe(true);
    expect(t.text).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(t.text).toMatch(/\[output trimmed #out-\w+: kept the first \d+ and the last \d+ of \d+ characters and 1 error lines from between;/);
    expect(heuristicTokens(t.text)).toBeLessThanOrEqual(1000);
    expect(heuristicTokens(t.text)).toBeGreaterThan(800); // it uses the room it has
  });

  it("says clearly what it cannot do", () => {
    expect(() => trimToolOutput("x".repeat(10_000), { maxTokens: 10 })).toThrow(/under what the stand-in alone takes/);
    expect(() => trimToolOutput("abc", { maxTokens: 0 })).toThrow(/maxTokens/);
    expect(() => trimToolOutput(42 as never, { maxTokens: 100 })).toThrow(/string/);
    expect(trimToolOutput("y".repeat(50_000), { maxTokens: 500, ref: "#7" }).ref).toBe("#7");
  });
});

describe("trimResults", () => {
  const big = Array.from({ length: 5000 }, (_, i) => `line ${i} of a long listing`).join("\n") + "\nerror: disk full";
  const t: ChatMessage[] = [
    { role: "user", content: "List it" },
    { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "Bash", arguments: '{"command":"ls -R"}' } }, { id: "b", type: "function", function: { name: "Bash", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "a", content: big },
    { role: "tool", tool_call_id: "b", content: "small" },
    { role: "user", content: "and?" },
  ];
  it.each(["openai", "anthropic", "ai-sdk", "openai-responses"] as DialectName[])("%s: every output over maxTokens trimmed, the rest the same objects, still valid", (dialect) => {
    const d = dialects[dialect];
    const input = fromOpenAI(t, dialect).messages as unknown[];
    const r = trimResults(input, d as never, { maxTokens: 500 });
    expect(r.trimmed).toBe(1);
    expect(validity(dialect, r.messages)).toEqual([]);
    const changed = r.messages.filter((m, i) => m !== input[i]);
    expect(changed).toHaveLength(1);
    const outputs = r.messages.flatMap((m) => d.view(m as never).results.map((x) => x.text));
    expect(outputs).toContain("small");
    const cut = outputs.find((o) => o.includes("[output trimmed"))!;
    expect(heuristicTokens(cut)).toBeLessThanOrEqual(500);
    expect(cut).toContain("error: disk full");
    const [ref] = Object.keys(r.archive);
    expect(r.archive[ref].results).toEqual([big]);
    expect(trimResults(input, d as never, { maxTokens: 500 }).messages.map((m) => JSON.stringify(m))).toEqual(r.messages.map((m) => JSON.stringify(m)));
  });
});
