// Unresolved errors kept: of the commands the summarized middle ran whose last run there still
// failed, the share of that run's error lines the handoff's checkpoint carries. Written apart from
// the ledgers (its own reading of a failure and of an error line), so that it can disagree with them.
//
//   npm run bench -- unresolved     the table into bench/RESULTS.md
import { compact, plan, type ChatMessage } from "../src/index.js";
import { trajectories } from "../test/support/fixtures.js";
import { table } from "./lib.js";

/** A failed run as Claude Code and most harnesses report it: an exit status, a tool error, or an error word in the first line. */
const FAILED = /^\s*(?:exit code [1-9]|<tool_use_error>|[^\n]*\b(?:error|failed|fatal)\b)/i;
const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal|panic)\b/i;
export const WINDOWS = [16_000, 32_000];
/** What a line is compared by: its first 60 characters, whitespace folded (a handoff may shorten the rest). */
export const lineKey = (line: string) => line.replace(/\s+/g, " ").trim().slice(0, 60);
const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p) => ("text" in p ? p.text : "")).join("\n") : "");

/** A shell call's command, its first line. */
function commandOf(args: string): string | undefined {
  try {
    const a = JSON.parse(args);
    const c = Array.isArray(a.command) ? a.command.at(-1) : a.command ?? a.cmd;
    return typeof c === "string" && c.trim() ? c.trim().split("\n")[0].trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The commands of a command line (`cd` aside), each as program and sub-command with the file arguments it names. */
function commandsOf(line: string): { program: string; files: string[] }[] {
  return line
    .split(/&&|\|\||;/)
    .map((c) => c.split("|")[0].trim().split(/\s+/).filter((w) => w && !/^\w+=/.test(w)))
    .filter((w) => w.length && w[0] !== "cd")
    .map((w) => ({
      program: w.slice(0, 2).join(" "),
      files: w.slice(2).map((x) => x.replace(/^["']|["']$/g, "").replace(/:\d+$/, "")).filter((x) => !/^[-&>|<$]/.test(x) && /\/|\.[A-Za-z0-9]{1,8}$/.test(x)),
    }));
}

/**
 * The error lines (by key) of each failed run in `span` that later runs do not cover. A failed run is
 * judged as its last command (`git add … && git commit` as its commit). Later passing runs cover it
 * when their commands (any of them) of the same program and sub-command have done every file it
 * named, the same file written from another directory counting, or one ran on no file in particular
 * (`mix test` settles `mix test a_test.exs`, `mix test b_test.exs` does not); a later failing run
 * that covers it alone takes its place.
 */
export function unresolvedErrorLines(span: ChatMessage[]): Map<string, string[]> {
  const calls = new Map<string, string>();
  // The same file from another directory, or (a directory given with its slash) a file under it.
  const same = (a: string, b: string) => {
    const under = a.endsWith("/") && b.split("/").some((_, j, p) => j > 0 && (a === `${p.slice(0, j).join("/")}/` || a.endsWith(`/${p.slice(0, j).join("/")}/`)));
    [a, b] = [a.replace(/\/$/, ""), b.replace(/\/$/, "")];
    return under || a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
  };
  let open: { line: string; program: string; files: string[]; errors: string[] }[] = [];
  for (const m of span) {
    for (const c of m.tool_calls ?? []) {
      const command = c.type === "function" ? commandOf(c.function.arguments) : undefined;
      if (command) calls.set(c.id, command);
    }
    const command = m.role === "tool" && m.tool_call_id ? calls.get(m.tool_call_id) : undefined;
    if (!command) continue;
    const out = text(m);
    const failed = FAILED.test(out);
    const ran = failed ? commandsOf(command).slice(-1) : commandsOf(command);
    open = open.filter((f) => {
      const mine = ran.filter((r) => r.program === f.program);
      if (!mine.length || (!f.files.length && mine.every((r) => r.files.length))) return true;
      const left = f.files.filter((x) => mine.every((r) => r.files.length && !r.files.some((y) => same(x, y))));
      if (!failed) f.files = left; // the files later runs did are done
      return left.length > 0;
    });
    if (!failed || !ran.length) continue;
    const lines = [...new Set(out.split("\n").filter((l) => ERROR.test(l) && l.trim().length > 12).map(lineKey))];
    open.push({ line: command, ...ran[0], errors: lines.length ? lines : [lineKey(out.split("\n")[0])] });
  }
  return new Map(open.map((f) => [f.line, f.errors]));
}

export interface UnresolvedResult {
  mode: string;
  commands: number;
  lines: number;
  kept: number;
  missed: string[];
}

/** One forced summary pass of `messages` at `contextWindow` (prune alone never accepted), measured on its middle. */
export async function unresolvedKept(messages: ChatMessage[], contextWindow: number): Promise<UnresolvedResult> {
  const options = { contextWindow, force: true, runway: contextWindow };
  const p = plan(messages, options);
  const r = await compact(messages, options);
  const handoff = r.report.mode === "summary" ? (r.state.previousSummary ?? "").replace(/\s+/g, " ") : "";
  const open = unresolvedErrorLines(messages.slice(p.middle.start, p.middle.end));
  const all = [...open.values()].flat();
  const missed = all.filter((l) => !handoff.includes(l));
  return { mode: r.report.mode, commands: open.size, lines: all.length, kept: all.length - missed.length, missed };
}

/** Where a span may end: every `step` messages, moved on to the next assistant turn (no call left unanswered). */
export function cutPoints(messages: ChatMessage[], step = 30): number[] {
  const cuts = new Set<number>();
  for (let n = step; n < messages.length; n += step) {
    let k = n;
    while (k < messages.length && messages[k].role !== "assistant") k++;
    cuts.add(k);
  }
  return [...cuts, messages.length].filter((n, i, a) => a.indexOf(n) === i);
}

/** Every fixture, cut every 30 messages (a span ends anywhere: often just after a run failed), at 16k and 32k. */
export async function unresolvedOverFixtures(): Promise<{ rows: (string | number)[][]; total: Map<number, [kept: number, lines: number]>; missed: string[] }> {
  const rows: (string | number)[][] = [];
  const total = new Map<number, [number, number]>();
  const missed: string[] = [];
  for (const t of trajectories()) {
    for (const w of WINDOWS) {
      let kept = 0, lines = 0, commands = 0, spans = 0;
      for (const n of cutPoints(t.messages)) {
        const r = await unresolvedKept(t.messages.slice(0, n), w);
        if (r.mode !== "summary" || !r.lines) continue;
        spans++, (kept += r.kept), (lines += r.lines), (commands += r.commands);
        missed.push(...r.missed.map((l) => `${t.name.slice(0, 40)} :${n} ${w / 1000}k ${l}`));
      }
      if (!lines) continue;
      const [k, l] = total.get(w) ?? [0, 0];
      total.set(w, [k + kept, l + lines]);
      rows.push([t.name.replace(/^claude-code-spotter__/, "cc:").slice(0, 40), `${w / 1000}k`, spans, commands, `${kept}/${lines}`]);
    }
  }
  return { rows, total, missed };
}

export async function unresolvedBench(): Promise<string> {
  const { rows, total } = await unresolvedOverFixtures();
  for (const [w, [k, n]] of total) rows.push(["all", `${w / 1000}k`, "", "", `${k}/${n} (${n ? Math.round((k / n) * 100) : 100} %)`]);
  return (
    table(["fixture", "window", "spans with one", "commands still failing", "error lines kept"], rows) +
    "\n\nSpans: each fixture cut every 30 messages (moved on to the next assistant turn) and whole, each compacted once at the window, forced to summarize (a runway as large as the window). Of the runs of shell commands in the middle that failed (an exit status, a tool error, an error word in the first line), those later runs there do not cover (a failed run judged as its last command, `cd` aside: `git add … && git commit` as its commit; covered once later passing runs of the same program and sub-command have done every file it named, or one ran on no file in particular: `mix test` settles `mix test a_test.exs`, `mix test b_test.exs` does not): the distinct lines with an error word of that run (longer than 12 characters, compared by their first 60, whitespace folded), and how many of them the checkpoint carries. Spans and fixtures without such a command are not counted."
  );
}
