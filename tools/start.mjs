// `npm start`: the worker with the demo, locally, exactly as deployed (wrangler dev / workerd).
// No account, no API key, no network: without an upstream, compaction uses the deterministic summarizer.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { ensureDeps } from "./ensure-deps.mjs";

ensureDeps();
const { buildDemo } = await import("./build-demo.mjs");
await buildDemo();
const port = process.env.PORT ?? "8787";
console.log(`\ncontext-compactor worker on http://127.0.0.1:${port}/  (demo at /, API under /v1, OpenAPI at /openapi.json)`);
// wrangler dev reads the worker's settings from .dev.vars; without one the proxies have no upstream.
if (!existsSync(new URL("../.dev.vars", import.meta.url))) console.log("No .dev.vars: the proxies have no upstream. `cp .dev.vars.example .dev.vars` and set UPSTREAM_BASE_URL (and the rest) there.");
console.log("");
const dev = spawn("./node_modules/.bin/wrangler", ["dev", "--ip", "127.0.0.1", "--port", port, "--show-interactive-dev-session=false", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
