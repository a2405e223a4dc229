// End to end with the real agents: Claude Code, Codex, the OpenAI Agents SDK and opencode, each first
// straight to the suite's scripted upstream (the control: the upstream and the settings are right),
// then through `wrangler dev` with a small context window, so that a tool session of large reads
// crosses the threshold. Asserted through the worker: the agent finishes, nothing is refused (by the
// worker or the upstream), a compaction ran, the planted secret reaches the upstream in no compaction
// product, and between compactions each request carries the previous one as its exact prefix.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev } from "../../tools/dev-server.mjs";
import { AGENTS, removeHomes, startRefusingProxy, type AgentCase, type AgentRun } from "./agents.js";
import { forwardedMain, prefixShare, secretInProducts, secretReadRaw, sentByAgent } from "./measure.js";
import { startTap, type Tap } from "./tap.js";
import { FINAL_TEXT, startUpstream, type Session, type Upstream } from "./upstream.js";

let upstream: Upstream;
let proxy: Awaited<ReturnType<typeof startRefusingProxy>>;
let tap: Tap;
let stopWorker = async () => {};
const scratch: string[] = [];

beforeAll(async () => {
  upstream = await startUpstream();
  proxy = await startRefusingProxy();
  const assets = mkdtempSync(join(tmpdir(), "agents-assets-"));
  const persist = mkdtempSync(join(tmpdir(), "agents-dev-"));
  scratch.push(assets, persist);
  writeFileSync(join(assets, "index.html"), "<!doctype html><title>agents suite</title>");
  const dev = await startWranglerDev({
    persist,
    assets,
    vars: { UPSTREAM_BASE_URL: `${upstream.origin}/v1`, ANTHROPIC_UPSTREAM_BASE_URL: upstream.origin },
  });
  stopWorker = dev.stop;
  tap = await startTap(dev.base);
});

afterAll(async () => {
  await tap?.close();
  await stopWorker();
  await proxy?.close();
  await upstream?.close();
  removeHomes();
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
  if (proxy?.attempts.length) console.log(`[agents] refused on their way off 127.0.0.1 (the agents' own background traffic): ${[...new Set(proxy.attempts)].join(", ")}`);
});

const tail = (s: string, n = 600) => (s.length > n ? `…${s.slice(-n)}` : s).replace(/\s+/g, " ").trim();

/** Why a run did not finish as the script ends it, or nothing. */
function unfinished(run: AgentRun): string[] {
  if (run.code === 0 && run.stdout.includes(FINAL_TEXT)) return [];
  const how = run.timedOut ? "was stopped after its time limit" : `exited ${run.code}`;
  return [`the agent ${how}${run.stdout.includes(FINAL_TEXT) ? "" : " without the final text"}; stderr: ${tail(run.stderr) || "(empty)"}; stdout: ${tail(run.stdout, 400)}`];
}

const refusedBy = (s: Session) => s.refusals().map((r) => `the upstream refused ${r.method} ${r.path}: 400 ${r.refused}`);

describe.sequential("real agents against the scripted upstream", () => {
  for (const agent of AGENTS) {
    it(`${agent.name}: straight to the upstream, it reads the files and finishes`, async () => {
      const s = upstream.begin({ maxTurns: 3 });
      const run = await agent.run({ origin: upstream.origin, headers: {}, workdir: s.workdir, proxy: proxy.url });
      const problems = [...unfinished(run), ...refusedBy(s)];
      if (s.turns() !== 3) problems.push(`the session ran ${s.turns()} tool turns, not 3`);
      if (!secretReadRaw(s)) problems.push(`the planted secret (${s.secretFile}) never reached the upstream: the agent did not read it whole`);
      const p = prefixShare(s.main(), []);
      if (p.kept !== p.eligible) problems.push(`the agent itself rewrote its history: ${p.kept}/${p.eligible} requests carry the previous one as their prefix`);
      expect(problems, `${agent.name}, straight to the upstream`).toEqual([]);
    });
  }
});

describe.sequential("real agents through the worker (wrangler dev)", () => {
  for (const agent of AGENTS) it(`${agent.name}: through the worker, it finishes, compaction runs, no secret in its products, the prefix holds`, () => throughWorker(agent));
});

async function throughWorker(agent: AgentCase): Promise<void> {
  const s = upstream.begin({ maxTurns: 8, turnsAfterCompaction: 3, window: agent.window });
  tap.clear();
  const session = `e2e-${agent.api}-${randomBytes(6).toString("hex")}`;
  const headers = { "x-context-window": String(agent.window), ...(agent.ownSession ? {} : { "x-session-id": session }) };
  const run = await agent.run({ origin: tap.origin, headers, workdir: s.workdir, proxy: proxy.url });

  const problems = unfinished(run);
  const errors = new Map<string, number>();
  for (const t of tap.log.filter((t) => t.status >= 400)) {
    const line = `the worker answered ${t.status} to ${t.method} ${t.path.split("?")[0]}: ${tail(t.error ?? "", 400)}`;
    errors.set(line, (errors.get(line) ?? 0) + 1);
  }
  for (const [line, n] of errors) problems.push(n > 1 ? `${line} (${n} times)` : line);
  problems.push(...refusedBy(s));

  const main = s.main();
  const modes = forwardedMain(tap.log).map((t) => t.mode);
  if (main.length && !main.some((r) => r.compacted)) {
    problems.push(`no compaction reached the upstream: ${main.length} main requests, worker modes ${modes.join(", ") || "(none)"}`);
  } else if (main.length) {
    const leaks = secretInProducts(s, sentByAgent(tap.log));
    if (leaks.length) problems.push(`the planted secret reached the upstream in a compaction product: ${leaks.slice(0, 3).join("; ")}`);
    const p = prefixShare(main, modes);
    if (!p.eligible) problems.push(`no request between compactions: the worker ran a new pass on every compacted request (${p.passes} passes for ${p.compacted} compacted requests; modes ${modes.join(", ")})`);
    else if (p.share < 0.9) problems.push(`prefix share between compactions ${p.kept}/${p.eligible} < 90 % (modes ${modes.join(", ")})`);
  }
  const id = agent.ownSession ? agent.ownSession(run.stdout) : session;
  const recorded = id ? ((await (await fetch(`${tap.origin}/v1/sessions/${encodeURIComponent(id)}`)).json()) as { reports?: { mode: string }[] }) : {};
  const reports = (recorded.reports ?? []).map((r) => r.mode).reverse();
  console.log(`[agents] ${agent.name} via the worker: ${main.length} main requests, modes ${modes.join(", ") || "(none)"}; session ${id ?? "?"} reports ${reports.join(", ") || "none"}`);
  expect(problems, `${agent.name}, through the worker`).toEqual([]);
}
