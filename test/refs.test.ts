// options.refIndexes: a message is cited by the caller's own number for it (its index in the caller's
// whole history), so a later pass that sees it at another position cites it the same; an earlier
// pass's stand-ins are left as they are.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact, openAIChat, recall, redact, type ChatMessage } from "../src/index.js";
import { options, transcript } from "./support/arbitraries.js";
import { trajectory } from "./support/fixtures.js";

const history = trajectory("claude-code-spotter__4d5611e5-241a-462a-8d15-5122611a9569").messages as ChatMessage[];
const opts = { contextWindow: 32_000 };
const citedIn = (messages: ChatMessage[]) => messages.flatMap((m) => (typeof m.content === "string" ? [...m.content.matchAll(/\[output pruned (#[\d.]+)\]/g)].map((x) => x[1]) : []));

describe("refIndexes", () => {
  it("cites each message by the caller's number: archive keys, one-liners, ledgers", async () => {
    const input = history.slice(0, 120);
    const refIndexes = input.map((_, i) => 1000 + i);
    const r = await compact(input, { ...opts, refIndexes });
    expect(r.report.mode).not.toBe("noop");
    const keys = Object.keys(r.archive!);
    expect(keys.length).toBeGreaterThan(10);
    for (const k of keys) expect(k).toMatch(/^#1\d{3}$/);
    const written = JSON.stringify(r.messages.filter((m) => !input.includes(m)));
    const cited = [...written.matchAll(/#(\d+(?:\.\d+)?)\b/g)].map((x) => x[1]);
    expect(cited.length).toBeGreaterThan(0);
    for (const c of cited) expect(Number(c)).toBeGreaterThanOrEqual(1000);
  });

  it("a later pass on the compacted transcript plus new turns keeps every reference, and leaves the stand-ins alone", async () => {
    const first = history.slice(0, 100);
    const a = await compact(first, { ...opts, refIndexes: first.map((_, i) => i), state: undefined });
    // What the caller knows of each output message: the original it is (or stands for), or none (the handoff).
    const origin = a.messages.map((m) => {
      const i = first.indexOf(m);
      if (i >= 0) return i;
      const cited = /\[output pruned #(\d+)\]/.exec(typeof m.content === "string" ? m.content : "");
      return cited ? Number(cited[1]) : null;
    });
    const fresh = history.slice(100, 200);
    const input = [...a.messages, ...fresh];
    const b = await compact(input, { ...opts, state: a.state, refIndexes: [...origin, ...fresh.map((_, k) => 100 + k)], force: true });
    expect(b.report.mode).not.toBe("noop");
    const before = new Set(citedIn(a.messages));
    // Every stand-in of the first pass still in the output is the same bytes; none was pruned again.
    for (const m of b.messages) if (typeof m.content === "string" && m.content.startsWith("[output pruned #") && before.has(/#\d+/.exec(m.content)![0])) expect(a.messages).toContainEqual(m);
    for (const k of Object.keys(b.archive ?? {})) {
      const n = /^#(\d+)$/.exec(k)?.[1];
      if (n) expect(Number(n)).toBeLessThan(200); // the caller's numbers
      else expect(k).toMatch(/^#1\.\d+$/); // the handoff: no number of the caller's, cited by pass
    }
  });

  it("an earlier pass's stand-in is left as it is, however long, and not archived again", async () => {
    const call = (id: string, command: string) => ({ role: "assistant" as const, content: null, tool_calls: [{ id, type: "function" as const, function: { name: "Bash", arguments: JSON.stringify({ command }) } }] });
    const standIn = `[output pruned #7] Bash command="${"a".repeat(100)}" → 50,000 chars, 900 lines; "${"b".repeat(150)}"`;
    const input: ChatMessage[] = [
      { role: "user", content: "run the checks" },
      call("c1", "a".repeat(100)),
      { role: "tool", tool_call_id: "c1", content: standIn },
      call("c2", "make test"),
      { role: "tool", tool_call_id: "c2", content: "FAIL test_x\n".repeat(3000) },
      { role: "assistant", content: "The tests fail in test_x." },
      { role: "user", content: "fix it" },
    ];
    const r = await compact(input, { contextWindow: 12_000, headMessages: 1, refIndexes: input.map((_, i) => i) });
    expect(r.report.mode).toBe("prune");
    expect(r.report.pruned.map((x) => x.index)).toEqual([4]);
    expect(r.messages[2]).toBe(input[2]);
    expect(Object.keys(r.archive!)).toEqual(["#4"]);
  });

  it("every archive key is the caller's number of a message it removed or pruned, and every stand-in's resolves (property)", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 7 }), async (input, opts, base, step) => {
        const refIndexes = input.map((_, i) => (i % 5 === 4 ? null : base + i * step)); // some without a number
        const r = await compact(input, { ...opts, refIndexes });
        const pass = r.state.compactions - 1;
        const byKey = new Map(input.map((m, i) => [refIndexes[i] === null ? `#${pass}.${i}` : `#${refIndexes[i]}`, m]));
        for (const [key, entry] of Object.entries(r.archive ?? {})) {
          const m = byKey.get(key);
          expect(m, key).toBeDefined();
          expect(entry.results ?? []).toEqual(openAIChat.view(m!).results.map((x) => redact(x.text)));
        }
        for (const m of r.messages) {
          if (input.includes(m) || typeof m.content !== "string") continue;
          const cited = /^\[output pruned (#[\d.]+)\]/.exec(m.content)?.[1];
          if (cited) expect(recall(r.archive!, cited), cited).toBeTruthy();
        }
      }),
      { numRuns: 150 },
    );
  });

  it("leaves the default references as they were", async () => {
    const r = await compact(history.slice(0, 120), opts);
    for (const k of Object.keys(r.archive!)) expect(k).toMatch(/^#\d+$/);
  });

  it("refuses numbers that are not distinct integers ≥ 0", async () => {
    for (const refIndexes of [[0, 0], [-1], [1.5], "0,1", [Number.NaN]] as unknown[]) {
      await expect(compact(history.slice(0, 3), { ...opts, refIndexes } as never)).rejects.toThrow(/refIndexes must be distinct integers ≥ 0 or null/);
    }
    await expect(compact(history.slice(0, 3), { ...opts, refIndexes: [null, 4, undefined] })).resolves.toBeDefined();
  });
});
