// Load on the worker as deployed locally (wrangler dev / workerd): /v1/plan with a ~100k-token transcript.
import autocannon from "autocannon";
import { plan } from "../src/index.js";
import { startWranglerDev } from "../tools/dev-server.mjs";
import { buildDemo } from "../tools/build-demo.mjs";
import { concatenated } from "./scaling.js";
import { table } from "./lib.js";

export async function loadBench(seconds = 60): Promise<string> {
  await buildDemo();
  let messages = concatenated(200);
  for (let n = 200; plan(messages, { contextWindow: 1e9 }).tokens.total < 100_000; n += 20) messages = concatenated(n);
  const tokens = plan(messages, { contextWindow: 1e9 }).tokens.total;
  const body = JSON.stringify({ messages, options: { contextWindow: 128_000 } });
  const dev = await startWranglerDev();
  try {
    const r = await autocannon({
      url: `${dev.base}/v1/plan`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      connections: 8,
      duration: seconds,
    });
    return (
      `POST /v1/plan, ${messages.length} messages, ${tokens.toLocaleString("en-US")} tokens, ${(body.length / 1e6).toFixed(2)} MB body; 8 connections for ${seconds} s against \`wrangler dev\` (one workerd process on this machine).\n\n` +
      table(
        ["requests", "errors", "non-2xx", "req/s (mean)", "latency p50 ms", "p99 ms", "max ms"],
        [[r.requests.total, r.errors + r.timeouts, r.non2xx, r.requests.average.toFixed(1), r.latency.p50, r.latency.p99, r.latency.max]],
      )
    );
  } finally {
    await dev.stop();
  }
}
