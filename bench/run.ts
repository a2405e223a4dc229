// `npm run bench [section…] [--write]`: prints each table with the command that reproduces it; with
// --write it also writes them into bench/RESULTS.md with the machine it ran on (a look at the numbers
// leaves the tracked file alone). Nothing here is a test.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { BUDGETS, bundleSize, machine, table } from "./lib.js";

async function size(): Promise<string> {
  const rows: (string | number)[][] = [];
  const margin = (limit: number, size: number) => `${limit - size} ${limit >= size ? "under" : "**over**"}`;
  for (const { names, budget, total } of BUDGETS) {
    const b = await bundleSize("src/index.ts", names);
    rows.push([`\`{ ${names.join(", ")} }\``, b.minified, b.gzip, `${budget}`, margin(budget, b.gzip), b.gzip + b.summaryGzip, b.gzip + b.lazyGzip, `${total}`, margin(total, b.gzip + b.lazyGzip)]);
  }
  for (const [what, entry] of [["everything in `context-compactor`", "src/index.ts"], ["`context-compactor/convert`", "src/convert.ts"], ["`context-compactor/tiktoken` (o200k ranks)", "src/tiktoken.ts"], ["`context-compactor/ai-sdk`", "src/ai-sdk/index.ts"]]) {
    const b = await bundleSize(entry);
    rows.push([what, b.minified, b.gzip, "", "", "", b.gzip + b.lazyGzip, "", ""]);
  }
  return (
    table(["what a user imports (esbuild, browser, minified, splitting)", "minified bytes at import", "gzip at import", "budget", "margin", "gzip with a first summary (deterministic)", "gzip with all it loads on first use", "guard", "margin"], rows) +
    "\n\nWhat loads with the import is what a page pays before its first compaction. The summary stage (material, summarizer chain), the deterministic checkpoint writer and the model prompt are loaded with `import()` by the first pass that summarizes: a no-op or prune-only pass never loads them; the deterministic summarizer (the default) never loads the model prompt nor the streaming redaction of a model's deltas (the first-summary column; test/lazy-load.test.ts checks it at run time). Bundlers that split code keep them out of the initial load; others (and a Worker's single bundle) inline them, and then the last columns are what the bundle holds. Budgets are the issue's targets; guards only stop the totals from growing unnoticed."
  );
}

// Each section's module is loaded when it runs: a run of one section holds none of the others' libraries
// (the peers' LangChain, ADK and AI SDK made a speed run's heap and collections ~8 % costlier)
const SECTIONS: Record<string, { title: string; run: () => Promise<string> }> = {
  speed: { title: "Speed on the largest fixture", run: async () => (await import("./speed.js")).speedBench() },
  size: { title: "Bundle size", run: size },
  scaling: { title: "Scaling: 10 to 10,000 messages", run: async () => (await import("./scaling.js")).scalingBench() },
  estimation: { title: "Token estimation against o200k_base", run: async () => (await import("./estimation.js")).estimationBench() },
  peers: { title: "Side by side: AI SDK pruneMessages, LangChain trimMessages and summarizationMiddleware, ADK TokenBasedContextCompactor", run: async () => (await import("./peers.js")).peersBench() },
  quality: { title: "Quality without a model: artifact recall of the handoff", run: async () => (await import("./quality.js")).qualityBench() },
  unresolved: { title: "Unresolved errors kept by the handoff", run: async () => (await import("./unresolved.js")).unresolvedBench() },
  cache: { title: "Cache economics: a long session turn by turn", run: async () => (await import("./cache.js")).cacheBench() },
  load: { title: "Load: the worker under wrangler dev", run: async () => (await import("./load.js")).loadBench(Number(process.env.LOAD_SECONDS ?? 60)) },
  prefix: { title: "The prompt cache through the worker: agents resending their history", run: async () => (await import("./prefix.js")).prefixBench() },
  agents: { title: "Real agents through the worker", run: async () => (await import("./agents.js")).agentsBench() },
};
const redactModule = new URL("redact.ts", import.meta.url);
if (existsSync(redactModule)) {
  SECTIONS.redact = { title: "Secret redaction", run: async () => ((await import(redactModule.href)) as { redactBench: () => Promise<string> }).redactBench() };
  SECTIONS.holdout = { title: "Secret redaction on the blind holdout corpus", run: async () => (await import("./holdout.js")).holdoutBench() };
}

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--write" && !(a in SECTIONS));
if (unknown.length) throw new Error(`unknown bench section ${unknown.join(", ")}: the sections are ${Object.keys(SECTIONS).join(", ")}; --write saves them to bench/RESULTS.md`);
const write = args.includes("--write");
const wanted = args.filter((a) => a in SECTIONS);
const names = wanted.length ? wanted : Object.keys(SECTIONS);
const parts: string[] = [];
for (const name of names) {
  const { title, run } = SECTIONS[name];
  const started = performance.now();
  const body = await run();
  const text = `## ${title}\n\n\`npm run bench -- ${name}\`\n\n${body}\n`;
  console.log(`\n${text}(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  parts.push(text);
}
if (write) writeResults();
else console.log("\nbench/RESULTS.md left as it was (add --write to save these tables there)");

/** A partial run replaces its own sections of bench/RESULTS.md and keeps the others as they were. */
function writeResults() {
  const results = new URL("RESULTS.md", import.meta.url);
  const old = existsSync(results) ? readFileSync(results, "utf8") : "";
  const kept = new Map<string, string>();
  for (const section of old.split(/\n(?=## )/).slice(1)) kept.set(section.slice(3, section.indexOf("\n")), `${section.trimEnd()}\n`);
  for (const [i, name] of names.entries()) kept.set(SECTIONS[name].title, parts[i]);
  const order = Object.values(SECTIONS).map((s) => s.title);
  const body = order.filter((t) => kept.has(t)).map((t) => kept.get(t));
  writeFileSync(
    results,
    `# Benchmark results\n\nMachine: ${machine()}. Generated by \`npm run bench -- --write\`; sections last run on ${new Date().toISOString().slice(0, 10)}` +
      `${wanted.length ? ` (${wanted.join(", ")}; the others are from earlier runs)` : ""}. Each section can be rerun alone with the command under its title (which prints it; add \`--write\` to save it here).\n\n${body.join("\n")}`,
  );
  console.log("\nwritten to bench/RESULTS.md");
}
