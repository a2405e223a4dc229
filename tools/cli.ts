#!/usr/bin/env node
// The `context-compactor` command: plan or compact a transcript file and show what happened.
// Built into dist/cli.js (the package's `bin`); `npm run cli` runs this source with tsx.
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CompactionInputError, HANDOFF_PREFIX, compact, plan, type CompactOptions, type CompactResult, type DialectName, type Plan } from "../src/index.js";
import { detectDialect, dialects } from "../src/convert.js";

const HELP = `context-compactor: fit an LLM transcript into its context window

Usage:
  context-compactor compact FILE [options]   compact the transcript and show the result
  context-compactor plan FILE [options]      show where head, middle and tail fall; change nothing
  context-compactor --help | --version

FILE is a JSON array of messages (or of OpenAI Responses input items), an object {"messages": [...],
"system"?: ...}, or JSONL: one message or item a line, or a Claude Code session log (its user and
assistant records; others are skipped).
A UTF-8 BOM is ignored. "-" reads standard input. Relative paths are read from the current directory.

Options:
  --window N          the model's context window in tokens (default 128000)
  --output-tokens N   tokens reserved for the reply (default 0)
  --threshold F       fraction of (window - output tokens) at which compaction starts (default 0.75)
  --dialect NAME      openai | anthropic | ai-sdk | openai-responses (default: detected from the messages)
  --focus TEXT        a topic the summary keeps in detail
  --force             compact even under the threshold
  --json              print only JSON (the plan, or {messages, state, report, system?}) on stdout

Summaries come from the deterministic summarizer: no model, no network, no key.`;

/** A mistake on the command line: the message, then the usage. */
class UsageError extends Error {}
/** A problem with the input: the message alone, no stack. */
class InputError extends Error {}

interface Args {
  command: "compact" | "plan";
  file?: string;
  window: number;
  outputTokens: number;
  threshold?: number;
  dialect?: DialectName;
  focus?: string;
  force: boolean;
  json: boolean;
}

function number(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(n)) throw new UsageError(`${flag} needs a number`);
  return n;
}

/** The dialect names, as the usage error lists them: "a, b, c or d". */
const NAMES = Object.keys(dialects).join(", ").replace(/, ([^,]+)$/, " or $1");

function parse(argv: string[]): Args | "help" | "version" {
  const a: Args = { command: "compact", window: 128_000, outputTokens: 0, force: false, json: false };
  const rest = [...argv];
  if (rest[0] === "compact" || rest[0] === "plan") a.command = rest.shift() as Args["command"];
  while (rest.length) {
    const arg = rest.shift()!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--version") return "version";
    if (arg === "--window") a.window = number(arg, rest.shift());
    else if (arg === "--output-tokens") a.outputTokens = number(arg, rest.shift());
    else if (arg === "--threshold") a.threshold = number(arg, rest.shift());
    else if (arg === "--focus") a.focus = rest.shift();
    else if (arg === "--force") a.force = true;
    else if (arg === "--json") a.json = true;
    else if (arg === "--dialect") {
      const d = rest.shift();
      if (d === undefined || !Object.hasOwn(dialects, d)) throw new UsageError(`--dialect takes ${NAMES}`);
      a.dialect = d as DialectName;
    } else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`);
    else if (a.file === undefined) a.file = arg;
    else throw new UsageError(`one FILE only (got ${a.file} and ${arg})`);
  }
  return a;
}

/** In a checkout of the repository, a real session to try the command on; none in the published package. */
const SAMPLE = fileURLToPath(new URL("../test/fixtures/trajectories/openai/claude-code-spotter__4d5611e5-241a-462a-8d15-5122611a9569.json", import.meta.url));

function readInput(file: string | undefined): { path: string; text: string } {
  if (file === undefined) {
    if (!existsSync(SAMPLE)) throw new UsageError("no FILE given");
    console.error(`no FILE given: using the repository's sample session ${SAMPLE}`);
    return { path: SAMPLE, text: readFileSync(SAMPLE, "utf8") };
  }
  if (file === "-") return { path: "standard input", text: readFileSync(0, "utf8") };
  // `npm run cli` starts in the package root; INIT_CWD is where the user typed the command.
  const from = process.env.npm_lifecycle_event === "cli" ? (process.env.INIT_CWD ?? process.cwd()) : process.cwd();
  const path = resolve(from, file);
  if (!existsSync(path)) throw new InputError(`${file}: no such file (looked for ${path})`);
  if (statSync(path).isDirectory()) throw new InputError(`${file} is a directory: give a transcript file (JSON or JSONL)`);
  try {
    return { path, text: readFileSync(path, "utf8") };
  } catch (e) {
    throw new InputError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

function transcript(path: string, raw: string): { messages: unknown[]; system?: unknown } {
  const text = raw.replace(/^\uFEFF/, ""); // a BOM, as Windows editors write one
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const lines = jsonLines(path, text);
    if (lines) return { messages: lines };
    throw new InputError(`${path} is not JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(data)) return { messages: data };
  const o = data as { messages?: unknown; system?: unknown } | null;
  if (o && Array.isArray(o.messages)) return { messages: o.messages, system: o.system };
  if (o && typeof o === "object" && messageOf(o) !== undefined) return { messages: jsonLines(path, text) ?? [] }; // JSONL of one line
  throw new InputError(`${path}: expected a JSON array of messages, an object with a "messages" array, or JSONL`);
}

/** A Claude Code session record: `{ type: "user" | "assistant", message: { role, content, … }, … }`. */
interface SessionRecord {
  type?: unknown;
  isSidechain?: unknown;
  message?: { id?: unknown; role?: unknown; content?: unknown };
}

/** OpenAI Responses input items that have no role: calls, their outputs, reasoning, compaction, server-side tool runs. */
const ROLELESS_ITEM = /^(?:reasoning|compaction|item_reference|mcp_\w+)$|_call(?:_output)?$/;

/**
 * The message a JSONL line holds: itself when it has a role or is a Responses item (`{ id }` alone
 * too: an item reference), the `message` of a Claude Code user or assistant record (its role and
 * content: the log's ids, model and usage are no part of it), and undefined for a line that holds
 * none (a summary, a system record, a file snapshot, a sidechain's).
 */
function messageOf(line: object): { role: unknown; content?: unknown } | undefined {
  const r = line as SessionRecord & { role?: unknown };
  if (typeof r.role === "string") return r as { role: unknown };
  const item = line as { type?: unknown; id?: unknown };
  if ((typeof item.type === "string" && r.message === undefined && ROLELESS_ITEM.test(item.type)) || (typeof item.id === "string" && Object.keys(line).length === 1)) return line as { role: unknown };
  if ((r.type !== "user" && r.type !== "assistant") || r.isSidechain === true || !r.message || typeof r.message.role !== "string") return undefined;
  return { role: r.message.role, content: r.message.content };
}

/**
 * JSONL: one message a line (blank lines and CRLF allowed). Undefined when the first line is no JSON
 * (so a broken JSON file keeps its own error). Claude Code logs an assistant message a content block
 * a line, under one message id, a tool's result sometimes between them: those lines are joined back
 * into the first, so the message holds all its calls and their results follow it.
 */
function jsonLines(path: string, text: string): unknown[] | undefined {
  const messages: unknown[] = [];
  let skipped = 0;
  const byId = new Map<unknown, { content?: unknown }>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let line: unknown;
    try {
      line = JSON.parse(lines[i]);
    } catch (e) {
      if (!messages.length && !skipped) return undefined;
      throw new InputError(`${path} line ${i + 1} is not JSON: ${(e as Error).message}`);
    }
    if (line === null || typeof line !== "object" || Array.isArray(line)) throw new InputError(`${path} line ${i + 1}: expected a message object`);
    const m = messageOf(line);
    if (!m) {
      skipped++;
      continue;
    }
    const id = m.role === "assistant" ? (line as SessionRecord).message?.id : undefined;
    const first = id === undefined ? undefined : byId.get(id);
    if (first && Array.isArray(first.content) && Array.isArray(m.content)) first.content = [...first.content, ...m.content];
    else messages.push(m);
    if (id !== undefined && !first) byId.set(id, m);
  }
  if (skipped) console.error(`context-compactor: skipped ${skipped} line${skipped === 1 ? "" : "s"} that hold no message (summaries, system records, snapshots, sidechains)`);
  return messages;
}

function bar(p: Pick<Plan, "head" | "middle" | "tail">, n: number, width = 60): string {
  const cells = (r: { start: number; end: number }, ch: string) => ch.repeat(Math.round(((r.end - r.start) / (n || 1)) * width));
  return `[${cells(p.head, "H")}${cells(p.middle, "·")}${cells(p.tail, "T")}]`;
}

function showPlan(p: Plan, n: number): void {
  console.log(`reason       ${p.reason}`);
  console.log(`tokens       ${p.tokens.total} (threshold ${p.tokens.threshold}, window after output reserve ${p.effectiveWindow})`);
  console.log(`partitions   head [${p.head.start}, ${p.head.end})  middle [${p.middle.start}, ${p.middle.end})  tail [${p.tail.start}, ${p.tail.end})`);
  console.log(`             ${bar(p, n)}`);
}

function showResult(r: CompactResult<unknown>, text: (m: unknown) => string): void {
  const rep = r.report;
  console.log(`mode         ${rep.mode}${rep.summary ? ` (summary from ${rep.summary.summarizer ?? rep.summary.source}, ${rep.summary.tokens} tokens)` : ""}`);
  console.log(`tokens       ${rep.tokensBefore} → ${rep.tokensAfter} (${Math.round((1 - rep.tokensAfter / rep.tokensBefore) * 100)} % saved)`);
  console.log(`messages     ${rep.messagesBefore} → ${rep.messagesAfter} (${rep.droppedMessages} summarized, ${rep.pruned.length} pruned)`);
  console.log(`cache break  first changed index ${rep.firstChangedIndex}`);
  for (const w of rep.warnings) console.log(`warning      ${w}`);
  const handoff = r.messages.map(text).find((t) => t.trimStart().startsWith(HANDOFF_PREFIX));
  if (handoff) console.log(`\n--- handoff ---\n${handoff}`);
}

async function main(argv: string[]): Promise<void> {
  const a = parse(argv);
  if (a === "help") return void console.log(HELP);
  if (a === "version") {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    return void console.log(pkg.version);
  }
  const input = readInput(a.file);
  const { messages, system } = transcript(input.path, input.text);
  const name = a.dialect ?? detectDialect(messages, system);
  const dialect = dialects[name];
  const options: CompactOptions<unknown> = {
    contextWindow: a.window,
    maxOutputTokens: a.outputTokens,
    threshold: a.threshold,
    focus: a.focus,
    force: a.force,
    dialect,
    system,
  };
  const text = (m: unknown) => dialect.view(m).text;
  if (a.command === "plan") {
    const p = plan(messages, options);
    if (a.json) return void console.log(JSON.stringify(p, null, 2));
    console.log(`transcript   ${input.path} (${messages.length} messages, ${name} format)`);
    return showPlan(p, messages.length);
  }
  const result = await compact(messages, options);
  if (a.json) return void console.log(JSON.stringify(result, null, 2));
  console.log(`transcript   ${input.path} (${messages.length} messages, ${name} format)`);
  showPlan(plan(messages, options), messages.length);
  showResult(result, text);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    console.error(`context-compactor: ${e.message}\n\n${HELP}`);
    process.exit(2);
  }
  // Bad input and bad options say what is wrong; anything else is a bug, shown with its stack.
  const told = e instanceof InputError || e instanceof CompactionInputError || (e instanceof RangeError && e.message.startsWith("context-compactor:"));
  console.error(told ? `context-compactor: ${(e as Error).message}` : e);
  process.exit(1);
});
