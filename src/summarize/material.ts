// What the summarizer may see of the middle: bounded, earlier handoffs lifted out as state, redacted on its way out.
import { findHandoff } from "../facts/handoff.js";
import { callsOfResults } from "../dialects/pairs.js";
import type { MessageView, ToolCallView } from "../dialects/view.js";
import { IMAGE_STUB } from "../facts/call.js";
import { attachmentsOf } from "./attachments.js";
import { exitOf, parseArguments } from "../facts/call.js";
import { commandOf, failedOutput, verdict } from "../facts/outcome.js";
import { errorLinesLater, errorLinesOf, sourceArguments, userWords } from "./ledgers.js";
import type { Range } from "../plan/types.js";
import type { HandoffMaterial, HandoffTurn } from "./types.js";
import { maskSeams } from "../redact/seams.js";

export const BODY_LIMIT = 6000;
const BODY_HEAD = 4000;
const BODY_TAIL = 1500;
export const ARGUMENTS_LIMIT = 1500;
/** The whole summarizer input stays under this many characters. */
export const INPUT_LIMIT = 160_000;
const INPUT_HEAD_SHARE = 0.45;
export const ASK_LIMIT = 1400;
const PREVIOUS_SUMMARY_LIMIT = 24_000;

const BODY_SHARE = BODY_HEAD / (BODY_HEAD + BODY_TAIL);

/** Long text keeps its beginning and its end, with the cut stated. */
export function bound(text: string, limit: number, headShare = BODY_HEAD / BODY_LIMIT): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * headShare);
  const tail = Math.floor(limit * (1 - headShare)) - 100;
  return `${text.slice(0, head)}\n…[${text.length - head - tail} chars elided]…\n${text.slice(text.length - tail)}`;
}

interface Cut {
  whole: string;
  limit: number;
  headShare?: number;
}
/**
 * The whole text of every field `bound` cut, by the object and field it wrote. Redaction reads the
 * whole text and cuts again after: a cut first could leave half a secret, or a value without the name
 * that marks it, where no shape recognises it.
 */
const cuts = new WeakMap<object, Record<string, Cut>>();

/** A copy of a turn that keeps what `bound` cut of it (redaction reads the whole). */
export const cutLike = <T extends object>(copy: T, from: object): T => (cuts.has(from) && cuts.set(copy, cuts.get(from)!), copy);

/** Sets `o[key]` to `text` bounded, remembering the whole text when it was cut. */
function bounded<T extends object>(o: T, key: keyof T & string, text: string, limit: number, headShare?: number): T {
  const value = bound(text, limit, headShare);
  (o as Record<string, unknown>)[key] = value;
  if (value !== text) cuts.set(o, { ...cuts.get(o), [key]: { whole: text, limit, headShare } });
  return o;
}

/** Attachment lines (`[image/png a.png]`), as many as `count`, the rest counted. */
function attachmentLines(named: string[], count: number): string[] {
  const lines = named.slice(0, count).map((a) => `[${a}]`);
  if (count > lines.length) lines.push(`[${count - lines.length} image/attachment part(s)]`);
  return lines;
}

/** The stubs pruning leaves for image parts: a part named stands in their place. */
const STUB = new RegExp(`^${IMAGE_STUB.replace(/[[\]]/g, "\\$&").replace("{kind}", "[\\w-]+")}\n?`, "gm");

/** `text` without the stubs pruning left for images (most texts have none: not scanned line by line). */
const unstubbed = (text: string) => (text.includes(IMAGE_STUB.split("}")[1]) ? text.replace(STUB, "") : text);

/** A turn's text with its attachments named on lines of their own, and kept apart for the checkpoint. */
function withAttachments(turn: { text: string; attachments?: string[] }, text: string, named: string[], count: number): string {
  if (!count) return text;
  if (named.length) turn.attachments = named.slice(0, count);
  return [unstubbed(text).trim(), ...attachmentLines(named, count)].filter(Boolean).join("\n");
}

/** A call of the material, bounded, remembering the arguments the transcript has (pruning shortens or drafts its own). */
function callOf(c: ToolCallView, whole = c.arguments): { name: string; arguments: string } {
  const call = bounded({ name: c.name, arguments: "" }, "arguments", c.arguments, ARGUMENTS_LIMIT);
  if (whole !== call.arguments) sourceArguments.set(call, whole);
  return call;
}

function turnOf(m: MessageView, index: number, named: string[], count: number, sources: ToolCallView[]): HandoffTurn | undefined {
  let text = m.text;
  const handoff = m.role === "user" || m.role === "assistant" ? findHandoff(text) : undefined;
  if (handoff) text = handoff.rest; // the summary itself travels as previousSummary
  const turn: HandoffTurn = { index, role: m.role === "tool" ? "user" : m.role, text: "", toolCalls: [] };
  const own = text;
  text = withAttachments(turn, text, named, count);
  if (!text && !m.toolCalls.length) return undefined;
  turn.toolCalls = m.toolCalls.map((c, k) => callOf(c, sources[k]?.arguments));
  bounded(turn, "text", text, BODY_LIMIT, BODY_SHARE);
  // The user's own words, taken from the whole text: a cut could fall inside a harness block.
  const words = turn.role === "user" ? ownWords(own) : undefined;
  if (words !== undefined && words !== own.trim()) bounded(turn, "words", words, BODY_LIMIT, BODY_SHARE);
  return turn;
}

/**
 * Each tool result of a message as a turn of its own, with the call it answers; judged on its whole
 * output before pruning (`whole`): whether it failed, and then its error lines, taken from the whole
 * output redacted (an extract of raw text could hold a piece of a secret no shape recognises).
 */
function resultTurns(m: MessageView, index: number, calls: (ToolCallView | undefined)[], sources: (ToolCallView | undefined)[], redact: (t: string) => string, whole: MessageView | undefined, named: string[]): HandoffTurn[] {
  return m.results.map((r, k) => {
    const turn: HandoffTurn = { index, role: "tool", text: "", toolCalls: [] };
    const count = (whole ?? m).results[k]?.images ?? r.images; // before pruning stubbed them
    bounded(turn, "text", withAttachments(turn, r.text, named.splice(0, count), count), BODY_LIMIT, BODY_SHARE);
    const call = calls[k];
    if (call) turn.call = callOf(call, sources[k]?.arguments);
    const result = whole?.results[k];
    if (result?.text === undefined) return turn;
    const output = result.text;
    // parsed only when the verdict asks, and not when no key of a command is written (an escape could spell one)
    const args = call?.arguments ?? "";
    let command: boolean | undefined;
    const isCommand = () => (command ??= /"c(?:ommand|md)"|\\/.test(args) && commandOf(parseArguments(args) ?? {}) !== undefined);
    turn.exit = exitOf(result); // once: the verdict is given it (and pruning may have read it)
    turn.failed = failedOutput(output, isCommand, () => turn.exit); // its error lines read from the output redacted, when quoted
    if (turn.failed) errorLinesLater(turn, () => verdict(redact(output), isCommand).errorLines.map((x) => x.slice(0, 1000)));
    return turn;
  });
}

function turnSize(t: HandoffTurn): number {
  let n = t.text.length + 40;
  for (const c of t.toolCalls) n += c.name.length + c.arguments.length + 20;
  return n;
}

/** Keeps the first 45 % and the last 55 % of the budget when the turns are too long together. */
function boundTurns(turns: HandoffTurn[], limit: number): HandoffTurn[] {
  let total = 0;
  for (const t of turns) total += turnSize(t);
  if (total <= limit) return turns;
  const head: HandoffTurn[] = [];
  let used = 0;
  for (const t of turns) {
    if (used + turnSize(t) > limit * INPUT_HEAD_SHARE) break;
    head.push(t);
    used += turnSize(t);
  }
  const tail: HandoffTurn[] = [];
  for (let i = turns.length - 1; i >= head.length; i--) {
    if (used + turnSize(turns[i]) > limit) break;
    tail.unshift(turns[i]);
    used += turnSize(turns[i]);
  }
  const elided = turns.length - head.length - tail.length;
  const gap: HandoffTurn = {
    index: head.length ? head[head.length - 1].index + 1 : turns[0].index,
    role: "system",
    text: `[${elided} messages elided here to bound the summarizer input]`,
    toolCalls: [],
  };
  return [...head, gap, ...tail];
}

/** What the user wrote: harness blocks and the stubs pruning left for images taken out. */
const ownWords = (text: string) => userWords(unstubbed(text));

/** A user message's own words: an earlier handoff and harness blocks taken out. */
function userText(m: MessageView): string {
  return m.role === "user" ? ownWords(findHandoff(m.text)?.rest ?? m.text) : "";
}

/**
 * A copy of the material with every string redacted, each from its whole text and cut
 * again after. `turns` narrows the copy to some of the material's turns (the deterministic summarizer
 * redacts only those it quotes). The material itself stays raw.
 */
export function redactedMaterial(raw: HandoffMaterial, redactMany: (texts: string[]) => string[], turns = raw.turns, unread?: (t: HandoffTurn) => boolean): HandoffMaterial {
  const fields: [from: object, to: Record<string, unknown>, key: string][] = [];
  const copy = <T extends object>(from: T, keys: string[]): T => {
    const to = (Array.isArray(from) ? [...from] : { ...from }) as Record<string, unknown>;
    for (const k of keys) if (typeof to[k] === "string") fields.push([from, to, k]);
    return to as T;
  };
  const m = copy(raw, ["previousSummary", "focus", "latestAsk", "firstAsk"]);
  const texts: number[] = []; // where each turn's text is in `fields`
  m.turns = turns.map((t) => {
    texts.push(fields.length);
    const turn = copy(t, ["text", "words"]);
    const lines = errorLinesOf(t);
    if (lines) turn.errorLines = copy(lines, Object.keys(lines));
    if (t.attachments) turn.attachments = copy(t.attachments, Object.keys(t.attachments));
    turn.toolCalls = t.toolCalls.map((c) => copy(c, ["name", "arguments"]));
    if (t.call) turn.call = copy(t.call, ["name", "arguments"]);
    return turn;
  });
  const whole = fields.map(([from, to, k]) => cuts.get(from)?.[k]?.whole ?? (to[k] as string));
  // A turn's text `unread` says nothing is taken from (and not cut) is not redacted: written "", read
  // raw for its neighbours' seams. A text repeated (names, paths, commands) is read once by the pass's
  // redaction (src/pass.ts, `readOnce`).
  const skip = fields.map(([from, , k]) => k === "text" && !!unread?.(from as HandoffTurn) && !cuts.get(from)?.text);
  const read = redactMany(whole.filter((_, i) => !skip[i]));
  let next = 0;
  const clean = whole.map((w, i) => (skip[i] ? w : read[next++]));
  // a secret split across the texts of turns one message apart (src/redact/seams.ts)
  const seams = maskSeams(texts.map((f) => whole[f]), texts.map((f) => clean[f]), (text) => redactMany([text])[0], (i) => turns[i + 1].index === turns[i].index + 1);
  texts.forEach((f, i) => (clean[f] = seams[i]));
  fields.forEach(([from, to, k], i) => {
    const cut = cuts.get(from)?.[k];
    to[k] = skip[i] ? "" : cut ? bound(clean[i], cut.limit, cut.headShare) : clean[i];
  });
  return m;
}

export interface MaterialInput {
  views: MessageView[];
  /** The views before pruning: tool results are judged on their whole output. */
  original?: MessageView[];
  middle: Range;
  pinned: number[];
  latestUserIndex: number;
  previousHandoffIndex: number;
  statePreviousSummary: string | undefined;
  focus: string | undefined;
  /** For the error lines of failed runs, taken from their whole output redacted. */
  redact: (text: string) => string;
  /** The raw messages, read for the names and types of their attachments. */
  messages?: unknown[];
}

/** The middle as material for the summary: bounded, not yet redacted (summarizers get it through the chain). */
export function handoffMaterial(x: MaterialInput): HandoffMaterial {
  const { views, middle } = x;
  // Paired on the pruned views: their calls carry shrunk arguments, still JSON once bounded.
  const calls = callsOfResults(views);
  // The calls as the transcript has them: what their values are read from (`argumentsOf`).
  const whole = callsOfResults(x.original ?? views);
  const turns: HandoffTurn[] = [];
  for (let i = middle.start; i < middle.end; i++) {
    if (x.pinned.includes(i)) continue; // kept verbatim; it reaches the summarizer as latestAsk
    // Parts named from the raw message: the results' first (they come first in every dialect), then its own.
    // Counted before pruning stubbed them.
    const v = views[i];
    const o = x.original?.[i] ?? v;
    const own = o.images + o.attachments;
    const count = own + o.results.reduce((n, r) => n + r.images, 0);
    const named = count && x.messages ? attachmentsOf(x.messages[i]) : [];
    if (named.length !== count) named.length = 0; // described apart from the view's count: counted only
    turns.push(...resultTurns(v, i, calls[i], whole[i], x.redact, x.original?.[i], named));
    const turn = turnOf(v, i, named, own, o.toolCalls);
    if (turn) turns.push(turn);
  }
  // An earlier handoff in the middle is the previous checkpoint: update it, don't summarize it.
  let previous: string | undefined;
  const material: HandoffMaterial = { turns: boundTurns(turns, INPUT_LIMIT), middleCount: middle.end - middle.start - x.pinned.length };
  if (x.previousHandoffIndex >= middle.start && x.previousHandoffIndex < middle.end) {
    const found = findHandoff(views[x.previousHandoffIndex].text);
    previous = found?.ours && x.statePreviousSummary ? x.statePreviousSummary : found?.summary;
    // Another agent's: not in our sections, so carried as its words (the deterministic checkpoint quotes it).
    if (found && !found.ours) material.previousForeignAt = x.previousHandoffIndex;
  }
  if (previous) bounded(material, "previousSummary", previous, PREVIOUS_SUMMARY_LIMIT);
  if (x.focus) bounded(material, "focus", x.focus, ASK_LIMIT);
  // The user's latest and first words: a message that holds only harness blocks (a reminder, a
  // notification, a bare slash command's echo) asks nothing; the one before it did.
  let latest = x.latestUserIndex;
  while (latest >= 0 && !userText(views[latest])) latest--;
  if (latest >= 0) bounded(material, "latestAsk", userText(views[latest]), ASK_LIMIT, 0.7);
  if (latest >= middle.start && latest < middle.end && !x.pinned.includes(latest)) material.latestAskInMiddle = true;
  const goal = views.findIndex((v) => userText(v) !== "");
  if (goal >= 0) bounded(material, "firstAsk", userText(views[goal]), ASK_LIMIT, 0.7);
  if (goal >= 0 && goal < middle.start) material.firstAskInHead = true;
  return material;
}
