// The archive: every reference a result cites resolves, and recalling them gives back, exactly
// (after redaction), every string the pass removed or pruned.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact, openAIChat, plan, recall, recallTool, redact, type ChatMessage, type CompactResult } from "../src/index.js";
import { refOf } from "../src/refs.js";
import { trajectory } from "./support/fixtures.js";
import { options, transcript } from "./support/arbitraries.js";

const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
const REF = "#\\d+(?:\\.\\d+)?";

/**
 * References the pass cites: in one-liners, and at the end (or start) of checkpoint lines, in the
 * messages it wrote (a kept message may quote an earlier pass's handoff, whose references resolve in
 * that pass's archive, not in this one; so does a line the new checkpoint carries from it verbatim:
 * property counterexample, an earlier goal `- #0`).
 */
function citedRefs(r: CompactResult, input: ChatMessage[]): string[] {
  const refs: string[] = [];
  const carried = new Set(input.flatMap((m) => text(m).split("\n")));
  for (const m of r.messages.filter((m) => !input.includes(m))) {
    const t = text(m);
    for (const x of t.matchAll(new RegExp(`\\[output pruned (${REF})\\]`, "g"))) refs.push(x[1]);
    for (const line of t.split("\n")) {
      if (!line.startsWith("- ") || line.startsWith("- … ") || line.startsWith("- (paths under") || carried.has(line)) continue;
      const tail = new RegExp(`((?:${REF}[,…]?)+)\\)?$`).exec(line)?.[1];
      const head = new RegExp(`^- (${REF}) `).exec(line)?.[1];
      refs.push(...(tail?.match(new RegExp(REF, "g")) ?? []), ...(head ? [head] : []));
    }
  }
  return refs;
}

/** Input indexes the pass removed (summarized) or pruned. */
function changed(input: ChatMessage[], opts: Parameters<typeof plan>[1], r: CompactResult): number[] {
  if (r.report.mode === "prune") return r.report.pruned.map((x) => x.index);
  if (r.report.mode !== "summary" && r.report.mode !== "fallback") return [];
  const p = plan(input, opts);
  const out: number[] = [];
  for (let i = p.middle.start; i < p.middle.end; i++) if (!p.pinned.includes(i)) out.push(i);
  return out;
}

function expectRestored(input: ChatMessage[], indexes: number[], r: CompactResult) {
  const pass = r.state.compactions - 1; // references of this pass (it may follow passes the transcript shows)
  for (const i of indexes) {
    const v = openAIChat.view(input[i]);
    const e = r.archive?.[refOf(i, pass)];
    expect(e, `${refOf(i, pass)} archived`).toBeDefined();
    expect(e!.text ?? "").toBe(redact(v.text));
    expect((e!.calls ?? []).map((c) => c.arguments)).toEqual(v.toolCalls.map((c) => redact(c.arguments)));
    expect((e!.calls ?? []).map((c) => c.name)).toEqual(v.toolCalls.map((c) => redact(c.name)));
    expect(e!.results ?? []).toEqual(v.results.map((x) => redact(x.text)));
    const back = recall(r.archive!, refOf(i, pass), { limit: Infinity })!;
    for (const s of [v.text, ...v.toolCalls.map((c) => c.arguments), ...v.results.map((x) => x.text)]) expect(back).toContain(redact(s));
  }
}

describe("archive", () => {
  it("every cited reference resolves, and recalling all restores every removed or pruned string (property)", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, async (input, opts) => {
        const r = await compact(input, opts);
        for (const ref of citedRefs(r, input)) expect(r.archive && recall(r.archive, ref), ref).toBeTruthy();
        expectRestored(input, changed(input, opts, r), r);
      }),
      { numRuns: 200 },
    );
  });

  it("holds on a real 293-message session: the handoff's and the one-liners' references all resolve", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    for (const contextWindow of [32_000, 200_000]) {
      const opts = { contextWindow, force: true };
      const r = await compact(messages, opts);
      const refs = citedRefs(r, messages);
      expect(refs.length).toBeGreaterThan(20);
      for (const ref of refs) expect(recall(r.archive!, ref), ref).toBeDefined();
      expectRestored(messages, changed(messages, opts, r), r);
    }
  });

  it("archive text is redacted like everything else that leaves", async () => {
    const key = "sk-proj-" + "Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe".repeat(2);
    const input: ChatMessage[] = [{ role: "user", content: "deploy" }];
    for (let i = 0; i < 30; i++) input.push({ role: "assistant", content: `step ${i} OPENAI_API_KEY=${key} ${"lorem ipsum ".repeat(60)}` }, { role: "user", content: `ok ${i}` });
    const r = await compact(input, { contextWindow: 4000 });
    expect(Object.keys(r.archive ?? {}).length).toBeGreaterThan(0);
    expect(JSON.stringify(r.archive)).not.toContain(key);
    expect(JSON.stringify(r.archive)).toContain("[REDACTED]");
  });

  it("a secret in a tool call's name is redacted in the archive too", async () => {
    // A model can put anything in a function name; the archive is as much a way out as the handoff.
    const key = "ghp_" + "Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe12";
    const input: ChatMessage[] = [{ role: "user", content: "go" }];
    for (let i = 0; i < 20; i++) {
      input.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: `run_${key}`, arguments: "{}" } }] });
      input.push({ role: "tool", tool_call_id: `c${i}`, content: `result ${i} ${"lorem ipsum ".repeat(80)}` });
    }
    input.push({ role: "user", content: "next" });
    const r = await compact(input, { contextWindow: 4000 });
    expect(Object.values(r.archive ?? {}).some((e) => e.calls?.length)).toBe(true);
    expect(JSON.stringify(r.archive)).not.toContain(key.slice(4, 24));
  });

  it("over archiveLimit the oldest entries are left out, and the report says so", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const r = await compact(messages, { contextWindow: 32_000, archiveLimit: 50_000 });
    expect(JSON.stringify(r.archive).length).toBeLessThanOrEqual(50_000);
    const refs = Object.keys(r.archive!);
    expect(refs).toContain("#288");
    expect(refs).not.toContain("#4");
    expect(r.report.warnings.some((w) => /^archive: \d+ oldest entries \(#4–#\d+\) left out over archiveLimit 50000$/.test(w))).toBe(true);
    expect((await compact(messages, { contextWindow: 32_000, archiveLimit: 0 })).archive).toBeUndefined();
    await expect(compact(messages, { contextWindow: 32_000, archiveLimit: -1 })).rejects.toThrow(/archiveLimit/);
  });

  it("result.archive, built when first read, behaves as a plain property: enumerable, cloned, stringified, written, deleted, frozen", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const options = { contextWindow: 32_000, now: () => 1 };
    const [a, b, c, d] = await Promise.all([0, 1, 2, 3].map(() => compact(messages, options)));
    expect(Object.keys(a)).toEqual(["messages", "state", "report", "archive"]);
    const whole = JSON.stringify(a.archive);
    expect(Object.keys(a.archive!).length).toBeGreaterThan(100);
    expect(Object.getOwnPropertyDescriptor(a, "archive")).toMatchObject({ enumerable: true, writable: true, configurable: true });
    expect(a.archive).toBe(a.archive); // one object once read
    // first touched by a clone, a spread or a stringify: the same entries
    for (const x of [structuredClone(b).archive, { ...c }.archive, JSON.parse(JSON.stringify(d)).archive]) expect(JSON.stringify(x)).toBe(whole);
    const [e, f, g] = await Promise.all([compact(messages, options), compact(messages, options), compact(messages, options)]);
    e.archive = {};
    expect(e.archive).toEqual({});
    delete f.archive;
    expect("archive" in f).toBe(false);
    // frozen before it is read (a store that deep-freezes what it keeps: the result, then what it holds)
    Object.freeze(g);
    Object.freeze(g.archive);
    expect(g.archive).toBe(g.archive);
    expect(JSON.stringify(g.archive)).toBe(whole);
    const first = Object.keys(g.archive!)[0];
    expect(g.archive![first]).toBe(g.archive![first]); // an entry read again is the same, not redacted again
  });

  it("once result.archive and every entry are read, neither holds what they were built from (the pass)", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const r = await compact(messages, { contextWindow: 32_000 });
    const entries = Object.keys(r.archive!);
    expect(Object.getOwnPropertySymbols(r)).toEqual([]);
    expect(Object.getOwnPropertySymbols(r.archive!)).toHaveLength(1); // its source, while an entry is unread
    for (const ref of entries.slice(0, -1)) void r.archive![ref];
    expect(Object.getOwnPropertySymbols(r.archive!)).toHaveLength(1);
    const whole = JSON.stringify(r.archive);
    expect(Object.getOwnPropertySymbols(r.archive!)).toEqual([]);
    expect(JSON.stringify(r.archive)).toBe(whole);
    const written = await compact(messages, { contextWindow: 32_000 });
    written.archive = {};
    expect(Object.getOwnPropertySymbols(written)).toEqual([]);
  });

  it("a second pass cites references of its own, so archives of successive passes merge", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const first = await compact(messages.slice(0, 200), { contextWindow: 32_000 });
    const second = await compact([...first.messages, ...messages.slice(200)], { contextWindow: 32_000, state: first.state, force: true });
    const keys = Object.keys(second.archive!);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toMatch(/^#1\.\d+$/);
    expect(keys.some((k) => Object.hasOwn(first.archive!, k))).toBe(false);
  });

  it("without the state, the pass count is read from the handoff in the transcript: references never collide", async () => {
    // A web app that keeps only the messages: the second pass must not reuse the first pass's #212.
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const first = await compact(messages.slice(0, 200), { contextWindow: 32_000 });
    const second = await compact([...first.messages, ...messages.slice(200)], { contextWindow: 32_000, force: true });
    const keys = Object.keys(second.archive!);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toMatch(/^#1\.\d+$/);
    expect(second.state.compactions).toBe(2);
    const third = await compact([...second.messages, ...messages.slice(200, 260)], { contextWindow: 32_000, force: true });
    for (const k of Object.keys(third.archive!)) expect(k).toMatch(/^#2\.\d+$/);
  });
});

describe("recall", () => {
  const archive = { "#7": { role: "tool", results: ["a".repeat(50) + "b".repeat(50)] } };

  it("returns an entry by reference, with or without the #, in pieces that say where the next starts", () => {
    expect(recall(archive, "#7")).toBe(`#7 tool\n← result\n${"a".repeat(50)}${"b".repeat(50)}`);
    expect(recall(archive, "7")).toBe(recall(archive, "#7"));
    const piece = recall(archive, "#7", { offset: 0, limit: 20 })!;
    expect(piece).toBe("#7 tool\n← result\naaa\n[characters 0–20 of 117; call again with offset 20 for the rest]");
    expect(recall(archive, "#7", { offset: 100, limit: 100 })).toBe(`${"b".repeat(17)}\n[characters 100–117 of 117]`);
    expect(recall(archive, "#8")).toBeUndefined();
    expect(recall(archive, "constructor")).toBeUndefined();
  });

  it("takes the model's arguments as they come: numeric strings are numbers, nonsense the defaults, all clamped", () => {
    const whole = recall(archive, "#7")!;
    // limit 0 once answered an empty piece and "call again with offset 0": a loop that never advances
    expect(recall(archive, "#7", { offset: 0, limit: 0 })).toBe("#\n[characters 0–1 of 117; call again with offset 1 for the rest]");
    // a negative offset once read from the end
    expect(recall(archive, "#7", { offset: -17, limit: 20 })).toBe(recall(archive, "#7", { offset: 0, limit: 20 }));
    // "100" + 20 once made offset 10020
    expect(recall(archive, "#7", { offset: "100", limit: "10" } as never)).toBe(`${"b".repeat(10)}\n[characters 100–110 of 117; call again with offset 110 for the rest]`);
    // null once threw a TypeError
    expect(recall(archive, "#7", null as never)).toBe(whole);
    expect(recall(archive, "#7", { offset: null, limit: null } as never)).toBe(whole);
    expect(recall(archive, "#7", { offset: "soon", limit: {} } as never)).toBe(whole);
    expect(recall(archive, "#7", { offset: 2.9, limit: 3.5 })).toBe(recall(archive, "#7", { offset: 2, limit: 3 }));
    // past the end: an empty piece that says it is the end
    expect(recall(archive, "#7", { offset: 500 })).toBe("\n[characters 117–117 of 117]");
    expect(recall(archive, null as never)).toBeUndefined();
  });

  it("any arguments never throw, and following 'call again' reads the whole entry and ends (property)", () => {
    const big = { "#1.3": { role: "tool", results: ["x".repeat(3_000)] } };
    const whole = recall(big, "#1.3")!;
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.array(fc.oneof(fc.integer(), fc.double(), fc.constantFrom("0", "-5", "50", " ", "1e3", null, undefined, true)), { minLength: 1, maxLength: 5 }), (offset, limit, limits) => {
        const first = recall(big, "#1.3", { offset, limit } as never);
        expect(typeof first).toBe("string");
        let read = "";
        let at: number | undefined = 0;
        for (let calls = 0; at !== undefined; calls++) {
          expect(calls).toBeLessThanOrEqual(whole.length);
          const piece = recall(big, "#1.3", { offset: at, limit: limits[calls % limits.length] } as never)!;
          const footer = /\n\[characters (\d+)–(\d+) of \d+(?:; call again with offset (\d+) for the rest)?\]$/.exec(piece);
          if (!footer) {
            read += piece; // the whole entry in one piece
            break;
          }
          expect(+footer[1]).toBe(at);
          read += piece.slice(0, footer.index);
          const next: number | undefined = footer[3] === undefined ? undefined : +footer[3];
          if (next !== undefined) expect(next).toBeGreaterThan(at);
          at = next;
        }
        expect(read).toBe(whole);
      }),
      { numRuns: 300 },
    );
  });

  it("recallTool gives the definition in each dialect's shape", () => {
    const openai = recallTool(openAIChat) as { type: string; function: { name: string; parameters: { required: string[] } } };
    expect(openai.type).toBe("function");
    expect(openai.function.name).toBe("recall");
    expect(openai.function.parameters.required).toEqual(["ref"]);
    expect(recallTool("anthropic")).toMatchObject({ name: "recall", input_schema: { type: "object" } });
    expect(recallTool("ai-sdk")).toMatchObject({ inputSchema: { type: "object", properties: { ref: { type: "string" } } } });
    expect(recallTool({ name: "ai-sdk-prompt" })).toMatchObject({ type: "function", name: "recall", inputSchema: { type: "object" } });
  });
});
