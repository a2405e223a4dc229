// The prompt cache through the worker: real sessions resent turn by turn (the whole history every
// turn, as agents do) through `wrangler dev` to a local upstream that records what it receives.
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { estimateTokens, type ChatMessage } from "../src/index.js";
import { dialects, fromOpenAI } from "../src/convert.js";
import { trajectories } from "../test/support/fixtures.js";
import { startWranglerDev } from "../tools/dev-server.mjs";
import { table } from "./lib.js";

const WINDOW = 32_000;
const SESSIONS = ["claude-code-spotter__4d5611e5-241a", "claude-code-spotter__258c7280", "claude-code-spotter__fa812bfe-b295"];

/** `compact`: POST /v1/compact with a session, a pass on the whole history every request (what the proxies did before). */
type Route = "chat" | "messages" | "compact";

/** An upstream on 127.0.0.1 that answers at once and keeps the last body it received. */
async function upstream(): Promise<{ server: Server; port: number; last: () => { messages: unknown[]; system?: unknown } }> {
  let last: { messages: unknown[]; system?: unknown } = { messages: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      last = JSON.parse(Buffer.concat(chunks).toString("utf8")); // decoded whole: a chunk may end inside a character
      res.setHeader("content-type", "application/json");
      res.end(req.url?.endsWith("/v1/messages") ? JSON.stringify({ type: "message", role: "assistant", content: [{ type: "text", text: "ok" }] }) : JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as { port: number }).port, last: () => last };
}

const quantile = (xs: number[], q: number) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

interface Run {
  requests: number;
  passes: number;
  between: number;
  kept: number;
  sent: number;
  original: number;
  cached: number;
  latency: number[];
}

async function drive(base: string, last: () => { messages: unknown[]; system?: unknown }, name: string, route: Route, session: boolean): Promise<Run> {
  const history = trajectories().find((t) => t.name.startsWith(name))!.messages as ChatMessage[];
  const { messages, system } = route === "messages" ? fromOpenAI(history, "anthropic") : { messages: history as unknown[], system: undefined };
  const dialect = dialects[route === "messages" ? "anthropic" : "openai"];
  const count = (m: unknown[], s?: unknown) => estimateTokens(m, { dialect }) + (typeof s === "string" ? estimateTokens(s) : 0);
  const headers = { "content-type": "application/json", "x-context-window": String(WINDOW), ...(session ? { "x-session-id": `bench-${route}-${crypto.randomUUID()}` } : {}) };
  const run: Run = { requests: 0, passes: 0, between: 0, kept: 0, sent: 0, original: 0, cached: 0, latency: [] };
  let previous: { messages: unknown[]; system?: unknown } | undefined;
  for (let i = 1; i < messages.length; i++) {
    if ((messages[i] as { role: string }).role !== "assistant") continue;
    const request = messages.slice(0, i);
    const body =
      route === "compact"
        ? { messages: request, options: { contextWindow: WINDOW }, sessionId: headers["x-session-id"] }
        : route === "chat"
          ? { model: "gpt-4o", messages: request }
          : { model: "claude-sonnet-4", max_tokens: 1000, messages: request, system };
    const t = performance.now();
    const res = await fetch(`${base}/v1/${route === "chat" ? "chat/completions" : route}`, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = await res.text();
    run.latency.push(performance.now() - t);
    if (!res.ok) throw new Error(`${route} ${res.status}`);
    const compacted = route === "compact" ? (JSON.parse(answer) as { messages: unknown[]; report: { mode: string } }) : undefined;
    const sent = compacted ? { messages: compacted.messages } : structuredClone(last());
    const mode = compacted?.report.mode ?? res.headers.get("x-compaction-mode")!;
    run.requests++;
    run.sent += count(sent.messages, sent.system);
    run.original += count(request, system);
    if (mode !== "noop" && mode !== "reused") run.passes++;
    else if (previous) {
      run.between++;
      const n = previous.messages.length;
      const prefix = sameJSON(previous.system, sent.system) && sent.messages.length >= n && previous.messages.every((m, k) => sameJSON(m, sent.messages[k]));
      if (prefix) {
        run.kept++;
        run.cached += count(previous.messages, previous.system);
      }
    }
    previous = sent;
  }
  return run;
}

export async function prefixBench(): Promise<string> {
  const up = await upstream();
  const persist = mkdtempSync(join(tmpdir(), "prefix-bench-"));
  const dev = await startWranglerDev({ persist, vars: { UPSTREAM_BASE_URL: `http://127.0.0.1:${up.port}/v1`, ANTHROPIC_UPSTREAM_BASE_URL: `http://127.0.0.1:${up.port}` } });
  const rows: (string | number)[][] = [];
  try {
    for (const route of ["compact", "chat", "messages"] as const) {
      for (const session of route === "compact" ? [true] : [true, false]) {
        const runs: Run[] = [];
        for (const name of SESSIONS) runs.push(await drive(dev.base, up.last, name, route, session));
        const sum = (k: keyof Omit<Run, "latency">) => runs.reduce((s, r) => s + r[k], 0);
        const latency = runs.flatMap((r) => r.latency);
        rows.push([
          route === "compact" ? "before: a pass every request (`/v1/compact` with a session)" : `/v1/${route === "chat" ? "chat/completions" : "messages"}`,
          route === "compact" ? "sessionId" : session ? "x-session-id" : "none (content-keyed)",
          sum("requests"),
          sum("passes"),
          `${sum("kept")}/${sum("between")} (${((100 * sum("kept")) / sum("between")).toFixed(1)} %)`,
          sum("original").toLocaleString("en-US"),
          sum("sent").toLocaleString("en-US"),
          `${((100 * sum("cached")) / sum("sent")).toFixed(1)} %`,
          (sum("sent") - sum("cached")).toLocaleString("en-US"),
          `${quantile(latency, 0.5).toFixed(0)} / ${quantile(latency, 0.99).toFixed(0)}`,
        ]);
      }
    }
  } finally {
    await dev.stop();
    up.server.close();
    rmSync(persist, { recursive: true, force: true });
  }
  return (
    `Three Claude Code sessions of the fixtures (${SESSIONS.join(", ")}), resent turn by turn (the whole history up to each model answer, every turn, as agents do) through \`wrangler dev\` to an upstream on 127.0.0.1 that answers at once; window ${WINDOW / 1000}k, the deterministic summarizer. ` +
    "A pass is a request whose compaction ran (prune, summary, fallback); the others are `reused` (the session's compacted span substituted) or `noop`. " +
    "The first row is what the proxies did before sessions kept their span: a pass on the whole history at every request over the threshold, its references renumbered each time. " +
    "Prefix kept: requests between passes whose upstream body starts with the previous upstream body, byte for byte (messages and system). " +
    "Tokens are the built-in estimate: what the client sent (what would go upstream without the worker, far over the window) and what the worker sent; " +
    "cacheable is the share of what was sent that repeats the previous request (a provider's prompt cache reads it instead, at a tenth of the price or less); what is not cacheable is what the provider processes afresh. A pass every request sends fewer tokens (each pass compacts anew) but almost none of them cacheable. Latency is the round trip through the worker (the upstream answers at once).\n\n" +
    table(["route", "session", "requests", "passes", "prefix kept between passes", "tokens the client sent", "tokens sent upstream", "cacheable", "not cacheable (tokens)", "latency p50 / p99 ms"], rows)
  );
}
