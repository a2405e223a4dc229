// `npm test`: every suite in every runtime (Node, Deno, workerd, Chromium, the real agents), then one plain line
// "N passed, N failed" summing them all.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDeps } from "./ensure-deps.mjs";
import { generatePortableFixtures } from "./gen-portable-fixtures.mjs";

const QUIET_WRANGLER = { WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const totals = { passed: 0, failed: 0 };
const lines = [];
const failures = []; // repeated above the summary: a CI log is often kept only by its tail
const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, ""); // without the terminal's colours
// Every suite's temporary files (wrangler's state, packed tarballs, built demos) in one folder, removed
// at the end: each run left ~12 MB behind in the system's.
const scratch = mkdtempSync(join(tmpdir(), "cc-test-"));

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, TMPDIR: scratch, ...env }, encoding: "utf8", maxBuffer: 1 << 28 });
  process.stdout.write(r.stdout ?? "");
  return { ok: r.status === 0, stdout: r.stdout ?? "" };
}

function record(name, passed, failed) {
  totals.passed += passed;
  totals.failed += failed;
  lines.push(`${name.padEnd(18)} ${passed} passed, ${failed} failed`);
}

/** A step that is one check: it passes or fails as a whole. */
function check(name, cmd, args) {
  const { ok } = run(name, cmd, args);
  record(name, ok ? 1 : 0, ok ? 0 : 1);
}

/** A vitest project: its own counts, read from its JSON report. */
function vitest(name, config, env = {}) {
  const out = `test-results/${name}.json`;
  const { ok } = run(name, "npx", ["vitest", "run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], env);
  let passed = 0;
  let failed = 1;
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, "utf8"));
    passed = report.numPassedTests;
    failed = report.numFailedTests || (ok ? 0 : 1); // a suite that failed to load counts as a failure
    failures.push(...failedIn(name, report));
  }
  record(name, passed, failed);
}

/** Each failed test of a vitest JSON report as one line: suite, file, name, the first line of its error. */
function failedIn(name, report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const where = file.name.replace(`${process.cwd()}/`, "");
    if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) {
      out.push(`${name}: ${where}: ${firstLine(file.message)}`); // the file itself failed (import, set-up)
    }
    for (const t of file.assertionResults ?? []) {
      if (t.status === "failed") out.push(`${name}: ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  return out;
}

/** The first line of an error, and fast-check's seed when a property failed (to replay it). */
function firstLine(text = "") {
  const seed = /\{ seed: [^}]*\}/.exec(plain(text))?.[0];
  const first = plain(text).split("\n").find((l) => l.trim())?.slice(0, 400) ?? "";
  return seed ? `${first} ${seed}` : first;
}

/** Deno's own runner: counts from its summary line. */
function deno() {
  const { ok, stdout } = run("deno", "npx", ["deno", "test", "--no-check", "--unstable-sloppy-imports", "--allow-read", "--no-prompt", "test/portable/deno.test.ts"], {
    DENO_DIR: "/tmp/context-compactor-deno",
    NO_COLOR: "1",
  });
  const m = /(\d+) passed[^|]*\| (\d+) failed/.exec(plain(stdout));
  record("deno", m ? Number(m[1]) : 0, m ? Number(m[2]) || (ok ? 0 : 1) : 1);
}

/** Debian's Chromium for the browser suite: installed once, skipped when present. */
function ensureChromium() {
  if (existsSync("/usr/bin/chromium")) return;
  console.log("[setup] installing Debian's chromium (apt)");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (...a) => spawnSync(sudo[0] ?? a[0], sudo.length ? a : a.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  apt("apt-get", "update", "-qq");
  apt("apt-get", "install", "-y", "-qq", "chromium");
  if (!existsSync("/usr/bin/chromium")) {
    console.error("[setup] the browser suite needs Debian's chromium at /usr/bin/chromium: `sudo apt-get install chromium` (it is never downloaded by Playwright)");
  }
}

ensureDeps(); // before anything that needs node_modules: on a fresh clone they are not there yet
ensureChromium();
generatePortableFixtures();
const { buildDemo } = await import("./build-demo.mjs");
await buildDemo(); // the worker serves it as assets
mkdirSync("test-results", { recursive: true });

check("typecheck", "npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]);
check("typecheck-workers", "npx", ["tsc", "-p", "workers/tsconfig.json", "--noEmit"]);
// The official SDKs' message types in and out (test/types), as bundler and Node ESM projects resolve them.
check("types-bundler", "npx", ["tsc", "-p", "test/types/tsconfig.bundler.json"]);
check("types-node16", "npx", ["tsc", "-p", "test/types/tsconfig.node16.json"]);
vitest("node", "vitest.config.ts", QUIET_WRANGLER);
deno();
vitest("workerd", "vitest.workers.config.ts", QUIET_WRANGLER);
vitest("worker", "vitest.worker.config.ts", QUIET_WRANGLER);
vitest("chromium", "vitest.browser.config.ts");
vitest("agents", "vitest.agents.config.ts", QUIET_WRANGLER); // the real agents through wrangler dev (a few minutes)

if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${lines.join("\n")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
rmSync(scratch, { recursive: true, force: true });
process.exit(totals.failed ? 1 : 0);
