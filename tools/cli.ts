// `npm start` (until the worker lands): compact a fixture transcript and show what happened.
// Usage: npm start -- [transcript.json] [--window N] [--output-tokens N] [--focus TEXT] [--json]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compact, type ChatMessage, type CompactResult } from "../src/index.js";

const DEFAULT_FIXTURE = fileURLToPath(
  new URL("../test/fixtures/trajectories/openai/claude-code-spotter__4d5611e5-241a-462a-8d15-5122611a9569.json", import.meta.url),
);

function args(argv: string[]) {
  const o = { file: DEFAULT_FIXTURE, window: 32_000, outputTokens: 4_000, focus: undefined as string | undefined, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--window") o.window = Number(argv[++i]);
    else if (a === "--output-tokens") o.outputTokens = Number(argv[++i]);
    else if (a === "--focus") o.focus = argv[++i];
    else if (a === "--json") o.json = true;
    else if (a.startsWith("--")) throw new Error(`unknown flag ${a}`);
    else o.file = a;
  }
  return o;
}

function bar(result: CompactResult, width = 60): string {
  const { head, middle, tail } = result.report.partitions;
  const n = result.report.messagesBefore || 1;
  const cells = (r: { start: number; end: number }, ch: string) => ch.repeat(Math.round(((r.end - r.start) / n) * width));
  return `[${cells(head, "H")}${cells(middle, "·")}${cells(tail, "T")}]`;
}

const o = args(process.argv.slice(2));
const parsed = JSON.parse(readFileSync(o.file, "utf8"));
const messages: ChatMessage[] = Array.isArray(parsed) ? parsed : parsed.messages;
let streamed = 0;
const result = await compact(messages, {
  contextWindow: o.window,
  maxOutputTokens: o.outputTokens,
  focus: o.focus,
  onEvent: (e) => {
    if (e.type === "summary-delta") streamed += e.text.length;
  },
});

if (o.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  const r = result.report;
  const p = r.partitions;
  console.log(`transcript   ${o.file}`);
  console.log(`window       ${o.window} tokens, ${o.outputTokens} reserved for output`);
  console.log(`reason       ${r.reason}`);
  console.log(`partitions   head [${p.head.start}, ${p.head.end})  middle [${p.middle.start}, ${p.middle.end})  tail [${p.tail.start}, ${p.tail.end})`);
  console.log(`             ${bar(result)}`);
  console.log(`mode         ${r.mode}${r.summary ? ` (summary from ${r.summary.summarizer ?? r.summary.source}, ${r.summary.tokens} tokens, ${streamed} chars streamed)` : ""}`);
  console.log(`tokens       ${r.tokensBefore} → ${r.tokensAfter} (${Math.round((1 - r.tokensAfter / r.tokensBefore) * 100)} % saved)`);
  console.log(`messages     ${r.messagesBefore} → ${r.messagesAfter} (${r.droppedMessages} summarized, ${r.pruned.length} pruned)`);
  console.log(`cache break  first changed index ${r.firstChangedIndex}`);
  for (const w of r.warnings) console.log(`warning      ${w}`);
  const handoff = result.messages.find((m) => typeof m.content === "string" && m.content.startsWith("[CONTEXT HANDOFF"));
  if (handoff) console.log(`\n--- handoff (${handoff.role}) ---\n${handoff.content}`);
}
