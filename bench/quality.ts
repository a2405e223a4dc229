// Model-free quality: how many artifacts of the summarized span a handoff still carries, for the
// deterministic summarizer and for Claude Code's own compaction summaries of the same sessions;
// whether it shows a settled error as blocked; what the archive costs; how the handoff grows.
import { HANDOFF_PREFIX, compact, plan, type ChatMessage } from "../src/index.js";
import { trajectories, trajectory } from "../test/support/fixtures.js";
import { table } from "./lib.js";

type Kind = "file paths" | "commands" | "error lines" | "user requests";
type Artifacts = Record<Kind, Set<string>>;

const PATH = /(?:^|[\s"'`(=])((?:\.{1,2}\/|\/|~\/)?(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),:;])/g;
/** A failed run as Claude Code reports it: an exit status, a tool error, or an error word in the first line. */
const FAILED = /^(?:Exit code [1-9]|<tool_use_error>|[^\n]*\b(?:error|failed|fatal)\b)/i;
const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal|panic)\b/i;
/** What Claude Code writes in the user's turn that the user did not ask: reminders, notifications, slash-command echoes, interrupts. */
const NOTICE = /^\s*(?:<(?:system-reminder|task-notification|local-command-\w+|command-(?:name|message|args))>|Caveat: The messages below were generated|\[Request interrupted by user)/;
/** Files by basename: a handoff may write paths relative to the working directory, grouped by folder. */
const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));

/** What a continuing agent would need: paths, commands run, errors seen, what the user asked. */
function artifacts(messages: ChatMessage[]): Artifacts {
  const a: Artifacts = { "file paths": new Set(), commands: new Set(), "error lines": new Set(), "user requests": new Set() };
  for (const m of messages) {
    const t = text(m);
    // Files read or written (the calls' paths), and files the user or the agent named: not every path an output lists.
    if (m.role !== "tool") for (const x of t.matchAll(PATH)) a["file paths"].add(basename(x[1]));
    for (const c of m.tool_calls ?? []) {
      try {
        const args = JSON.parse(c.function.arguments);
        if (typeof args.command === "string") a.commands.add(args.command.split("\n")[0].trim().slice(0, 60));
        for (const k of ["file_path", "path"]) if (typeof args[k] === "string" && /\.\w{1,8}$/.test(args[k])) a["file paths"].add(basename(args[k]));
      } catch {
        // arguments that are not JSON carry no structured artifact
      }
    }
    // Error lines of runs that failed (not every line of a file read that holds the word "error").
    if (m.role === "tool" && FAILED.test(t)) for (const line of t.split("\n")) if (ERROR.test(line) && line.trim().length > 12) a["error lines"].add(line.trim().slice(0, 60));
    if (m.role === "user" && !NOTICE.test(t) && !t.startsWith("This session is being continued") && t.trim()) a["user requests"].add(t.trim().slice(0, 60));
  }
  return a;
}

/** Blocked lines naming a command (`cmd` #i) that a later run in the span finished without an error exit. */
function settledButBlocked(span: ChatMessage[], handoff: string): number {
  const blocked = /## Blocked\n([\s\S]*?)(?:\n\n|$)/.exec(handoff)?.[1] ?? "";
  let n = 0;
  for (const [, command, at] of blocked.matchAll(/^- `([^`]+?)(?: …)?` #(\d+)/gm)) {
    const later = span.slice(Number(at) + 1).some((m, k, rest) => {
      if (m.role !== "tool") return false;
      const call = span.slice(0, Number(at) + 1 + k).flatMap((x) => x.tool_calls ?? []).find((c) => c.id === m.tool_call_id);
      const first = call && (JSON.parse(call.function.arguments).command ?? "").split("\n")[0].trim();
      return first?.startsWith(command) && !/^Exit code [1-9]/.test(text(m)) && rest;
    });
    if (later) n++;
  }
  return n;
}

function recall(a: Artifacts, summary: string): Record<Kind, [number, number]> {
  const norm = (s: string) => s.replace(/\s+/g, " ");
  const hay = norm(summary);
  const out = {} as Record<Kind, [number, number]>;
  for (const [k, set] of Object.entries(a) as [Kind, Set<string>][]) {
    let kept = 0;
    for (const x of set) if (hay.includes(norm(x))) kept++;
    out[k] = [kept, set.size];
  }
  return out;
}

const SESSIONS = [
  { main: "claude-code-spotter__4d5611e5-241a", compacted: "claude-code-spotter__4d5611e5__agent-acompact" },
  { main: "claude-code-spotter__fa812bfe-b295", compacted: "claude-code-spotter__fa812bfe__agent-acompact" },
];
/** The windows a handoff is measured at: the summary budget is 1,000 tokens at 16k, 1,600 at 32k. */
const WINDOWS = [16_000, 32_000];
/** Fixtures measured as a guard against tuning to the two sessions above: every other one where a pass summarizes. */
const GUARDS = trajectories()
  .map((t) => t.name)
  .filter((n) => !SESSIONS.some((s) => n.startsWith(s.main) || n.startsWith(s.compacted)));

type Recall = Record<Kind, [number, number]>;
const KINDS: Kind[] = ["file paths", "commands", "error lines", "user requests"];
const pct = ([k, n]: [number, number]) => (n ? `${Math.round((k / n) * 100)} % (${k}/${n})` : "—");
const add = (t: Recall | undefined, r: Recall): Recall => Object.fromEntries(KINDS.map((k) => [k, [(t?.[k][0] ?? 0) + r[k][0], (t?.[k][1] ?? 0) + r[k][1]]])) as Recall;
const short = (name: string) => name.replace(/^claude-code-spotter__/, "cc:").slice(0, 34);

/** The span a compaction covers: everything before Claude Code's continuation message, if any. */
function spanOf(messages: ChatMessage[]): ChatMessage[] {
  const cut = messages.findIndex((m) => m.role === "user" && text(m).startsWith("This session is being continued"));
  return cut < 0 ? messages : messages.slice(0, cut);
}

/**
 * Our handoff of `span` at a window and its recall of the artifacts of the middle it replaced (head
 * and tail stay verbatim). Forced, with a runway as large as the window so that prune alone is never
 * accepted: the handoff is what is measured.
 */
async function ours(span: ChatMessage[], contextWindow: number) {
  const options = { contextWindow, force: true, runway: contextWindow };
  const p = plan(span, options);
  const r = await compact(span, options);
  // The checkpoint itself: not the handoff's fixed preamble, nor a tail message it may be merged into.
  const handoff = r.report.mode === "summary" ? r.state.previousSummary ?? "" : "";
  const size = `${handoff.length.toLocaleString("en-US")} chars, ${r.report.summary?.tokens ?? 0} tokens`;
  return { mode: r.report.mode, handoff, size, recall: recall(artifacts(span.slice(p.middle.start, p.middle.end)), handoff) };
}

export async function qualityBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  const blocked: string[] = [];
  const totals = new Map<string, Recall>();
  for (const s of SESSIONS) {
    const span = spanOf(trajectory(s.main).messages);
    const theirs = text(trajectory(s.compacted).messages.at(-1)!);
    const r1 = recall(artifacts(span), theirs);
    totals.set("Claude Code's own summary", add(totals.get("Claude Code's own summary"), r1));
    rows.push([s.main.slice(20, 28), "any", "Claude Code's own summary", `${theirs.length.toLocaleString("en-US")} chars`, ...KINDS.map((k) => pct(r1[k]))]);
    for (const w of WINDOWS) {
      const o = await ours(span, w);
      const who = `context-compactor deterministic, ${w / 1000}k`;
      totals.set(who, add(totals.get(who), o.recall));
      rows.push([s.main.slice(20, 28), `${w / 1000}k`, "context-compactor deterministic", o.size, ...KINDS.map((k) => pct(o.recall[k]))]);
      blocked.push(`${s.main.slice(20, 28)} ${w / 1000}k ${settledButBlocked(span, o.handoff)}`);
    }
  }
  for (const [who, t] of totals) rows.push(["both", /, (\d+k)$/.exec(who)?.[1] ?? "any", who.replace(/, \d+k$/, ""), "", ...KINDS.map((k) => pct(t[k]))]);

  const guardRows: (string | number)[][] = [];
  const guardTotals = new Map<number, Recall>();
  const skipped = new Set<string>();
  for (const name of GUARDS) {
    const span = spanOf(trajectory(name).messages);
    for (const w of WINDOWS) {
      const o = await ours(span, w);
      if (o.mode !== "summary") {
        skipped.add(`${short(name)} (${w / 1000}k: ${o.mode})`);
        continue;
      }
      guardTotals.set(w, add(guardTotals.get(w), o.recall));
      guardRows.push([short(name), `${w / 1000}k`, o.size, ...KINDS.map((k) => pct(o.recall[k]))]);
    }
  }
  for (const [w, t] of guardTotals) guardRows.push(["all", `${w / 1000}k`, "", ...KINDS.map((k) => pct(t[k]))]);

  const ourTotal = [...totals].filter(([who]) => who.startsWith("context")).reduce<Recall | undefined>((t, [, r]) => add(t, r), undefined)!;
  const worst = KINDS.filter((k) => ourTotal[k][1]).sort((a, b) => ourTotal[a][0] / ourTotal[a][1] - ourTotal[b][0] / ourTotal[b][1])[0];
  return (
    table(["session", "window", "summary", "size", "file paths", "commands", "error lines", "user requests"], rows) +
    `\n\nRecall = share of the artifacts in the summarized span that the summary still contains (exact substring, whitespace folded). ` +
    `Claude Code's summaries are model-written (Opus) and ~15k characters, one per session whatever the window, measured on the whole span it replaced; ours is deterministic, bounded by the summary budget (a fifth of the middle, at most 1,000 tokens at a 16k window, 1,600 at 32k; its tokens as the built-in estimate counts them), and measured on the middle it replaced (head and tail stay verbatim), the checkpoint alone (not the handoff's fixed preamble). ` +
    `Lost most by the deterministic summarizer: **${worst}**. File paths: the files read or written by the span's tool calls and those the user or the agent named (not every path a tool output lists), compared by basename (the handoff writes them relative to the working directory, grouped by folder). Commands: each distinct first line, its first 60 characters. Error lines: the lines with an error word in the outputs of runs that failed (an exit status, a tool error, an error word in the first line), not source lines read from files. User requests: user messages, Claude Code's notices aside (system reminders, task notifications, slash-command echoes and their caveat, "[Request interrupted by user]"); swe-agent and mini-swe-agent return each observation as a user message, counted here as a request.\n\n` +
    `Errors shown as Blocked although a later run of the same command succeeded: ${blocked.join(", ")}.\n\n` +
    "The other fixture transcripts, ours only (no model summary to compare with), as a guard against tuning to the two sessions above.\n\n" +
    table(["fixture", "window", "size", "file paths", "commands", "error lines", "user requests"], guardRows) +
    `\n\nEvery pass is forced and made to summarize (a runway as large as the window: prune alone is never accepted). Without a middle to summarize: ${[...skipped].join(", ") || "none"}.\n\n` +
    (await archiveCost()) +
    "\n\n" +
    (await growth())
  );
}

/** What the archive costs: its JSON size per token the pass removed or pruned. */
async function archiveCost(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const s of SESSIONS) {
    const { messages } = trajectory(s.main);
    for (const contextWindow of [16_000, 32_000]) {
      const r = await compact(messages, { contextWindow, force: true });
      const bytes = new TextEncoder().encode(JSON.stringify(r.archive ?? {})).length;
      const removed = r.report.tokensBefore - r.report.tokensAfter;
      rows.push([s.main.slice(20, 28), contextWindow.toLocaleString("en-US"), r.report.mode, Object.keys(r.archive ?? {}).length, `${Math.round(bytes / 1024).toLocaleString("en-US")} KB`, removed.toLocaleString("en-US"), (bytes / removed).toFixed(1)]);
    }
  }
  return table(["session", "window", "mode", "archived messages", "archive (JSON)", "tokens removed", "bytes / removed token"], rows);
}

/** How the handoff grows with the middle: longer and longer prefixes of one session, same window. */
async function growth(): Promise<string> {
  const { messages } = trajectory(SESSIONS[0].main);
  const rows: (string | number)[][] = [];
  for (const n of [60, 120, 180, 240, messages.length]) {
    const span = messages.slice(0, n);
    const options = { contextWindow: 32_000, force: true };
    const p = plan(span, options);
    const r = await compact(span, options);
    const handoff = text(r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX)) ?? { role: "user", content: "" });
    let middle = 0;
    for (let i = p.middle.start; i < p.middle.end; i++) middle += p.tokens.perMessage[i];
    rows.push([n, p.middle.end - p.middle.start, middle.toLocaleString("en-US"), r.report.mode, handoff.length.toLocaleString("en-US"), r.report.summary?.tokens ?? "—"]);
  }
  return (
    table(["messages", "middle messages", "middle tokens", "mode", "handoff chars", "summary tokens"], rows) +
    "\n\nPrefixes of the first session at a 32k window, forced. Prune-only passes have no handoff. The handoff is bounded by the summary budget (a fifth of the middle, at most 5 % of the window, as the built-in estimate counts tokens): it stops growing once the budget is reached, and the ledgers keep the latest and most important lines whole (long ones shortened first)."
  );
}
