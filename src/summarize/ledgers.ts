// Ledgers over the whole middle: what was asked, planned, touched, run and still failing, each with
// the message indexes it came from. Strings as the turns hold them: the checkpoint passes redacted turns.
import { exitCode, parseArguments } from "../prune/one-liner.js";
import type { HandoffTurn } from "../types.js";

export interface FileEntry {
  /** Path relative to the root when under it. */
  path: string;
  /** Operation → count, in first-seen order ("mentioned" when only named in text). */
  ops: Map<string, number>;
  at: number[];
}
export interface CommandEntry {
  command: string;
  runs: number;
  /** The last run's outcome: its exit status, or "failed"/"ok" when it states none. */
  status: string;
  at: number[];
}
export interface ErrorEntry {
  what: string;
  lines: string[];
  at: number;
  /** The later success that settled it. */
  resolvedAt?: number;
}
export interface Ledgers {
  requests: [text: string, at: number][];
  plan?: { items: [done: string, text: string][]; at: number };
  files: Map<string, FileEntry>;
  /** The working directory, as far as the paths tell: file paths are written relative to it. */
  root: string;
  commands: Map<string, CommandEntry>;
  errors: Map<string, ErrorEntry>;
  decisions: [text: string, at: number][];
  constraints: [text: string, at: number][];
}

/** Agent-injected user turns (notices, reminders, permission chatter): not requests. */
export const INJECTED = /^\s*(?:<(?:task-notification|system-reminder|command-|local-command|user-prompt-submit-hook|bash-)|\[Request interrupted|Caveat: The messages below)/;
const PATH = /(?:^|[\s"'`(=])((?:\.{1,2}\/|\/|~\/)?(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),:;]|\.(?:\s|$))/g;
export const PATH_KEYS = ["file_path", "path", "filename", "notebook_path"];
/** Tool name (and editor sub-command) → what it did to its file; the first match wins. */
const FILE_OPS: [RegExp, string][] = [
  [/delete|remove|\brm\b/i, "deleted"],
  [/create|write/i, "written"],
  [/edit|replace|insert|patch|undo/i, "edited"],
];
const CONSTRAINT = /\b(?:don't|do not|never|always|must|should not|shouldn't|prefer|make sure|avoid|only use|without)\b/i;
/** A sentence that states a choice, not any sentence with "because". */
const DECISION = /\b(?:decided|decision|going with|go with|instead of|rather than|chose|opted|switch(?:ed|ing)? to|we'll use|I'll use|let's use|the fix is|root cause is)\b/i;
const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal|panic|denied)\b/i;
/** An output that says at its start that the tool failed. */
const FAILED_START = /^\s*(?:<tool_use_error>|exit code [1-9])/i;
const PASSED = /\b0 (?:failures|failed|errors)\b/i;
const CHECKBOX = /^\s*[-*] \[([ xX])\] (.+)$/gm;

function sentences(text: string, marker: RegExp): string[] {
  return marker.test(text) ? text.split(/(?<=[.!?])\s+|\n/).filter((s) => marker.test(s) && !s.trim().endsWith("?")) : [];
}

/** A command's first line; a shell command given as argv (`["bash", "-lc", "…"]`) by its script. */
export function commandOf(args: Record<string, unknown>): string | undefined {
  let c = args.command ?? args.cmd;
  if (Array.isArray(c)) c = c.at(-1);
  if (typeof c !== "string" || !/\s/.test(c.trim())) return undefined; // one word: an editor sub-command
  return c.trim().split("\n")[0].trim();
}

/** What a command's success settles: each step's program and sub-command (`cd` steps aside). */
function stepKeys(command: string): string[] {
  return command
    .split(/&&|\|\||;/)
    .map((s) => s.split("|")[0].trim().split(/\s+/).filter((w) => !/^\w+=/.test(w)).slice(0, 2).join(" "))
    .filter((k) => k && !k.startsWith("cd "));
}

/**
 * Whether a whole tool output failed, and its error lines (the first few distinct): a stated exit
 * status decides; else an error word in its first line, or, for a command, in its last lines
 * (where a run sums up), unless its end says nothing failed.
 */
export function verdict(text: string, isCommand: boolean): { failed: boolean; errorLines: string[] } {
  const code = exitCode(text);
  const t = text.trim();
  const nl = t.indexOf("\n");
  const first = nl < 0 ? t : t.slice(0, nl);
  const failed =
    code !== undefined ? code !== 0 : !PASSED.test(t.slice(-1000)) && (FAILED_START.test(t) || ERROR.test(first) || (isCommand && ERROR.test(t.slice(-300))));
  if (!failed) return { failed, errorLines: [] };
  const lines = [...new Set(t.slice(0, 20_000).split("\n").map((x) => x.trim()).filter((x) => ERROR.test(x)))].slice(0, 5);
  return { failed, errorLines: lines.length ? lines : [first.trim()] };
}

function commonDir(paths: string[]): string {
  let parts: string[] | undefined;
  for (const p of paths) {
    const dir = p.split("/").slice(0, -1);
    if (!parts) parts = dir;
    let n = 0;
    while (n < parts.length && parts[n] === dir[n]) n++;
    parts = parts.slice(0, n);
  }
  return parts && parts.length > 2 ? parts.join("/") : "";
}

/** The distinct file paths a text names (the first hundred, early in it); none in a pruned output's one-liner. */
function pathsIn(text: string): string[] {
  // The first 8,000 characters: a long output (a file read) names its few paths that matter early, if at all.
  return text.startsWith("[output pruned") ? [] : [...new Set(Array.from(text.slice(0, 8000).matchAll(PATH), (m) => m[1]))].slice(0, 100);
}

/** The ledgers of `turns`, in one pass. */
export function ledgers(turns: HandoffTurn[]): Ledgers {
  const l: Ledgers = { requests: [], files: new Map(), root: "", commands: new Map(), errors: new Map(), decisions: [], constraints: [] };
  const touched: [path: string, op: string, at: number][] = [];
  const settle = (keys: string[], failed: boolean, what: string, lines: string[], at: number) => {
    for (const key of keys) {
      const e = l.errors.get(key);
      if (failed) {
        // A settled error stays in the ledger when the same step fails again later; the ledger stays in the order of failure.
        if (e?.resolvedAt !== undefined) l.errors.set(`${key}\u0000${e.at}`, e);
        l.errors.delete(key);
        l.errors.set(key, { what, lines: lines.length ? lines : ["failed"], at });
      } else if (e && e.resolvedAt === undefined) e.resolvedAt = at;
    }
  };
  for (const t of turns) {
    if (t.role === "user" && t.text.trim() && !INJECTED.test(t.text)) {
      l.requests.push([t.text, t.index]);
      for (const s of sentences(t.text, CONSTRAINT)) l.constraints.push([s, t.index]);
    }
    if (t.role === "assistant") {
      for (const s of sentences(t.text, DECISION)) l.decisions.push([s, t.index]);
      const boxes = [...t.text.matchAll(CHECKBOX)];
      if (boxes.length) l.plan = { items: boxes.map((b) => [b[1].trim() ? "x" : " ", b[2]]), at: t.index };
      for (const c of t.toolCalls) {
        const args = parseArguments(c.arguments) ?? {};
        const todos = args.todos ?? args.plan;
        if (Array.isArray(todos)) {
          l.plan = {
            items: todos.map((x: Record<string, unknown>) => [x.status === "completed" ? "x" : x.status === "in_progress" ? "~" : " ", String(x.content ?? x.step ?? "")]),
            at: t.index,
          };
        }
      }
    }
    if (t.role === "tool") {
      const args = (t.call && parseArguments(t.call.arguments)) || {};
      const command = commandOf(args);
      const path = PATH_KEYS.map((k) => args[k]).find((v): v is string => typeof v === "string");
      // Material read from the whole output before pruning when it could; else the output it has.
      const { failed, errorLines } = t.failed !== undefined ? { failed: t.failed, errorLines: t.errorLines ?? [] } : verdict(t.text, command !== undefined);
      if (command) {
        const e: CommandEntry = l.commands.get(command) ?? { command, runs: 0, status: "", at: [] };
        const code = t.failed !== undefined ? t.exit : exitCode(t.text);
        Object.assign(e, { runs: e.runs + 1, status: code !== undefined ? `exit ${code}` : failed ? "failed" : "ok" });
        e.at.push(t.index);
        l.commands.set(command, e);
        settle(stepKeys(command), failed, `\`${command}\``, errorLines, t.index);
      } else if (path) {
        const name = `${t.call?.name ?? ""} ${typeof args.command === "string" ? args.command : ""}`;
        if (!failed) touched.push([path, FILE_OPS.find(([re]) => re.test(name))?.[1] ?? "read", t.index]);
        settle([path], failed, path, errorLines, t.index);
      } else if (t.call) settle([t.call.name], failed, t.call.name, errorLines, t.index);
    }
    // Paths the user or the agent named; a tool's output is judged, not mined for paths.
    if (t.role !== "tool") for (const path of pathsIn(t.text)) touched.push([path, "mentioned", t.index]);
  }
  // The working directory: where the agent changed files (else read them).
  const changed = touched.filter(([p, op]) => p.startsWith("/") && op !== "mentioned" && op !== "read");
  l.root = commonDir((changed.length ? changed : touched.filter(([p, op]) => p.startsWith("/") && op === "read")).map(([p]) => p));
  // A relative path that ends an absolute one is that file (one a tool touched before one only
  // named), and says where the agent works from.
  const used = new Set(touched.filter(([p, op]) => p.startsWith("/") && op !== "mentioned").map(([p]) => p));
  // absolute paths by file name, used ones first: a relative path is looked up among its namesakes only
  const byName = new Map<string, string[]>();
  for (const a of new Set([...used, ...touched.filter(([p]) => p.startsWith("/")).map(([p]) => p)])) {
    const name = a.slice(a.lastIndexOf("/"));
    byName.set(name, [...(byName.get(name) ?? []), a]);
  }
  const resolved = touched.map(([p, op, at]): [string, string, number] => {
    const rel = p.replace(/^\.\//, "");
    const abs = rel.startsWith("/") ? rel : byName.get(`/${rel.slice(rel.lastIndexOf("/") + 1)}`)?.find((a) => a.endsWith(`/${rel}`));
    if (!abs) return [rel, op, at];
    const cwd = abs.slice(0, abs.length - rel.length - 1);
    if (used.has(abs) && `${l.root}/`.startsWith(`${cwd}/`)) l.root = cwd;
    return [abs, op, at];
  });
  for (const [p, op, at] of resolved) {
    if (op === "read" && !/\.[^/]+$/.test(p)) continue; // a directory searched, not a file
    const path = relative(p, l.root);
    const f: FileEntry = l.files.get(path) ?? { path, ops: new Map(), at: [] };
    if (op !== "mentioned" || !f.ops.size) f.ops.set(op, (f.ops.get(op) ?? 0) + 1);
    if (op !== "mentioned") f.ops.delete("mentioned");
    if (f.at.at(-1) !== at) f.at.push(at);
    l.files.set(path, f);
  }
  return l;
}

function relative(path: string, root: string): string {
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}
