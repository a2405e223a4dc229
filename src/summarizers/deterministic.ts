// deterministicSummarizer: the checkpoint written from ledgers over the whole middle, without a model.
import { clip, describeCall, LEAF_LIMIT, objectOf, parseArguments, redactedArguments, type Parsing } from "../facts/call.js";
import { PATH_KEYS } from "../facts/outcome.js";
import { heuristicTokens } from "../estimate/index.js";
import type { PassRedactor, Redactor } from "../redact/index.js";
import { windowed, type Windows } from "../redact/window.js";
import { cutLike, redactedMaterial } from "../summarize/material.js";
import { refOf, type Refs } from "../refs.js";
import { argumentsOf, errorLinesLater, errorLinesOf, ledgers, readsWords, shortWhat, type CommandEntry, type ErrorEntry, type FileEntry, type Ledgers } from "../summarize/ledgers.js";
import type { HandoffMaterial, HandoffTurn, SummarizeRequest } from "../summarize/types.js";

export const DETERMINISTIC_LIMIT = 8000;

type Checkpoint = Map<string, string[]>;

/** Sections in the order they are written, with their weight when the budget is shared out. */
const WEIGHTS: [section: string, weight: number][] = [
  ["Active task", 0],
  ["Goal", 0],
  // Another agent's or the provider's checkpoint of turns before these, in its own words.
  ["Earlier checkpoint", 3],
  ["User requests", 3],
  ["Constraints and preferences", 1],
  // Every error still unresolved, before any resolved history: whole, or shortened to fit the room.
  ["Blocked", 0],
  ["Completed actions", 5],
  ["Active state", 1.5],
  ["In progress", 1],
  ["Attachments", 1],
  ["Key decisions", 1],
  ["Relevant files", 6],
  ["Critical values", 1],
];
/** Sections whose long lines are written shorter (this many characters and the reference) when not all fit whole. */
const SHORT: Record<string, number> = { "User requests": 100, "Active state": 120 };
/** Widths (error line, command) Blocked is written at, widest first: every unresolved error line is shortened before one is left out. */
const BLOCKED_WIDTHS: [line: number, what: number][] = [
  [160, 120],
  [100, 80],
  [72, 60],
  [62, 48],
];
/** Sections an update carries over from the previous checkpoint (older lines first). */
const CARRIED = ["Earlier checkpoint", "User requests", "Constraints and preferences", "Completed actions", "Key decisions", "Relevant files", "Critical values"];
/** Commands that only look (list, read, search, show status): the first to leave a full checkpoint. */
const LOOKS = /^(?:cd \S+ && )?(?:ls|cat|grep|rg|find|head|tail|wc|pwd|echo|which|tree|sed -n|git (?:status|diff|log|show|ls-files|branch)|\w+ (?:show|list|ready|status|--version))\b/;
/** The arguments of a call the ledgers read. */
const QUOTED_ARGS = ["command", "cmd", ...PATH_KEYS];
/** Tools whose arguments are the agent's plan (TodoWrite, update_plan). */
const PLAN_TOOL = /todo|plan/i;
/** Not a section: the directory file paths are relative to, written atop Relevant files. */
const ROOT = "root";
const EARLIER = "Earlier checkpoint";
/** The label a dialect gives a provider's compaction (`[CONTEXT COMPACTION …]`): not the provider's words. */
const LABEL = /^\[CONTEXT COMPACTION\b[^\]\n]*\]/;
/** Width a quoted line of an earlier checkpoint is cut to when the quote does not fit whole. */
const QUOTE_WIDTH = 300;
const URL = /\bhttps?:\/\/[^\s"'<>)]{4,2000}/g;

const RANK: Record<string, number> = { mentioned: 0, read: 1 };
/**
 * One item a file, `dir/\tname what-was-done #last`, the ones that matter most last: changed, then
 * read, then only named. A change says the file was read: only the changes are written, without counts.
 */
function fileItems(l: Ledgers, pass?: Refs): string[] {
  const rank = (f: FileEntry) => Math.max(...[...f.ops.keys()].map((op) => RANK[op] ?? 2));
  return [...l.files.values()]
    .sort((a, b) => rank(a) - rank(b) || a.at[a.at.length - 1] - b.at[b.at.length - 1])
    .map((f) => {
      const slash = f.path.lastIndexOf("/") + 1;
      const ops = [...f.ops.keys()].filter((op) => rank(f) < 2 || !(op in RANK));
      return `${f.path.slice(0, slash) || "./"}\t${f.path.slice(slash)} ${ops.join(" ").replace("mentioned", "named")} ${refOf(f.at[f.at.length - 1], pass)}`;
    });
}

/** File items one line a directory, in the order given: `lib/a/: x.ts edited #12, y.ts read #3`; a line without a file whole. */
function grouped(items: string[]): string[] {
  const dirs = new Map<string, string[]>();
  for (const text of items) {
    const [dir, file] = text.split("\t");
    if (!dirs.has(dir)) dirs.set(dir, []);
    if (file) dirs.get(dir)!.push(file);
  }
  return [...dirs].map(([dir, files]) => (files.length ? `${dir}: ${files.join(", ")}` : dir));
}

/** The checkpoint's sections, from redacted material. */
function sections(m: HandoffMaterial, l: Ledgers, open: [index: number, call: string][], limit: number): Checkpoint {
  const pass = m.pass;
  const at = (i: number) => refOf(i, pass);
  const cp: Checkpoint = new Map();
  // The user's latest words (a reminder or a notification after them is not the task).
  const task = m.latestAsk?.trim() || l.requests.at(-1)?.[0] || m.firstAsk;
  // The latest request is kept verbatim: a long one must not take the ledgers' room. The first is
  // written only when the head does not keep it.
  cp.set("Active task", task ? clip(task, Math.min(1200, limit / 4)).split("\n").map((x) => `> ${x}`) : []);
  cp.set("Goal", m.firstAsk && !m.firstAskInHead && m.firstAsk.trim() !== task?.trim() ? [clip(m.firstAsk, Math.min(400, limit / 8))] : []);
  cp.set("User requests", l.requests.map(([t, i]) => `${clip(t, 300)} ${at(i)}`));
  cp.set("Constraints and preferences", l.constraints.map(([s, i]) => `${clip(s, 200)} ${at(i)}`));
  const errors = [...l.errors.values()];
  const last = (c: { at: number[] }) => c.at[c.at.length - 1];
  // A settled error is told on the line of the command that failed (once, however many steps it
  // had, its reference said once), else on a line of its own.
  const settled = new Map(errors.filter((e) => e.resolvedAt !== undefined).map((e) => [e.what, e]));
  const blocked = new Set(errors.filter((e) => e.resolvedAt === undefined).map((e) => e.at));
  const quote = (e: ErrorEntry) => `("${clip(e.lines[0], 80)}"), then passed ${at(e.resolvedAt!)}`;
  const line = (c: CommandEntry) => {
    const e = settled.get(`\`${c.command}\``);
    settled.delete(`\`${c.command}\``);
    return `\`${clip(c.command, 90)}\`${c.runs > 1 ? ` ×${c.runs}` : ""}${c.status === "ok" ? "" : ` → ${c.status}`} ${at(last(c))}${!e ? "" : `${e.at === last(c) ? "" : `; failed ${at(e.at)}`} ${quote(e)}`}`;
  };
  // Most important last (what is kept when the room is short): commands that only look, the others,
  // those that failed then passed, finished plan items, errors settled.
  const ranks = new Map([...l.commands.values()].map((c) => [c, LOOKS.test(c.command) ? 0 : settled.has(`\`${c.command}\``) ? 2 : 1])); // once, not per comparison
  cp.set("Completed actions", [
    // A command whose last run is still failing is told under Blocked.
    ...[...l.commands.values()].filter((c) => !blocked.has(last(c))).sort((a, b) => ranks.get(a)! - ranks.get(b)! || last(a) - last(b)).map(line),
    ...(l.plan?.items.filter(([done]) => done === "x").map(([, t]) => `done: ${clip(t, 160)} ${at(l.plan!.at)}`) ?? []),
    ...[...settled.values()].map((e) => `resolved: ${clip(e.what, 90)} failed ${at(e.at)} ${quote(e)}`),
  ]);
  // What the agent last said, unless the user has asked something since.
  let lastAssistant: HandoffTurn | undefined;
  for (const t of m.turns) if (t.role === "assistant" && t.text.trim()) lastAssistant = t;
  if (lastAssistant && lastAssistant.index < (l.requests.at(-1)?.[1] ?? -1)) lastAssistant = undefined;
  cp.set("Active state", [
    ...(l.plan?.items.filter(([done]) => done !== "x").map(([s, t]) => `${s === "~" ? "doing" : "todo"}: ${clip(t, 160)} ${at(l.plan!.at)}`) ?? []),
    ...(lastAssistant ? [`${clip(lastAssistant.text, 300)} ${at(lastAssistant.index)}`] : []),
  ]);
  cp.set("In progress", open.map(([i, call]) => `${clip(call, 200)} (no result in these turns) ${at(i)}`));
  cp.set("Attachments", m.turns.flatMap((t) => (t.attachments ?? []).map((a) => `${clip(a, 160)} ${at(t.index)}`)));
  cp.set("Key decisions", [...l.decisions.map(([s, i]) => `${clip(s, 240)} ${at(i)}`), ...(m.focus ? [`Focus requested: ${clip(m.focus, 300)}`] : [])]);
  cp.set("Relevant files", fileItems(l, pass));
  if (l.root) cp.set(ROOT, [`(paths under ${l.root}/)`]);
  const urls = new Map<string, number>();
  for (const t of m.turns) if (t.text.includes("http")) for (const u of t.text.matchAll(URL)) urls.set(u[0], t.index); // matchAll copies its pattern: only where a URL may be
  cp.set("Critical values", [...urls].map(([u, i]) => `${clip(u, 200)} ${at(i)}`));
  return cp;
}

/** A line cut to `width` characters, whitespace folded, its beginning kept whole (an error line is recognised by it). */
function cut(line: string, width: number): string {
  const flat = clip(line, 4 * width);
  return flat.length <= width ? flat : `${flat.slice(0, width - 2)} …`;
}

/**
 * An earlier checkpoint another agent or the provider wrote: its words (redacted) quoted under the
 * reference recall reads the whole by; an encrypted one only named.
 */
function earlierItems(text: string, ref: string): string[] {
  const label = LABEL.exec(text)?.[0];
  const by = label ? ` (${label})` : ", not written by context-compactor";
  const words = text.slice(label?.length ?? 0).split("\n").map((x) => x.trim()).filter(Boolean);
  if (!words.length) return [`${ref}${by}: its content is not readable here; recall ${ref} reads what was kept of it`];
  return [`${ref}${by}: the words of its message quoted below; recall ${ref} reads the whole`, ...words.map((x) => `> ${x}`)];
}

/** An earlier checkpoint's lines with its quoted ones cut, by its items: cut once for every fit tried. */
const quotedCut = new WeakMap<string[], string[]>();

/**
 * An earlier checkpoint that fits its room: intro lines whole, quoted lines (cut to a width) from its
 * beginning and its end, each gap said, with the reference that reads it.
 */
function excerpt(items: string[], room: number): string[] {
  if (cost(EARLIER, items) <= room) return items;
  const lines = quotedCut.get(items) ?? quotedCut.set(items, items.map((x) => (x.startsWith("> ") ? cut(x, QUOTE_WIDTH) : x))).get(items)!;
  const kept = new Set(lines.flatMap((x, i) => (x.startsWith("> ") ? [] : [i])));
  let used = [...kept].reduce((n, i) => n + lines[i].length + 3, 60);
  const take = (i: number, share: number) => {
    const add = lines[i].length + 3;
    if (kept.has(i) || used + add > room * share) return false;
    kept.add(i), (used += add);
    return true;
  };
  for (let i = 0; i < lines.length && (kept.has(i) || take(i, 0.6)); i++);
  for (let i = lines.length - 1; i >= 0 && (kept.has(i) || take(i, 1)); i--);
  const out: string[] = [];
  let ref = "";
  lines.forEach((x, i) => {
    if (!x.startsWith("> ")) ref = /^#[\d.]+/.exec(x)?.[0] ?? ref;
    if (kept.has(i)) out.push(x);
    else if (kept.has(i - 1) || i === 0) out.push(`> …[${gap(lines, kept, i)} lines left out to fit; recall ${ref} reads them]`);
  });
  return out;
}

/** How many lines from `i` on are not kept. */
function gap(lines: string[], kept: Set<number>, i: number): number {
  let n = 0;
  while (i + n < lines.length && !kept.has(i + n)) n++;
  return n;
}

/** What is still failing, the latest first, each error line of it at a width. */
function blockedItems(l: Ledgers, pass: Refs | undefined, [line, what]: [number, number]): string[] {
  const open = [...l.errors.values()].filter((e) => e.resolvedAt === undefined).reverse();
  return open.map((e) => `${shortWhat(e.what, what)}: ${e.lines.map((x) => `"${cut(x, line)}"`).join(" / ")} ${refOf(e.at, pass)}`);
}

/** Calls no result in these turns answers (the last three). */
function pending(turns: HandoffTurn[]): [HandoffTurn, { name: string; arguments: string }][] {
  // a call by its name and arguments, without joining them into a key (a copy of every call's arguments)
  const keys = new Map<string, Map<string, object>>();
  const key = (c: { name: string; arguments: string }) => {
    const named = keys.get(c.arguments) ?? keys.set(c.arguments, new Map()).get(c.arguments)!;
    return named.get(c.name) ?? named.set(c.name, {}).get(c.name)!;
  };
  const open = new Map<object, [HandoffTurn, { name: string; arguments: string }]>();
  for (const t of turns) {
    for (const c of t.toolCalls) open.set(key(c), [t, c]);
    if (t.call) open.delete(key(t.call));
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
    else if (line.trim() === "---") current = undefined; // ledgers appended to a model's checkpoint follow: not a line of its section
    else if (current && line.trim() && line.trim() !== "- none" && !line.startsWith("- …") && !line.startsWith("- (paths under ")) current.push(line.replace(/^- /, ""));
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

/** What a section's items take written out (files one line a directory). */
const cost = (s: string, items: string[]) => (s === "Relevant files" ? grouped(items) : items).reduce((n, i) => n + i.length + 3, 0);

/**
 * Characters each section may use: sections without a weight are whole; the rest share what is
 * left by weight, and what a section does not need goes to those that need more.
 */
function allot(cp: Checkpoint, limit: number): Map<string, number> {
  const out = new Map<string, number>();
  const whole = new Map(WEIGHTS.map(([s]) => [s, cost(s, cp.get(s) ?? [])])); // once: asked again at every share
  const need = (s: string) => whole.get(s)! - (out.get(s) ?? 0);
  let left = limit - cost("", cp.get(ROOT) ?? []);
  for (const [s, w] of WEIGHTS) {
    if (cp.get(s)?.length || s === "Active task") left -= s.length + 6; // the heading of a section written
    if (!w) left -= out.set(s, s === "Blocked" ? Math.min(need(s), left) : need(s)).get(s)!;
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
 * first for Blocked, which lists the latest first): as many as fit in their short form, then written
 * whole where room is left. Shown in their order (files the most important first); how many were
 * left out is said, in room kept for it.
 */
function fit(s: string, items: string[], room: number): string[] {
  const files = s === "Relevant files";
  const show = (kept: string[]) => (files ? grouped(kept.reverse()) : kept);
  // The short form of a line: its first characters, and its reference.
  const short = (x: string, ref = / #[\d.]+$/.exec(x)?.[0] ?? "") => (SHORT[s] ? clip(x.slice(0, x.length - ref.length), SHORT[s]) + ref : x);
  if (cost(s, items) <= room) return show([...items]);
  const order = items.map((_, i) => i);
  if (s !== "Blocked") order.reverse();
  const kept = new Map<number, string>();
  const dirs = new Set<string>();
  let used = 25;
  for (const i of order) {
    const text = short(items[i]);
    const [dir, file] = text.split("\t");
    const add = !files || file === undefined ? text.length + 3 : dirs.has(dir) ? file.length + 2 : dir.length + file.length + 5;
    if (used + add > room) continue;
    used += add;
    kept.set(i, text);
    dirs.add(dir);
  }
  for (const [i, text] of kept) {
    const more = items[i].length - text.length;
    if (more && used + more <= room) kept.set(i, items[i]), (used += more);
  }
  const left = items.length - kept.size;
  return [...show(items.flatMap((_, i) => kept.get(i) ?? [])), ...(left ? [`… ${left} more not shown`] : [])];
}

function render(cp: Checkpoint, limit: number, widths: string[][]): string {
  // Blocked at the widest that fits a quarter of the room, else the narrowest, taking up to all the
  // room the task leaves: every unresolved error line shortened before one is left out, before any
  // resolved history.
  cp = new Map(cp).set("Blocked", widths.find((items) => cost("Blocked", items) <= limit / 4) ?? widths[widths.length - 1]);
  const room = allot(cp, limit);
  return WEIGHTS.map(([s, w]) => {
    const all = cp.get(s) ?? [];
    if (!all.length && s !== "Active task") return ""; // no "- none": it could be untrue
    const lines = [...(s === "Relevant files" ? cp.get(ROOT) ?? [] : []), ...(s === EARLIER ? excerpt(all, room.get(s) ?? 0) : w || s === "Blocked" ? fit(s, all, room.get(s) ?? 0) : all)];
    const body = lines.length ? lines.map((i) => (s === "Active task" || (s === EARLIER && i.startsWith("> ")) ? i : `- ${i}`)).join("\n") : "- none";
    return `## ${s}\n${body}`;
  })
    .filter(Boolean)
    .join("\n\n");
}

/**
 * About 3.5 characters a token: the checkpoint stays within the summary budget it is given.
 * `quoteEarlier` false leaves another agent's checkpoint out (ledgers for a model that has it whole).
 */
export function deterministicCheckpoint(m: HandoffMaterial, redactor: PassRedactor & Parsing, maxOutputTokens = Infinity, quoteEarlier = true): string {
  // Written from the material redacted, each text whole before any cut or extract (a path, an
  // error line or a URL taken from raw text could hold a piece of a secret no shape recognises).
  const r = windowed(redactor);
  const quoted = calls(m.turns, r);
  const turns = m.turns.map((t) => quotable(t, quoted));
  // What the agent last said is quoted; its other words only for what the ledgers take from them.
  let said: HandoffTurn | undefined;
  for (const t of turns) if (t.role === "assistant" && t.text.trim()) said = t;
  const clean = redactedMaterial(m, r.redactMany, turns, (t) => t.role === "assistant" && t !== said && !readsWords(t.text));
  // A failed run's error lines redacted again, as the rest, when the checkpoint quotes them.
  m.turns.forEach((t, i) => t.failed && errorLinesLater(clean.turns[i], () => r.redactMany(errorLinesOf(t) ?? [])));
  const open = pending(m.turns).map(([t, c]): [number, string] => [t.index, describeCall(c.name, argumentsOf(c), r)]);
  const chars = (n: number) => Math.min(DETERMINISTIC_LIMIT, Math.max(1200, Math.floor(n)));
  let limit = chars(maxOutputTokens * 3.5);
  const l = ledgers(clean.turns);
  let cp = sections(clean, l, open, limit);
  // Our previous checkpoint is updated; another agent's is not in our sections: it is quoted.
  if (clean.previousSummary && clean.previousForeignAt !== undefined) {
    if (quoteEarlier) cp.set(EARLIER, earlierItems(clean.previousSummary, refOf(clean.previousForeignAt, m.pass)));
  }
  else if (clean.previousSummary) cp = merge(parseCheckpoint(clean.previousSummary), cp);
  const blocked = (width: [number, number]) => blockedItems(l, m.pass, width);
  // Paths and references count denser than 3.5 characters a token: held to the budget as the built-in estimate counts it.
  const widths = BLOCKED_WIDTHS.map(blocked); // Blocked at each width, written once for every fit tried
  let text = render(cp, limit, widths);
  for (let n = heuristicTokens(text); n > maxOutputTokens && limit > 1200; n = heuristicTokens(text)) text = render(cp, (limit = chars((limit * maxOutputTokens) / n - 10)), widths);
  return text;
}

/**
 * A turn as the checkpoint may quote it, so that nothing is redacted for nothing: a tool result judged
 * on its whole output (failed, error lines redacted) is never quoted by its text.
 */
function quotable(t: HandoffTurn, quoted: Map<object, Record<string, unknown> | undefined>): HandoffTurn {
  if (t.role === "tool") {
    if (t.failed === undefined) return t;
    // Of its call, only the command and the path are quoted (see `calls`), the rest not at all.
    const args = t.call && quoted.get(t.call);
    const call = args && t.call && { name: t.call.name, arguments: JSON.stringify(quotedOf(args)) };
    return { ...t, text: "", call: call || t.call }; // without the error lines: see deterministicCheckpoint
  }
  // A call is quoted through its result's copy (or, unanswered, on its own): only a plan is read here.
  return t.toolCalls.length ? cutLike({ ...t, toolCalls: t.toolCalls.map((c) => ({ name: c.name, arguments: PLAN_TOOL.test(c.name) ? argumentsOf(c) : "" })) }, t) : t;
}

/** The values of `args` the checkpoint quotes, in QUOTED_ARGS's order (a loop: Object.fromEntries costs ~5× more). */
export function quotedOf(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of QUOTED_ARGS) if (args[k] !== undefined) out[k] = args[k];
  return out;
}

/** Arguments up to this long are redacted whole; a longer one in windows of its leaves (a file being written). */
const WHOLE = 4_000;
/** Arguments up to this long are redacted whole before any window is tried: a window reads on past what it keeps as far as a shape reaches (~600 characters). */
const WINDOWED = 1_000;

/**
 * The arguments of the calls `quotable` quotes (of results judged on their whole output), from those the transcript
 * has (pruning's are shortened, or drafts), by the call (`callArguments`).
 */
function calls(turns: HandoffTurn[], r: Redactor & Windows & Parsing): Map<object, Record<string, unknown> | undefined> {
  const quoted = new Map<object, Record<string, unknown> | undefined>();
  for (const t of turns) if (t.role === "tool" && t.failed !== undefined && t.call) quoted.set(t.call, callArguments(argumentsOf(t.call), r));
  return quoted;
}

/**
 * A call's arguments parsed and redacted as their whole text redacts them, as far as `quotable` reads
 * them: short ones whole; a longer one as far as its quoted values where that tells (`quotedArguments`),
 * else whole, or a long one in windows of its leaves (`redactedArguments`: it reads less).
 */
export function callArguments(args: string, r: Redactor & Windows & Parsing): Record<string, unknown> | undefined {
  const read = args.length > WINDOWED ? quotedArguments(args, r) : undefined;
  if (read || args.length <= WHOLE) return read ?? parseArguments(r.redact(args), r);
  return objectOf(redactedArguments(args, r)?.clean);
}

/**
 * Arguments parsed, as `calls` reads them: where redacting their text up to the last of the values
 * `quotable` quotes (QUOTED_ARGS, and what a shape may read past it) masks nothing before its end,
 * those values are the raw ones, and what follows them (an edit's strings, a file's content) is not
 * read. Undefined where that does not tell (a mask there; a quoted value not a string short enough
 * for `redactedArguments` to keep whole; not a JSON object). A mask keeps JSON's structure
 * (src/redact/index.ts, `maskAt`): no key comes or goes.
 */
export function quotedArguments(args: string, r: Pick<Windows, "redactFrom"> & Parsing): Record<string, unknown> | undefined {
  const raw = parseArguments(args, r);
  if (!raw || QUOTED_ARGS.some((k) => typeof raw[k] === "object" || String(raw[k]).length > LEAF_LIMIT)) return undefined;
  const ends = valueEnds(args);
  const end = Math.max(0, ...QUOTED_ARGS.map((k) => ends.get(k) ?? 0));
  return !end || r.redactFrom(args, 0, end)?.startsWith(args.slice(0, end)) ? raw : undefined;
}

/** Where each member of a JSON object's (valid) text ends (its comma or closing brace), by its key (the last, as JSON.parse reads it). */
function valueEnds(json: string): Map<string, number> {
  const ends = new Map<string, number>();
  let key: string | undefined;
  let depth = 0;
  for (let i = json.indexOf("{") + 1; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      const from = i;
      let slashes = 1;
      while (slashes % 2) for (i = json.indexOf('"', i + 1), slashes = 0; json[i - 1 - slashes] === "\\"; ) slashes++;
      if (!depth && key === undefined) key = JSON.parse(json.slice(from, i + 1));
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]" || c === ",") {
      if (!depth) ends.set(key!, i), (key = undefined);
      if (c !== ",") depth--;
    }
  }
  return ends;
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
export async function summarizeLocally(req: SummarizeRequest, redactor: PassRedactor): Promise<string> {
  return deterministicCheckpoint(req.handoff ?? materialFromPrompt(req), redactor, req.maxOutputTokens);
}
