// Cache economics: a long session replayed turn by turn under a 32k window, with and without the
// runway rule for prune-only passes.
import { createCompactor, type ChatMessage } from "../src/index.js";
import { concatenated } from "./scaling.js";
import { table } from "./lib.js";

interface Run {
  turns: number;
  passes: number;
  prune: number;
  summary: number;
  reclaimed: number[];
  firstChanged: number[];
  peak: number;
}

async function replay(session: ChatMessage[], runway: number | undefined): Promise<Run> {
  const c = createCompactor({ contextWindow: 32_000, runway });
  let live: ChatMessage[] = [];
  const run: Run = { turns: 0, passes: 0, prune: 0, summary: 0, reclaimed: [], firstChanged: [], peak: 0 };
  for (const m of session) {
    live = [...live, m];
    if (m.role !== "assistant") continue; // a model call happens before each assistant turn
    run.turns++;
    if (!c.shouldCompact(live)) continue;
    const r = await c.compact(live);
    if (r.report.mode === "noop") continue;
    run.passes++;
    if (r.report.mode === "prune") run.prune++;
    else run.summary++;
    run.reclaimed.push(r.report.tokensBefore - r.report.tokensAfter);
    run.firstChanged.push(r.report.firstChangedIndex);
    live = r.messages;
  }
  return run;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function cacheBench(): Promise<string> {
  const session = concatenated(1_500);
  const rows: (string | number)[][] = [];
  for (const [label, runway] of [["with the runway rule (default)", undefined], ["without (prune accepted once under the threshold)", 0]] as const) {
    const r = await replay(session, runway);
    rows.push([
      label,
      r.turns,
      ((r.passes / r.turns) * 100).toFixed(1),
      r.prune,
      r.summary,
      Math.round(mean(r.reclaimed)).toLocaleString("en-US"),
      Math.round(mean(r.firstChanged)),
    ]);
  }
  return (
    `${session.length} messages of the fixtures back to back, one model call per assistant turn, window 32k (threshold 24k).\n\n` +
    table(["policy", "model calls", "compactions / 100 calls", "prune-only passes", "summary passes", "tokens reclaimed / pass", "first changed index (mean)"], rows) +
    "\n\nEvery compaction breaks the provider's prompt cache from its first changed index on; fewer passes that each reclaim more keep more requests on a warm cache."
  );
}
