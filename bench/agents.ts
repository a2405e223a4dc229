// The real agents through the worker (wrangler dev) to the scripted upstream of the agents suite, and
// the same sessions straight to the upstream: requests, passes, prefix share between compactions,
// tokens sent upstream with and without the worker, and the time the worker adds per request.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENTS, removeHomes, startRefusingProxy } from "../test/agents/agents.js";
import { forwardedMain, prefixShare, secretInProducts, sentByAgent } from "../test/agents/measure.js";
import { startTap, type Tap } from "../test/agents/tap.js";
import { FINAL_TEXT, startUpstream, type Session } from "../test/agents/upstream.js";
import { startWranglerDev } from "../tools/dev-server.mjs";
import { table } from "./lib.js";

const tokensOf = (s: Session) => s.main().reduce((n, r) => n + Math.ceil(r.text.length / 4), 0);
const mainTimes = (tap: Tap) =>
  forwardedMain(tap.log)
    .map((t) => t.ms)
    .sort((a, b) => a - b);
const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);

export async function agentsBench(): Promise<string> {
  const upstream = await startUpstream();
  const proxy = await startRefusingProxy();
  const assets = mkdtempSync(join(tmpdir(), "agents-assets-"));
  const persist = mkdtempSync(join(tmpdir(), "agents-dev-"));
  writeFileSync(join(assets, "index.html"), "<!doctype html>");
  const dev = await startWranglerDev({ persist, assets, vars: { UPSTREAM_BASE_URL: `${upstream.origin}/v1`, ANTHROPIC_UPSTREAM_BASE_URL: upstream.origin } });
  const viaWorker = await startTap(dev.base);
  const direct = await startTap(upstream.origin);
  const rows: (string | number)[][] = [];
  try {
    for (const agent of AGENTS) {
      // Through the worker first: its session length (tool turns) is then replayed straight to the upstream.
      const s = upstream.begin({ maxTurns: 8, turnsAfterCompaction: 3, window: agent.window });
      viaWorker.clear();
      const headers = { "x-context-window": String(agent.window), ...(agent.ownSession ? {} : { "x-session-id": `bench-${agent.api}-${Date.now()}` }) };
      const run = await agent.run({ origin: viaWorker.origin, headers, workdir: s.workdir, proxy: proxy.url });
      const finished = run.code === 0 && run.stdout.includes(FINAL_TEXT);
      const refused = [...new Set(viaWorker.log.filter((t) => t.status >= 400).map((t) => `worker ${t.status} on ${t.path.split("?")[0]}`)), ...s.refusals().map((r) => `upstream 400: ${r.refused?.slice(0, 60)}`)];
      const modes = forwardedMain(viaWorker.log).map((t) => t.mode);
      const p = prefixShare(s.main(), modes);
      const turns = s.turns();
      const workerTimes = mainTimes(viaWorker);

      const d = upstream.begin({ maxTurns: turns, smallFrom: s.bigTurns(), turnsAfterCompaction: turns - s.bigTurns() });
      direct.clear();
      await agent.run({ origin: direct.origin, headers: {}, workdir: d.workdir, proxy: proxy.url });
      const directTimes = mainTimes(direct);
      const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "–");
      rows.push([
        agent.name,
        finished ? "yes" : `no (exit ${run.code})`,
        refused.join("; ") || "none",
        s.main().length ? `${s.main().length} / ${d.main().length}` : "–",
        p.passes,
        p.eligible ? `${p.kept}/${p.eligible} (${Math.round(p.share * 100)} %)` : p.compacted ? "none: a pass on every compacted request" : "–",
        !p.compacted ? "–" : secretInProducts(s, sentByAgent(viaWorker.log)).length ? "**leaked**" : "none",
        s.main().length ? `${tokensOf(s).toLocaleString("en-US")} / ${tokensOf(d).toLocaleString("en-US")}` : "–",
        `${ms(pct(workerTimes, 50) - pct(directTimes, 50))} / ${ms(pct(workerTimes, 99) - pct(directTimes, 99))}`,
        `${ms(pct(workerTimes, 50))} / ${ms(pct(workerTimes, 99))}`,
      ]);
    }
  } finally {
    await viaWorker.close();
    await direct.close();
    await dev.stop();
    await proxy.close();
    await upstream.close();
    removeHomes();
    for (const d of [assets, persist]) rmSync(d, { recursive: true, force: true });
  }
  return (
    "Each agent runs a tool session on the agents suite's scripted upstream (`test/agents/upstream.ts`): the model has it read 200 KB files until a compaction shows in what the upstream receives, then 3 files of 2 KB, then ends; " +
    "through `wrangler dev` with the agent's window from `test/agents/agents.ts` (`x-context-window`, and `x-session-id` except for opencode, which sends its own), then the same reads straight to the upstream. " +
    "Tokens are what the upstream received in its main requests, as characters / 4. Passes: main requests whose `x-compaction-mode` was a pass (not noop, reused or skipped). " +
    "Prefix share: consecutive main requests after the first compaction whose later one ran no pass, and how many carry the earlier one as their exact prefix. " +
    "Latency: ms from the request's end to the answer's headers, main requests, worker minus direct at the same percentile (the upstream answers at once, so this is the compaction and proxy time). Refused: the worker's non-2xx answers (by status and route) and the upstream's 400s.\n\n" +
    table(["agent, API", "finished via the worker", "refused", "main requests (worker / direct)", "passes", "prefix share between compactions", "secret in compaction products", "tokens upstream (worker / direct)", "added ms p50 / p99", "worker ms p50 / p99"], rows)
  );
}
