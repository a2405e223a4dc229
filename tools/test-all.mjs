// `npm test`: every suite in every runtime, then one line "N passed, N failed".
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { ensureDeps } from "./ensure-deps.mjs";

ensureDeps();
mkdirSync("test-results", { recursive: true });
const totals = { passed: 0, failed: 0 };
const lines = [];

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status === 0;
}

/** A step that is one check: it passes or fails as a whole. */
function check(name, cmd, args) {
  const ok = run(name, cmd, args);
  totals[ok ? "passed" : "failed"]++;
  lines.push(`${name}: ${ok ? "ok" : "FAILED"}`);
}

/** A vitest project: its own test counts, read from the JSON report. */
function vitest(name, config) {
  const out = `test-results/${name}.json`;
  const ok = run(name, "npx", ["vitest", "run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(readFileSync(out, "utf8"));
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    if (!ok && failed === 0) failed = 1; // a suite that failed to load, or a crash
  } catch {
    failed = 1;
  }
  totals.passed += passed;
  totals.failed += failed;
  lines.push(`${name}: ${passed} passed, ${failed} failed`);
}

check("typecheck", "npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]);
vitest("node", "vitest.config.ts");

console.log(`\n${lines.join("\n")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
