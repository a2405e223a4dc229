// How plan and compact cost grows with transcript size (it should be linear).
import { compact, plan, type ChatMessage } from "../src/index.js";
import { trajectories } from "../test/support/fixtures.js";
import { table, time } from "./lib.js";

/** n messages: the fixtures concatenated (ids made unique), repeated as needed. */
export function concatenated(n: number): ChatMessage[] {
  const pool = trajectories().flatMap((t, k) =>
    t.messages
      .filter((m) => m.role !== "system")
      .map((m) => ({
        ...m,
        ...(m.tool_call_id ? { tool_call_id: `${k}_${m.tool_call_id}` } : {}),
        ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ ...c, id: `${k}_${c.id}` })) } : {}),
      })),
  );
  const out: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }];
  for (let round = 0; out.length < n; round++) {
    for (const m of pool) {
      if (out.length >= n) break;
      const suffix = `_r${round}`;
      out.push({
        ...m,
        ...(m.tool_call_id ? { tool_call_id: m.tool_call_id + suffix } : {}),
        ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ ...c, id: c.id + suffix })) } : {}),
      });
    }
  }
  return out;
}

/** n messages of a synthetic agent loop: a request, then tool calls with ~1 kB outputs. */
export function synthetic(n: number): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }, { role: "user", content: "Fix the failing build." }];
  for (let i = 0; out.length < n; i++) {
    out.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: `make step${i}` }) } }] });
    out.push({ role: "tool", tool_call_id: `c${i}`, content: `step ${i}\n${"compiling module output line\n".repeat(36)}exit code: ${i % 7 === 0 ? 1 : 0}` });
  }
  return out.slice(0, n);
}

/** A request, then n tool results answering no call: with a window so large the head takes them all along. */
export function orphans(n: number): ChatMessage[] {
  const results = Array.from({ length: n }, (_, i): ChatMessage => ({ role: "tool", tool_call_id: `x${i}`, content: `result ${i}` }));
  return [{ role: "system", content: "You are a coding agent." }, { role: "user", content: "go" }, ...results, { role: "user", content: "next" }];
}

function heapMB(fn: () => unknown): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const keep = fn();
  const after = process.memoryUsage().heapUsed;
  void keep;
  return Math.max(0, (after - before) / 1e6);
}

export async function scalingBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  const cases = [["fixtures", concatenated, [10, 100, 1_000, 10_000], 128_000], ["synthetic", synthetic, [10, 100, 1_000, 10_000], 128_000], ["orphan results", orphans, [1_000, 10_000, 40_000], 10_000_000]] as const;
  for (const [kind, make, sizes, window] of cases) {
    for (const n of sizes) {
      const messages = make(n);
      const o = { contextWindow: window, force: true, ...(make === orphans ? { headMessages: 1 } : {}) };
      const runs = n >= 10_000 ? 5 : 20;
      const p = plan(messages, o);
      const planMs = await time(() => plan(messages, o), runs, 2);
      const compactMs = await time(() => compact(messages, o), runs, 2);
      const mem = heapMB(() => plan(messages, o));
      rows.push([kind, n, p.tokens.total, planMs.toFixed(2), (planMs / n * 1000).toFixed(1), compactMs.toFixed(2), (compactMs / n * 1000).toFixed(1), mem.toFixed(1)]);
    }
  }
  return table(["transcript", "messages", "tokens", "plan ms", "plan µs/msg", "compact ms", "compact µs/msg", "plan heap MB"], rows) +
    "\n\nµs per message staying flat as the transcript grows 1000× is what linear cost looks like (compact is forced so every size does the full pass; window 128k). Orphan results: tool results answering no call right after the head, at a 10M window so the head takes them along (plan was quadratic there: 0.24/0.71/2.2 s at 10k/20k/40k before issue 18).";
}
