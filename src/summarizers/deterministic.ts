// deterministicSummarizer: the checkpoint written from ledgers over the whole middle, without a model.
import { clip, describeCall, parseArguments } from "../prune/one-liner.js";
import type { Redactor } from "../redact/index.js";
import { redactedMaterial } from "../summarize/material.js";
import { refOf } from "../archive/ref.js";
import { INJECTED, PATH_KEYS, ledgers, type CommandEntry, type FileEntry, type Ledgers } from "../summarize/ledgers.js";
import type { HandoffMaterial, HandoffTurn, SummarizeRequest } from "../types.js";

export const DETERMINISTIC_LIMIT = 8000;

type Checkpoint = Map<string, string[]>;

/** Sections in the order they are written, with their weight when the budget is shared out. */
const WEIGHTS: [section: string, weight: number][] = [
  ["Active task", 0],
  ["Goal", 0],
  ["User requests", 3],
  ["Constraints and preferences", 1],
  ["Completed actions", 5],
  ["Active state", 1.5],
  ["In progress", 1],
  ["Blocked", 2],
  ["Key decisions", 1],
  ["Relevant files", 4],
  ["Critical values", 1],
];
/** Sections an update carries over from the previous checkpoint (older lines first). */
const CARRIED = ["User requests", "Constraints and preferences", "Completed actions", "Key decisions", "Relevant files", "Critical values"];
/** Commands that only look (list, read, search, show status): the first to leave a full checkpoint. */
const LOOKS = /^(?:cd \S+ && )?(?:ls|cat|grep|rg|find|head|tail|wc|pwd|echo|which|tree|sed -n|git (?:status|diff|log|show|ls-files|branch)|\w+ (?:show|list|ready|status|--version))\b/;
/** The arguments of a call the ledgers read. */
const QUOTED_ARGS = ["command", "cmd", ...PATH_KEYS];
/** Tools whose arguments are the agent's plan (TodoWrite, update_plan). */
const PLAN_TOOL = /todo|plan/i;
/** Not a section: the directory file paths are relative to, written atop Relevant files. */
const ROOT = "root";
const URL = /\bhttps?:\/\/[^\s"'<>)]{4,2000}/g;

const RANK: Record<string, number> = { mentioned: 0, read: 1 };
/**
 * One item a file, the ones that matter most last: changed, then read, then only named. A file
 * the agent worked on: `dir/\tname ops #last`; one only named by the user or the agent: `dir/\tname\t#last`.
 */
function fileItems(l: Ledgers, pass?: number): string[] {
  const rank = (f: FileEntry) => Math.max(...[...f.ops.keys()].map((op) => RANK[op] ?? 2)) * 1e9 + f.at[f.at.length - 1];
  return [...l.files.values()]
    .sort((a, b) => rank(a) - rank(b))
    .map((f) => {
      const slash = f.path.lastIndexOf("/") + 1;
      const dir = f.path.slice(0, slash) || "./";
      const ref = refOf(f.at[f.at.length - 1], pass);
      if (f.ops.has("mentioned")) return `${dir}\t${f.path.slice(slash)}\t${ref}`;
      return `${dir}\t${f.path.slice(slash)} ${[...f.ops].map(([op, n]) => (n > 1 ? `${op}×${n}` : op)).join(" ")} ${ref}`;
    });
}

/**
 * File items grouped by directory, one line each: `lib/a/: x.ts edited×2 #12; y.ts read #3`, and
 * the files only named, densely: `lib/a/ named: z.ts, w.ts (#8…#40)`.
 */
function grouped(items: string[]): string[] {
  const groups = new Map<string, { files: string[]; refs: string[] }>();
  for (const item of items) {
    const [dir, file, ref] = item.split("\t");
    const key = ref ? `${dir} named` : dir;
    const g = groups.get(key) ?? { files: [], refs: [] };
    if (file) g.files.push(file);
    if (ref) g.refs.push(ref);
    groups.set(key, g);
  }
  return [...groups].map(([key, { files, refs }]) => {
    if (!files.length) return key; // a line carried over from an earlier checkpoint
    // Named files come oldest first (fileItems' order): their first and latest sources.
    const cited = !refs.length ? "" : ` (${refs[0]}${refs.length > 1 ? `…${refs[refs.length - 1]}` : ""})`;
    return `${key}: ${files.join(refs.length ? ", " : "; ")}${cited}`;
  });
}

/** The checkpoint's sections, from redacted material. */
function sections(m: HandoffMaterial, l: Ledgers, open: [index: number, call: string][]): Checkpoint {
  const pass = m.pass;
  const at = (i: number) => refOf(i, pass);
  const cp: Checkpoint = new Map();
  const latest = m.latestAsk?.trim();
  // An agent notice (task notification, reminder) is not the task: the latest real request is.
  const task = latest && !INJECTED.test(latest) ? latest : l.requests.at(-1)?.[0] ?? m.firstAsk;
  cp.set("Active task", task ? clip(task, 1200).split("\n").map((x) => `> ${x}`) : []);
  cp.set("Goal", m.firstAsk && m.firstAsk.trim() !== task?.trim() ? [clip(m.firstAsk, 400)] : []);
  cp.set("User requests", l.requests.map(([t, i]) => `${at(i)} ${clip(t, 300)}`));
  cp.set("Constraints and preferences", l.constraints.map(([s, i]) => `${clip(s, 200)} ${at(i)}`));
  const errors = [...l.errors.values()];
  const last = (c: { at: number[] }) => c.at[c.at.length - 1];
  // Looking around goes first when room is short; what changed something stays.
  const weight = (c: CommandEntry) => (LOOKS.test(c.command) ? 0 : 1e9) + last(c);
  // Most important last (what is kept when the room is short): commands, finished plan items, resolved errors.
  cp.set("Completed actions", [
    ...[...l.commands.values()].sort((a, b) => weight(a) - weight(b)).map((c) => `\`${clip(c.command, 90)}\`${c.runs > 1 ? ` ×${c.runs}` : ""}${c.status === "ok" ? "" : ` → ${c.status}`} ${at(last(c))}`),
    ...(l.plan?.items.filter(([done]) => done === "x").map(([, t]) => `done: ${clip(t, 160)} ${at(l.plan!.at)}`) ?? []),
    ...errors.filter((e) => e.resolvedAt !== undefined).map((e) => `resolved: ${clip(e.what, 90)} failed ("${clip(e.lines[0], 80)}") ${at(e.at)}, then passed ${at(e.resolvedAt!)}`),
  ]);
  let lastAssistant: HandoffTurn | undefined;
  for (const t of m.turns) if (t.role === "assistant" && t.text.trim()) lastAssistant = t;
  cp.set("Active state", [
    ...(l.plan?.items.filter(([done]) => done !== "x").map(([s, t]) => `${s === "~" ? "doing" : "todo"}: ${clip(t, 160)} ${at(l.plan!.at)}`) ?? []),
    ...(lastAssistant ? [`${clip(lastAssistant.text, 300)} ${at(lastAssistant.index)}`] : []),
  ]);
  cp.set("In progress", open.map(([i, call]) => `${clip(call, 200)} (no result in these turns) ${at(i)}`));
  // Only what is still failing, the latest first.
  cp.set("Blocked", errors.filter((e) => e.resolvedAt === undefined).reverse().map((e) => `${clip(e.what, 120)}: ${e.lines.map((x) => `"${clip(x, 160)}"`).join(" / ")} ${at(e.at)}`));
  cp.set("Key decisions", [...l.decisions.map(([s, i]) => `${clip(s, 240)} ${at(i)}`), ...(m.focus ? [`Focus requested: ${clip(m.focus, 300)}`] : [])]);
  cp.set("Relevant files", fileItems(l, pass));
  if (l.root) cp.set(ROOT, [l.root]);
  const urls = new Map<string, number>();
  for (const t of m.turns) for (const u of t.text.matchAll(URL)) urls.set(u[0], t.index);
  cp.set("Critical values", [...urls].map(([u, i]) => `${clip(u, 200)} ${at(i)}`));
  return cp;
}

/** Calls no result in these turns answers (the last three). */
function pending(turns: HandoffTurn[]): [HandoffTurn, { name: string; arguments: string }][] {
  const open = new Map<string, [HandoffTurn, { name: string; arguments: string }]>();
  for (const t of turns) {
    for (const c of t.toolCalls) open.set(`${c.name}\u0000${c.arguments}`, [t, c]);
    if (t.call) open.delete(`${t.call.name}\u0000${t.call.arguments}`);
  }
  return [...open.values()].slice(-3);
}

/** Reads a checkpoint written in our format back into sections (for iterative updates). */
export function parseCheckpoint(text: string): Checkpoint {
  const cp: Checkpoint = new Map();
  let current: string[] | undefined;
  for (const line of text.split("\n")) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) cp.set(heading[1], (current = []));
    else if (current && line.trim() && line.trim() !== "- none" && !line.startsWith("- …")) current.push(line.replace(/^- /, ""));
  }
  return cp;
}

/** Updates the previous checkpoint with the new one: carried lists merged (a repeat moves to the end), goal kept. */
function merge(previous: Checkpoint, next: Checkpoint): Checkpoint {
  const out: Checkpoint = new Map(next);
  if (previous.get("Goal")?.length) out.set("Goal", previous.get("Goal")!);
  for (const s of CARRIED) {
    const fresh = next.get(s) ?? [];
    out.set(s, [...(previous.get(s) ?? []).filter((x) => !fresh.includes(x)), ...fresh]);
  }
  return out;
}

/** What a section's items take written out (files grouped by directory). */
const cost = (s: string, items: string[]) => (s === "Relevant files" ? grouped(items) : items).reduce((n, i) => n + i.length + 3, 0);

/**
 * Characters each section may use: sections without a weight are whole; the rest share what is
 * left by weight, and what a section does not need goes to those that need more.
 */
function allot(cp: Checkpoint, limit: number): Map<string, number> {
  const out = new Map<string, number>();
  const need = (s: string) => cost(s, cp.get(s) ?? []) - (out.get(s) ?? 0);
  let left = limit - cost("", cp.get(ROOT) ?? []);
  for (const [s, w] of WEIGHTS) {
    left -= s.length + 6;
    if (!w) left -= out.set(s, need(s)).get(s)!;
  }
  let open = WEIGHTS.filter(([s, w]) => w && cp.get(s)?.length);
  while (open.length && left > 0) {
    const share = left / open.reduce((n, [, w]) => n + w, 0);
    const met = open.filter(([s, w]) => need(s) <= share * w);
    for (const [s, w] of met.length ? met : open) {
      const grant = Math.min(need(s), share * w);
      out.set(s, (out.get(s) ?? 0) + grant);
      left -= grant;
    }
    open = met.length ? open.filter((x) => !met.includes(x)) : [];
  }
  return out;
}

/**
 * The items of a section that fit its room, whole, most important first (the last ones, or the
 * first for Blocked), shown in their order; how many were left out is said.
 */
function fit(s: string, items: string[], room: number): string[] {
  if (cost(s, items) <= room) return s === "Relevant files" ? grouped(items).reverse() : items;
  const order = items.map((_, i) => i);
  if (s !== "Blocked") order.reverse();
  const kept = new Set<number>();
  const dirs = new Set<string>();
  let used = 0;
  for (const i of order) {
    const [dir, file, ref] = s === "Relevant files" ? items[i].split("\t") : [];
    const key = ref ? `${dir} named` : dir;
    const add = file === undefined ? items[i].length + 3 : dirs.has(key) ? file.length + 2 : key.length + file.length + (ref ? 2 * ref.length + 10 : 5);
    if (used + add > room - 50) continue; // room for the note
    used += add;
    kept.add(i);
    dirs.add(key);
  }
  const out = (s === "Relevant files" ? grouped : (x: string[]) => x)(items.filter((_, i) => kept.has(i)));
  if (s === "Relevant files") out.reverse(); // the files worked on first
  const left = items.length - kept.size;
  return left ? [...out, `… ${left} more not shown`] : out;
}

function render(cp: Checkpoint, limit: number): string {
  const room = allot(cp, limit);
  return WEIGHTS.map(([s, w]) => {
    const all = cp.get(s) ?? [];
    if (!all.length && s !== "Active task") return ""; // no "- none": it could be untrue
    const items = [...(s === "Relevant files" ? (cp.get(ROOT) ?? []).map((r) => `(paths under ${r}/)`) : []), ...(w ? fit(s, all, room.get(s) ?? 0) : all)];
    const body = items.length ? items.map((i) => (s === "Active task" ? i : `- ${i}`)).join("\n") : "- none";
    return `## ${s}\n${body}`;
  })
    .filter(Boolean)
    .join("\n\n");
}

/** About 3.5 characters a token: the checkpoint stays within the summary budget it is given. */
export function deterministicCheckpoint(m: HandoffMaterial, redactor: Redactor, maxOutputTokens = Infinity): string {
  // Written from the material redacted, each text whole before any cut or extract (a path, an
  // error line or a URL taken from raw text could hold a piece of a secret no shape recognises).
  const clean = redactedMaterial(m, redactor.redactMany, m.turns.map(quotable));
  const { redact } = redactor;
  const open = pending(m.turns).map(([t, c]): [number, string] => [t.index, describeCall(c.name, c.arguments, redact)]);
  let cp = sections(clean, ledgers(clean.turns), open);
  if (clean.previousSummary) cp = merge(parseCheckpoint(clean.previousSummary), cp);
  return render(cp, Math.min(DETERMINISTIC_LIMIT, Math.max(1200, Math.floor(maxOutputTokens * 3.5))));
}

/**
 * A turn as the checkpoint may quote it, so that nothing is redacted for nothing: a tool result judged
 * on its whole output (failed, error lines redacted) is never quoted by its text.
 */
function quotable(t: HandoffTurn): HandoffTurn {
  if (t.role === "tool") {
    if (t.failed === undefined) return t;
    // Of its call, only the command and the path are quoted: each value is redacted whole, the rest not at all.
    const args = t.call && parseArguments(t.call.arguments);
    const call = args && t.call && { name: t.call.name, arguments: JSON.stringify(Object.fromEntries(QUOTED_ARGS.map((k) => [k, args[k]]))) };
    return { ...t, text: "", call: call || t.call };
  }
  // A call is quoted through its result's copy (or, unanswered, on its own): only a plan is read here.
  return t.toolCalls.length ? { ...t, toolCalls: t.toolCalls.map((c) => (PLAN_TOOL.test(c.name) ? c : { name: c.name, arguments: "" })) } : t;
}

/** Material for a caller who passes only the prompt: its user text becomes one turn. */
function materialFromPrompt(req: SummarizeRequest): HandoffMaterial {
  const text = req.messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : ""))
    .join("\n\n");
  return { turns: [{ index: 0, role: "user", text, toolCalls: [] }], middleCount: 1 };
}

/** What `deterministicSummarizer()` runs, loaded on its first call. */
export async function summarizeLocally(req: SummarizeRequest, redactor: Redactor): Promise<string> {
  return deterministicCheckpoint(req.handoff ?? materialFromPrompt(req), redactor, req.maxOutputTokens);
}
