// Starts `wrangler dev` on a free port (as `npm start` does) and stops it cleanly: for tests and benches.
import { spawn } from "node:child_process";
import { createServer } from "node:http";

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/** @param {{ persist?: string, vars?: Record<string, string>, assets?: string }} options (assets: a demo build of the caller's own, instead of web-demo/dist) */
export async function startWranglerDev(options = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false"];
  if (options.persist) args.push("--persist-to", options.persist);
  if (options.assets) args.push("--assets", options.assets);
  for (const [k, v] of Object.entries(options.vars ?? {})) args.push("--var", `${k}:${v}`);
  const child = spawn("./node_modules/.bin/wrangler", args, {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: "ignore",
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}/openapi.json`)).ok) return { base, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error("wrangler dev did not start within 30 s");
}
