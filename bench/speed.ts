// `npm run bench -- speed`: plan and compact on the largest fixture against JSON.stringify of it (issue
// 29's targets), at a 32k and a 128k window, and the first pass of a fresh process against its second.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatMessage, Summarizer } from "../src/index.js";
import type * as Entry from "../src/index.js";
import type * as Adopt from "../src/estimate/adopt.js";
import { trajectories } from "../test/support/fixtures.js";
import { median, packaged, table } from "./lib.js";

/** A measured step: `fresh` makes its input before each run, untimed. */
interface Step {
  run: (messages: ChatMessage[]) => unknown;
  fresh?: boolean;
}

/**
 * Rounds of every step run untimed before any is timed. A pass runs ~500 functions that V8 optimizes
 * one by one, on its compiler threads: 5 rounds left the compact rows at ~14 ms CPU time to ~8.4 wall
 * (~7 and ~6.8 once done), timing code still being compiled. A fresh process's first pass, which pays
 * that compiling, has rows of its own (`firstCall`).
 */
const WARM_ROUNDS = 30;
/** The groups rows are timed in, each beside JSON.stringify. */
const GROUPS = ["plan", "same", "anew", "model"] as const;
type Group = (typeof GROUPS)[number];

/**
 * Median ms of each step, interleaved so that machine drift hits them alike. A step on the same
 * objects every round is an SDK's case (head and tail are the objects of the last call: their counts
 * are kept); `fresh` is a worker's, which parses each request anew.
 */
async function interleaved(messages: ChatMessage[], steps: Step[], rounds: number): Promise<{ wall: number[]; cpu: number[] }> {
  const wall = steps.map(() => [] as number[]);
  const cpu = steps.map(() => [] as number[]);
  for (let r = 0; r < rounds + 5; r++) {
    for (const [i, s] of steps.entries()) {
      const input = s.fresh ? structuredClone(messages) : messages;
      const [t, c] = [performance.now(), cpuMs()];
      await s.run(input);
      if (r >= 5) wall[i].push(performance.now() - t), cpu[i].push(cpuMs() - c);
    }
  }
  return { wall: wall.map(median), cpu: cpu.map(median) };
}

/** CPU time of the process: unlike the wall clock, not stretched by waiting for a core on a loaded machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * The child process that times a fresh process's first and second compaction (the code bundled as an
 * app ships it). With "near", as a session meets it: a no-op pass on the transcript at 85 % of its
 * threshold first (a copy: no count is kept for the timed pass), then the model's turn (20 ms).
 */
const FIRST_CALL = `
import { readFileSync } from "node:fs";
const [bundle, file, window, mode] = (globalThis.Deno ? Deno.args : process.argv).slice(-4);
const { compact, plan } = await import(bundle);
const messages = JSON.parse(readFileSync(file, "utf8")).messages;
const second = structuredClone(messages);
const o = { contextWindow: Number(window) };
if (mode === "near") {
  const earlier = structuredClone(messages);
  const { total } = plan(earlier, o).tokens;
  let w = Math.ceil(total / 0.85 / 0.75);
  while (plan(earlier, { contextWindow: w }).shouldCompact) w = Math.ceil(w * 1.02);
  await compact(earlier, { contextWindow: w });
  await new Promise((done) => setTimeout(done, 20));
}
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const timed = async (m) => { const [t, c] = [performance.now(), cpu()]; await compact(m, o); return [performance.now() - t, cpu() - c]; };
console.log(JSON.stringify([...(await timed(messages)), ...(await timed(second))]));
`;

/**
 * First and second compaction of `file` in each of `processes` fresh Node processes, medians: the
 * first pays for loading the lazily loaded code, compiling the patterns and optimizing the scans.
 * Run on the bundle in `dir` (`packaged`), not through tsx, which would charge its own transpiling
 * of each module to the first pass. The two cases alternate, so that machine drift hits them alike.
 */
function firstCall(dir: string, file: string, window: number, processes: number): { fresh: number[]; near: number[]; deno: number[]; denoIs: string } {
  const root = fileURLToPath(new URL("..", import.meta.url));
  writeFileSync(join(dir, "first-call.mjs"), FIRST_CALL);
  const args = (mode: string) => [join(dir, "index.js"), file, String(window), mode];
  const run = (mode: string) => JSON.parse(execFileSync(process.execPath, [join(dir, "first-call.mjs"), ...args(mode)], { encoding: "utf8" })) as number[];
  // The same bundle in Deno (the devDependency): a current V8 (Node 20's is 11.3), with Maglev, the mid
  // tier Node 20 lacks. Its process.cpuUsage() reports one figure as both user and system time: wall clock only.
  const denoRun = (a: string[]) => execFileSync(join(root, "node_modules/.bin/deno"), a, { encoding: "utf8", env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" } });
  const deno = () => JSON.parse(denoRun(["run", "--allow-read", "--no-prompt", join(dir, "first-call.mjs"), ...args("fresh")])) as number[];
  const [denoIs, v8] = denoRun(["--version"]).split("\n").map((l) => l.split(" ")[1]);
  const runs = Array.from({ length: processes }, () => [run("fresh"), run("near"), deno()]);
  const medians = (k: 0 | 1 | 2) => [0, 1, 2, 3].map((i) => median(runs.map((r) => r[k][i]))); // first wall, first CPU, second wall, second CPU
  return { fresh: medians(0), near: medians(1), deno: medians(2), denoIs: `Deno ${denoIs} (V8 ${v8.split("-")[0]}, with Maglev)` };
}

export async function speedBench(): Promise<string> {
  // (the worker's adoption beside the entry for the rows; the entry alone for a fresh process, as an app loads it)
  return packaged(["src/index.ts", "src/estimate/adopt.ts"], (bundle) =>
    packaged(["src/index.ts"], async (app) => measured(app.dir, await bundle.load<typeof Entry>("index.js"), await bundle.load<typeof Adopt>("estimate/adopt.js"))),
  );
}

async function measured(dir: string, { compact, plan }: typeof Entry, { adoptUnchanged }: typeof Adopt): Promise<string> {
  const all = trajectories().map((t) => ({ ...t, tokens: plan(t.messages, { contextWindow: 1e9 }).tokens.total }));
  const big = all.sort((a, b) => b.tokens - a.tokens)[0];
  const m = big.messages;
  // A model that answers at once: what compact costs around a model summarizer (its material redacted whole).
  const instant: Summarizer = Object.assign(async () => "## Active task\n- continue", { label: "instant-model" });
  const at = (contextWindow: number) => ({ contextWindow });
  // The worker's session: each request parsed anew adopts the objects of the last one that read the same.
  let last: readonly ChatMessage[] | undefined;
  const session = (x: ChatMessage[]) => plan((last = adoptUnchanged(last, x)), at(32_000));
  // The worker's session compacts what it adopted too (workers/session.ts): one kept request a row.
  const compactInSession = (w: number) => {
    let kept: readonly ChatMessage[] | undefined;
    return (x: ChatMessage[]) => compact((kept = adoptUnchanged(kept, x)), at(w));
  };
  // each row: its name, its step, its target, and the group it is timed in
  const rows: [string, Step, string, "" | Group][] = [
    ["JSON.stringify(messages)", { run: (x) => JSON.stringify(x) }, "", ""],
    ["plan, 32k, the same message objects each round (an SDK's next call)", { run: (x) => plan(x, at(32_000)) }, "≤ 0.5", "plan"],
    ["plan, 32k, messages parsed anew each round, in a session (a worker's request: adopted from the last one)", { run: session, fresh: true }, "≤ 0.5", "plan"],
    ["plan, 32k, messages parsed anew each round, no session (every message counted)", { run: (x) => plan(x, at(32_000)), fresh: true }, "", "plan"],
    ["compact, 32k, deterministic summarizer, same objects", { run: (x) => compact(x, at(32_000)) }, "≤ 5", "same"],
    ["compact, 32k, deterministic summarizer, parsed anew", { run: (x) => compact(x, at(32_000)), fresh: true }, "≤ 5", "anew"],
    ["compact, 32k, deterministic summarizer, parsed anew, in a session (a worker's request: adopted from the last one)", { run: compactInSession(32_000), fresh: true }, "≤ 5", "anew"],
    // result.archive is built when first read (its entries redacted as each is read): a worker's session reads it, an SDK's caller may not
    ["compact, 32k, deterministic summarizer, same objects, `result.archive` read (a worker's session keeps it)", { run: async (x) => (await compact(x, at(32_000))).archive }, "", "same"],
    ["compact, 128k, deterministic summarizer, same objects", { run: (x) => compact(x, at(128_000)) }, "≤ 5", "same"],
    ["compact, 128k, deterministic summarizer, parsed anew", { run: (x) => compact(x, at(128_000)), fresh: true }, "≤ 5", "anew"],
    ["compact, 128k, deterministic summarizer, parsed anew, in a session", { run: compactInSession(128_000), fresh: true }, "≤ 5", "anew"],
    ["compact, 32k, around a model summarizer that answers at once, same objects", { run: (x) => compact(x, { ...at(32_000), summarizer: instant }) }, "", "model"],
  ];
  for (let r = 0; r < WARM_ROUNDS; r++) for (const [, s] of rows) await s.run(s.fresh ? structuredClone(m) : m);
  // Plan's rows beside JSON.stringify alone; compact's in groups by their input (the same objects, or
  // parsed anew), and around a model summarizer alone: a pass leaves garbage whose collection (on the
  // process's other threads too) is charged to the run after it, a copy parsed anew (~0.6 MB) and a
  // model summarizer's material (~150k characters redacted) most of all.
  const groups = GROUPS.map((g) => [rows[0], ...rows.filter((r) => r[3] === g)]);
  const measured: string[][] = [];
  for (const group of groups) {
    const { wall: ms, cpu } = await interleaved(m, group.map((r) => r[1]), 40);
    const ratio = (x: number, of: number[]) => (x / of[0]).toFixed(2);
    measured.push(...group.map(([name, , target], i) => [name, ms[i].toFixed(2), ratio(ms[i], ms), cpu[i].toFixed(2), ratio(cpu[i], cpu), target]));
  }
  const modes = await Promise.all([32_000, 128_000].map(async (w) => (await compact(m, at(w))).report));
  const file = fileURLToPath(new URL(`../test/fixtures/trajectories/openai/${big.name}.json`, import.meta.url));
  const { fresh, near, deno, denoIs } = firstCall(dir, file, 32_000, 7);
  return (
    `${big.name}: ${m.length} messages, ${big.tokens} estimated tokens, ${(JSON.stringify(m).length / 1e6).toFixed(2)} MB JSON ` +
    `(medians of 40 interleaved rounds, by the wall clock and by the process's CPU time, which a loaded machine does not stretch). ` +
    "Every row runs src/ bundled as an app ships it (esbuild, ESM, minified: `packaged` in bench/lib.ts), in a process that loads no other section's libraries; " +
    "through tsx, whose transform names every function (esbuild's `keepNames`: a call for each closure a pass makes), the compact rows read ~20 % slower. " +
    `At 32k the pass summarizes (${modes[0].mode}, ${modes[0].tokensBefore} → ${modes[0].tokensAfter} tokens), ` +
    `at 128k it prunes (${modes[1].mode}, → ${modes[1].tokensAfter}). "Same objects": compact is given the array of its last call, as an SDK ` +
    "gives it (a message's token count is kept by object, so only what is new is counted); \"parsed anew\": a copy each round, as a worker " +
    "parses each request (untimed); \"in a session\": as the worker's session does before it plans or compacts, each message that writes the same JSON as the last request's at its index " +
    "is given that earlier object (src/estimate/adopt.ts; the comparison is timed), so its kept count answers. " +
    `Every step first runs ${WARM_ROUNDS} times untimed (V8 is still optimizing a pass's code before). Plan's rows are interleaved with ` +
    "JSON.stringify alone; compact's in groups with JSON.stringify again, by their input (the same objects; parsed anew), and around a model summarizer alone " +
    "(each ratio is to its own group's JSON.stringify): a pass leaves garbage whose collection would be charged to the run after it. The deterministic summarizer redacts the sources of the lines it keeps; a model summarizer is sent the " +
    "whole material (~150k characters) redacted, each distinct text once. `result.archive` is built when first read (each entry redacted when it is read): " +
    "the compact rows do not read it but the one that says so, as a worker's session does.\n\n" +
    table(
      ["operation", "ms", "× JSON.stringify", "CPU ms", "× JSON.stringify (CPU)", "target"],
      measured,
    ) +
    "\n\n" +
    table(
      ["compact, 32k, deterministic summarizer, in a fresh Node process (7 of them, medians; an esbuild bundle of src/, as an app ships it)", "first ms", "second ms", "first ÷ second", "target"],
      [
        ["its first call: wall clock", ...firstRow(fresh, 0), "≤ 2"],
        ["its first call: CPU time of the process (its compiler and GC threads too)", ...firstRow(fresh, 1), "≤ 2"],
        ["after a no-op pass at 85 % of the threshold (a session's first compaction): wall clock", ...firstRow(near, 0), ""],
        ["after a no-op pass at 85 % of the threshold: CPU time", ...firstRow(near, 1), ""],
        [`its first call in ${denoIs}, the same bundle: wall clock`, ...firstRow(deno, 0), ""],
      ],
    ) +
    "\n\nThe first pass of a process also loads the rewriting code and the summary stage (`import()`), compiles the redaction patterns and has the scans optimized (V8 compiles on other threads: the CPU time counts that work, the wall clock does not; on a loaded machine the wall clock also counts waiting for a core, so read the CPU row there). " +
    "A pass that finds the transcript at 80 % of its threshold or more starts loading that code, so a session's first compaction, which follows no-op passes, finds it loaded; its plan has run before too. " +
    "The Deno row runs the same bundle on a current V8 with Maglev, the tier between baseline and optimized code that Node 20's V8 lacks: what it leaves of the ratio is V8's tiering of a fresh process, not Node 20's."
  );
}

/** First ms, second ms and their ratio, by the wall clock (`k` 0) or CPU time (1), from firstCall's medians. */
function firstRow(m: number[], k: 0 | 1): string[] {
  const [first, second] = [m[k], m[k + 2]];
  return [first.toFixed(1), second.toFixed(1), (first / second).toFixed(2)];
}
