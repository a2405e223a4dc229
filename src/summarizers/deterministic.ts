// deterministicSummarizer: the checkpoint's sections filled from the middle without a model.
import { clip, describeCall, exitCode, parseArguments, salientLine } from "../prune/one-liner.js";
import { redactedMaterial } from "../summarize/material.js";
import { SECTIONS } from "../summarize/checkpoint.js";
import type { HandoffMaterial, HandoffTurn, SummarizeRequest } from "../types.js";

export const DETERMINISTIC_LIMIT = 8000;
const LIMITS = { actions: 12, errors: 5, files: 12, lastTurns: 8, turnChars: 700, asks: 5, constraints: 6, decisions: 4, values: 8 };

type Section = (typeof SECTIONS)[number] | "Recent turns";
type Checkpoint = Map<Section, string[]>;

/** The last distinct lines of a section, by last occurrence (a repeat moves to the end), with the turn each came from. */
class Picks {
  private readonly lines = new Map<string, HandoffTurn>();
  add(line: string, from: HandoffTurn): void {
    this.lines.delete(line);
    this.lines.set(line, from);
  }
  last(n: number, except?: string): [line: string, from: HandoffTurn][] {
    return [...this.lines].filter(([line]) => line !== except).slice(-n);
  }
}

const PATH = /(?:^|[\s"'`(=])((?:\.{1,2}\/|\/|~\/)?(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),:;])/g;
const PATH_KEYS = ["file_path", "path", "filename", "notebook_path"];
const CONSTRAINT = /\b(?:don't|do not|never|always|must|should not|shouldn't|prefer|make sure|avoid|only use|without)\b/i;
const DECISION = /\b(?:because|instead of|decided|going with|we'll use|I'll use|the fix is|root cause)\b/i;

/** The sentences of `text` that match `marker`; the text is only split when it has one at all. */
function sentencesWith(text: string, marker: RegExp): string[] {
  if (!marker.test(text)) return [];
  return text.split(/(?<=[.!?])\s+|\n/).filter((line) => marker.test(line));
}

const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal|panic|denied)\b/i;
const URL = /\bhttps?:\/\/[^\s"'<>)]{4,2000}/g;

function outcome(text: string): string {
  if (text.startsWith("[output pruned]")) return text.slice(text.indexOf("→") + 1).trim();
  if (!text.trim()) return "no output";
  const code = exitCode(text);
  const line = salientLine(text);
  return [code !== undefined ? `exit ${code}` : "", line ? JSON.stringify(clip(line, 160)) : ""].filter(Boolean).join(": ") || "no output";
}

/** Error lines of a tool output; of a pruned one, only the line its one-liner quoted. */
function errorLines(text: string): string[] {
  if (text.startsWith("[output pruned]")) {
    const quoted = /; "(.*)"$/.exec(text)?.[1];
    return quoted && ERROR.test(quoted) ? [quoted.replace(/\\"/g, '"')] : [];
  }
  return text.split("\n", 400).filter((line) => ERROR.test(line));
}

interface Gathered {
  actions: Picks;
  errors: Picks;
  files: Picks;
  asks: Picks;
  constraints: Picks;
  decisions: Picks;
  values: Picks;
  /** User and assistant turns with text. */
  recent: HandoffTurn[];
  /** Calls no result in these turns answers: the turn, and the call's place in it. */
  pending: [turn: HandoffTurn, call: number][];
}

/** Every candidate line of the checkpoint, with the turn it came from. */
function gather(turns: HandoffTurn[]): Gathered {
  const g: Gathered = { actions: new Picks(), errors: new Picks(), files: new Picks(), asks: new Picks(), constraints: new Picks(), decisions: new Picks(), values: new Picks(), recent: [], pending: [] };
  const unanswered = new Map<string, [HandoffTurn, number]>();
  for (const t of turns) {
    if (t.role === "assistant") {
      t.toolCalls.forEach((c, i) => {
        unanswered.set(`${c.name}\u0000${c.arguments}`, [t, i]);
        const args = parseArguments(c.arguments) ?? {};
        for (const k of PATH_KEYS) if (typeof args[k] === "string") g.files.add(args[k] as string, t);
        const command = args.command ?? args.cmd;
        if (typeof command === "string") g.values.add(`\`${clip(command, 200)}\``, t);
      });
      for (const sentence of sentencesWith(t.text, DECISION)) g.decisions.add(clip(sentence, 240), t);
    }
    if (t.role === "tool") {
      if (t.call) unanswered.delete(`${t.call.name}\u0000${t.call.arguments}`);
      const call = t.call ? describeCall(t.call.name, t.call.arguments) : "tool";
      g.actions.add(`${call} → ${outcome(t.text)}`, t);
      for (const line of errorLines(t.text)) g.errors.add(clip(line, 240), t);
    }
    if (t.role === "user") {
      if (t.text.trim()) g.asks.add(clip(t.text, 300), t);
      for (const sentence of sentencesWith(t.text, CONSTRAINT)) g.constraints.add(clip(sentence, 200), t);
    }
    if (!t.text.startsWith("[output pruned]")) for (const match of t.text.matchAll(PATH)) g.files.add(match[1], t);
    for (const match of t.text.matchAll(URL)) g.values.add(clip(match[0], 200), t);
    if ((t.role === "user" || t.role === "assistant") && t.text.trim()) g.recent.push(t);
  }
  g.pending = [...unanswered.values()].slice(-3);
  return g;
}

function lastAssistantOf(turns: HandoffTurn[]): HandoffTurn | undefined {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i].role === "assistant") return turns[i];
  return undefined;
}

/** The lines each list keeps, with the turns they came from. */
function kept(g: Gathered, latest: string) {
  return {
    actions: g.actions.last(LIMITS.actions),
    errors: g.errors.last(LIMITS.errors),
    files: g.files.last(LIMITS.files),
    asks: g.asks.last(LIMITS.asks, clip(latest, 300)), // the latest ask is the active task, not pending
    constraints: g.constraints.last(LIMITS.constraints),
    decisions: g.decisions.last(LIMITS.decisions),
    values: g.values.last(LIMITS.values),
  };
}

/** The turns the checkpoint quotes: the few whose redacted text it needs. */
function quotedTurns(g: Gathered, turns: HandoffTurn[], latest: string): HandoffTurn[] {
  const quoted = new Set<HandoffTurn>(g.recent.slice(-LIMITS.lastTurns));
  for (const list of Object.values(kept(g, latest))) for (const [, from] of list) quoted.add(from);
  for (const [turn] of g.pending) quoted.add(turn);
  const lastAssistant = lastAssistantOf(turns);
  if (lastAssistant) quoted.add(lastAssistant);
  return turns.filter((t) => quoted.has(t));
}

/** The checkpoint's sections from redacted material; `pending` says which of its calls had no result. */
function checkpoint(m: HandoffMaterial, pending: [HandoffTurn, number][]): Checkpoint {
  const g = gather(m.turns);
  const latest = m.latestAsk?.trim();
  const k = kept(g, latest ?? "");
  const lines = (list: [string, HandoffTurn][]) => list.map(([line]) => line);
  const lastAssistant = lastAssistantOf(m.turns);
  const cp: Checkpoint = new Map();
  cp.set("Active task", latest ? latest.split("\n").map((l) => `> ${l}`) : []);
  cp.set("Goal", m.firstAsk && m.firstAsk.trim() !== latest ? [clip(m.firstAsk, 400)] : []);
  cp.set("Constraints and preferences", lines(k.constraints));
  cp.set("Completed actions", lines(k.actions));
  cp.set("Active state", lastAssistant?.text.trim() ? [clip(lastAssistant.text, 500)] : []);
  cp.set("In progress", pending.map(([t, i]) => `${describeCall(t.toolCalls[i].name, t.toolCalls[i].arguments)} (no result in these turns)`));
  cp.set("Blocked", lines(k.errors));
  cp.set("Key decisions", lines(k.decisions));
  cp.set("Resolved questions", []);
  cp.set("Pending asks", lines(k.asks));
  cp.set("Relevant files", lines(k.files));
  cp.set("Remaining work", ["Continue with the active task; the most recent turns follow this checkpoint verbatim."]);
  cp.set("Critical values", lines(k.values));
  cp.set("Recent turns", g.recent.slice(-LIMITS.lastTurns).map((t) => `${t.role}: ${clip(t.text, LIMITS.turnChars)}`));
  if (m.focus) cp.set("Key decisions", [...(cp.get("Key decisions") ?? []), `Focus requested: ${clip(m.focus, 300)}`]);
  return cp;
}

/** Reads a checkpoint written in our format back into sections (for iterative updates). */
export function parseCheckpoint(text: string): Checkpoint {
  const cp: Checkpoint = new Map();
  let current: string[] | undefined;
  for (const line of text.split("\n")) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      current = [];
      cp.set(heading[1] as Section, current);
    } else if (current && line.trim() && line.trim() !== "- none") {
      current.push(line.replace(/^- /, ""));
    }
  }
  return cp;
}

const CARRIED: Partial<Record<Section, number>> = {
  "Constraints and preferences": LIMITS.constraints,
  "Completed actions": LIMITS.actions,
  "Key decisions": LIMITS.decisions,
  "Resolved questions": LIMITS.asks,
  "Pending asks": LIMITS.asks,
  "Relevant files": LIMITS.files,
  "Critical values": LIMITS.values,
};

/** Updates the previous checkpoint with the new one: lists merged and bounded, goal kept. */
function merge(previous: Checkpoint, next: Checkpoint): Checkpoint {
  const out: Checkpoint = new Map(next);
  const goal = previous.get("Goal");
  if (goal?.length) out.set("Goal", goal);
  for (const [section, limit] of Object.entries(CARRIED) as [Section, number][]) {
    const merged = [...(previous.get(section) ?? [])];
    for (const item of next.get(section) ?? []) {
      const at = merged.indexOf(item);
      if (at >= 0) merged.splice(at, 1);
      merged.push(item);
    }
    out.set(section, merged.slice(-limit));
  }
  return out;
}

function render(cp: Checkpoint, limit: number): string {
  const order: Section[] = [...SECTIONS, "Recent turns"];
  const write = (recentTurns: number) =>
    order
      .map((s) => {
        let items = cp.get(s) ?? [];
        if (s === "Recent turns") items = items.slice(items.length - recentTurns);
        if (s === "Recent turns" && !items.length) return "";
        const body = items.length ? items.map((i) => (s === "Active task" ? i : `- ${i}`)).join("\n") : "- none";
        return `## ${s}\n${body}`;
      })
      .filter(Boolean)
      .join("\n\n");
  let text = write(LIMITS.lastTurns);
  for (let n = LIMITS.lastTurns - 1; text.length > limit && n >= 0; n--) text = write(n);
  return text.length <= limit ? text : `${text.slice(0, limit - 40)}\n…[checkpoint cut to ${limit} chars]`;
}

/** About 3.5 characters a token: the checkpoint stays within the summary budget it is given. */
export function deterministicCheckpoint(m: HandoffMaterial, maxOutputTokens = Infinity): string {
  // Two passes: the raw material says which turns the checkpoint quotes; those alone are redacted
  // (each text whole, before any cut) and the checkpoint is written from them. It quotes a few dozen
  // of hundreds of turns, so this redacts a fraction of the material.
  const raw = gather(m.turns);
  const quoted = quotedTurns(raw, m.turns, m.latestAsk?.trim() ?? "");
  const clean = redactedMaterial(m, quoted);
  const cleanOf = new Map(quoted.map((t, i) => [t, clean.turns[i]]));
  let cp = checkpoint(clean, raw.pending.map(([t, i]) => [cleanOf.get(t)!, i]));
  if (clean.previousSummary) cp = merge(parseCheckpoint(clean.previousSummary), cp);
  return render(cp, Math.min(DETERMINISTIC_LIMIT, Math.max(1200, Math.floor(maxOutputTokens * 3.5))));
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
export async function summarizeLocally(req: SummarizeRequest): Promise<string> {
  return deterministicCheckpoint(req.handoff ?? materialFromPrompt(req), req.maxOutputTokens);
}
