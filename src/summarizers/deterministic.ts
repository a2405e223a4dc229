// deterministicSummarizer: the checkpoint's sections filled from the middle without a model.
import { clip, describeCall, exitCode, parseArguments, salientLine } from "../prune/one-liner.js";
import { redact } from "../redact/index.js";
import { SECTIONS } from "../summarize/prompt.js";
import type { HandoffMaterial, HandoffTurn, SummarizeRequest, Summarizer } from "../types.js";

export const DETERMINISTIC_LIMIT = 8000;
const LIMITS = { actions: 12, errors: 5, files: 12, lastTurns: 8, turnChars: 700, asks: 5, constraints: 6, decisions: 4, values: 8 };

type Section = (typeof SECTIONS)[number] | "Recent turns";
type Checkpoint = Map<Section, string[]>;

/**
 * The last distinct lines of a section, by last occurrence (a repeat moves to the end). Each line is
 * keyed by its raw text and written again, redacted, only if it is kept: a checkpoint keeps a few
 * dozen lines of a middle of hundreds of turns, so it redacts those sources rather than all of them.
 */
class Picks {
  private readonly lines = new Map<string, () => string>();
  add(raw: string, clean: () => string): void {
    this.lines.delete(raw);
    this.lines.set(raw, clean);
  }
  last(n: number, except?: string): string[] {
    const kept = [...this.lines].filter(([raw]) => raw !== except).slice(-n);
    return kept.map(([, clean]) => clean());
  }
}

/** A fragment of a source text, redacted before it is clipped, so a clip never leaves part of a secret behind. */
function quote(text: string, max: number): string {
  return clip(redact(text), max);
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
// Longer than any URL worth keeping, so a match is the whole URL and a secret in it is redacted whole.
const URL = /\bhttps?:\/\/[^\s"'<>)]{4,2000}/g;

/** What a tool call came to; `clean` redacts the output before any of it is cut. */
function outcome(output: string, clean: boolean): string {
  const text = clean ? redact(output) : output;
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

/** `Bash command="npm test" → exit 1: "…"`: raw, to tell repeats apart, or redacted, to keep. */
function action(call: { name: string; arguments: string } | undefined, text: string, clean: boolean): string {
  const target = call ? describeCall(call.name, clean ? redact(call.arguments) : call.arguments) : "tool";
  return `${target} → ${outcome(text, clean)}`;
}

function collect(m: HandoffMaterial): Checkpoint {
  const actions = new Picks();
  const errors = new Picks();
  const files = new Picks();
  const asks = new Picks();
  const constraints = new Picks();
  const decisions = new Picks();
  const values = new Picks();
  const recent: HandoffTurn[] = [];
  const unanswered = new Map<string, { name: string; arguments: string }>();

  const onTurn = (t: HandoffTurn) => {
    if (t.role === "assistant") {
      for (const c of t.toolCalls) {
        unanswered.set(`${c.name}\u0000${c.arguments}`, c);
        const args = parseArguments(c.arguments) ?? {};
        for (const k of PATH_KEYS) {
          const path = args[k];
          if (typeof path === "string") files.add(path, () => redact(path));
        }
        const command = args.command ?? args.cmd;
        if (typeof command === "string") values.add(`\`${clip(command, 200)}\``, () => `\`${quote(command, 200)}\``);
      }
      for (const sentence of sentencesWith(t.text, DECISION)) decisions.add(clip(sentence, 240), () => quote(sentence, 240));
    }
    if (t.role === "tool") {
      if (t.call) unanswered.delete(`${t.call.name}\u0000${t.call.arguments}`);
      actions.add(action(t.call, t.text, false), () => action(t.call, t.text, true));
      for (const line of errorLines(t.text)) errors.add(clip(line, 240), () => quote(line, 240));
    }
    if (t.role === "user") {
      if (t.text.trim()) asks.add(clip(t.text, 300), () => quote(t.text, 300));
      for (const sentence of sentencesWith(t.text, CONSTRAINT)) constraints.add(clip(sentence, 200), () => quote(sentence, 200));
    }
    if (!t.text.startsWith("[output pruned]")) for (const match of t.text.matchAll(PATH)) files.add(match[1], () => redact(match[1]));
    for (const match of t.text.matchAll(URL)) values.add(clip(match[0], 200), () => quote(match[0], 200));
    if ((t.role === "user" || t.role === "assistant") && t.text.trim()) recent.push(t);
  };
  m.turns.forEach(onTurn);

  const lastAssistant = [...m.turns].reverse().find((t) => t.role === "assistant");
  const latest = m.latestAsk?.trim();
  const cp: Checkpoint = new Map();
  cp.set("Active task", latest ? redact(latest).split("\n").map((l) => `> ${l}`) : []);
  cp.set("Goal", m.firstAsk && m.firstAsk.trim() !== latest ? [quote(m.firstAsk, 400)] : []);
  cp.set("Constraints and preferences", constraints.last(LIMITS.constraints));
  cp.set("Completed actions", actions.last(LIMITS.actions));
  cp.set("Active state", lastAssistant?.text.trim() ? [quote(lastAssistant.text, 500)] : []);
  const pending = [...unanswered.values()].slice(-3);
  cp.set("In progress", pending.map((c) => `${describeCall(c.name, redact(c.arguments))} (no result in these turns)`));
  cp.set("Blocked", errors.last(LIMITS.errors));
  cp.set("Key decisions", decisions.last(LIMITS.decisions));
  cp.set("Resolved questions", []);
  cp.set("Pending asks", asks.last(LIMITS.asks, clip(latest ?? "", 300)));
  cp.set("Relevant files", files.last(LIMITS.files));
  cp.set("Remaining work", ["Continue with the active task; the most recent turns follow this checkpoint verbatim."]);
  cp.set("Critical values", values.last(LIMITS.values));
  cp.set("Recent turns", recent.slice(-LIMITS.lastTurns).map((t) => `${t.role}: ${quote(t.text, LIMITS.turnChars)}`));
  if (m.focus) cp.set("Key decisions", [...(cp.get("Key decisions") ?? []), `Focus requested: ${quote(m.focus, 300)}`]);
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
  let cp = collect(m);
  if (m.previousSummary) cp = merge(parseCheckpoint(redact(m.previousSummary)), cp);
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

const ours = new WeakSet<Summarizer>();

/** Whether `s` came from `deterministicSummarizer()`: the chain's last resort, trusted with raw material. */
export function isDeterministic(s: Summarizer): boolean {
  return ours.has(s);
}

/** The local, model-free summarizer: the default, and the last resort of every chain. */
export function deterministicSummarizer(): Summarizer {
  const summarize: Summarizer = async (req) => deterministicCheckpoint(req.handoff ?? materialFromPrompt(req), req.maxOutputTokens);
  summarize.label = "deterministic";
  ours.add(summarize);
  return summarize;
}
