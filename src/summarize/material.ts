// What the summarizer may see of the middle: bounded, earlier handoffs lifted out as state, redacted on its way out.
import { findHandoff } from "../assemble/handoff.js";
import { callsOfResults } from "../dialects/pairs.js";
import type { MessageView, ToolCallView } from "../dialects/view.js";
import { isRealUser } from "../plan/index.js";
import { redactMany } from "../redact/index.js";
import type { HandoffMaterial, HandoffTurn, Range } from "../types.js";

export const BODY_LIMIT = 6000;
const BODY_HEAD = 4000;
const BODY_TAIL = 1500;
export const ARGUMENTS_LIMIT = 1500;
/** The whole summarizer input stays under this many characters. */
export const INPUT_LIMIT = 160_000;
const INPUT_HEAD_SHARE = 0.45;
export const ASK_LIMIT = 1400;
const PREVIOUS_SUMMARY_LIMIT = 24_000;

const SPACE = /\s/;
/**
 * A cut near `at` that splits no word: back to the whitespace before it (or on to the one after it),
 * within 200 characters. A secret is a word: kept whole for redaction to find, or left out whole.
 */
function cutAt(text: string, at: number, back: boolean): number {
  for (let i = at, n = 0; n < 200 && i > 0 && i < text.length; i += back ? -1 : 1, n++) if (SPACE.test(text[back ? i : i - 1])) return i;
  return at;
}

/** Long text keeps its beginning and its end, with the cut stated. */
export function bound(text: string, limit: number, headShare = BODY_HEAD / BODY_LIMIT): string {
  if (text.length <= limit) return text;
  const head = cutAt(text, Math.floor(limit * headShare), true);
  const tail = cutAt(text, text.length - (Math.floor(limit * (1 - headShare)) - 100), false);
  return `${text.slice(0, head)}\n…[${tail - head} chars elided]…\n${text.slice(tail)}`;
}

function turnOf(m: MessageView, index: number): HandoffTurn | undefined {
  let text = m.text;
  const handoff = m.role === "user" || m.role === "assistant" ? findHandoff(text) : undefined;
  if (handoff) text = handoff.rest; // the summary itself travels as previousSummary
  if (m.images + m.attachments) text += `${text ? "\n" : ""}[${m.images + m.attachments} image/attachment part(s)]`;
  if (!text && !m.toolCalls.length) return undefined;
  return {
    index,
    role: m.role === "tool" ? "user" : m.role,
    text: bound(text, BODY_LIMIT, BODY_HEAD / (BODY_HEAD + BODY_TAIL)),
    toolCalls: m.toolCalls.map((c) => ({ name: c.name, arguments: bound(c.arguments, ARGUMENTS_LIMIT) })),
  };
}

/** Each tool result of a message as a turn of its own, with the call it answers. */
function resultTurns(m: MessageView, index: number, calls: (ToolCallView | undefined)[]): HandoffTurn[] {
  return m.results.map((r, k) => {
    const text = r.images ? `${r.text}${r.text ? "\n" : ""}[${r.images} image/attachment part(s)]` : r.text;
    const turn: HandoffTurn = { index, role: "tool", text: bound(text, BODY_LIMIT, BODY_HEAD / (BODY_HEAD + BODY_TAIL)), toolCalls: [] };
    const call = calls[k];
    if (call) turn.call = { name: call.name, arguments: bound(call.arguments, ARGUMENTS_LIMIT) };
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

function firstAsk(views: MessageView[]): string | undefined {
  for (const m of views) if (isRealUser(m)) return userText(m);
  return undefined;
}

function userText(m: MessageView): string {
  return findHandoff(m.text)?.rest ?? m.text;
}

/**
 * The material as a summarizer outside this module may see it: every string redacted, in one batch.
 * A copy: the raw material stays for the deterministic summarizer, which redacts only what it keeps.
 */
export function redactedMaterial(raw: HandoffMaterial): HandoffMaterial {
  const m: HandoffMaterial = {
    ...raw,
    turns: raw.turns.map((t) => ({ ...t, toolCalls: t.toolCalls.map((c) => ({ ...c })), ...(t.call && { call: { ...t.call } }) })),
  };
  const slots: [object, string][] = [];
  const add = (o: object, k: string) => {
    if (typeof (o as Record<string, unknown>)[k] === "string") slots.push([o, k]);
  };
  for (const t of m.turns) {
    add(t, "text");
    for (const c of t.toolCalls) add(c, "arguments");
    if (t.call) add(t.call, "arguments");
  }
  for (const k of ["previousSummary", "focus", "latestAsk", "firstAsk"]) add(m, k);
  const clean = redactMany(slots.map(([o, k]) => (o as Record<string, string>)[k]));
  slots.forEach(([o, k], i) => ((o as Record<string, string>)[k] = clean[i]));
  return m;
}

export interface MaterialInput {
  views: MessageView[];
  middle: Range;
  pinned: number[];
  latestUserIndex: number;
  previousHandoffIndex: number;
  statePreviousSummary: string | undefined;
  focus: string | undefined;
}

/** The middle as material for the summary: bounded, not yet redacted (summarizers get it through the chain). */
export function handoffMaterial(x: MaterialInput): HandoffMaterial {
  const { views, middle } = x;
  // Paired on the pruned views: their calls carry shrunk arguments, still JSON once bounded.
  const calls = callsOfResults(views);
  const turns: HandoffTurn[] = [];
  for (let i = middle.start; i < middle.end; i++) {
    if (x.pinned.includes(i)) continue; // kept verbatim; it reaches the summarizer as latestAsk
    turns.push(...resultTurns(views[i], i, calls[i]));
    const turn = turnOf(views[i], i);
    if (turn) turns.push(turn);
  }
  // An earlier handoff in the middle is the previous checkpoint: update it, don't summarize it.
  let previous: string | undefined;
  if (x.previousHandoffIndex >= middle.start && x.previousHandoffIndex < middle.end) {
    const found = findHandoff(views[x.previousHandoffIndex].text);
    previous = found?.ours && x.statePreviousSummary ? x.statePreviousSummary : found?.summary;
  }
  const material: HandoffMaterial = { turns: boundTurns(turns, INPUT_LIMIT), middleCount: middle.end - middle.start - x.pinned.length };
  if (previous) material.previousSummary = bound(previous, PREVIOUS_SUMMARY_LIMIT);
  if (x.focus) material.focus = bound(x.focus, ASK_LIMIT);
  if (x.latestUserIndex >= 0) material.latestAsk = bound(userText(views[x.latestUserIndex]), ASK_LIMIT, 0.7);
  const goal = firstAsk(views);
  if (goal !== undefined) material.firstAsk = bound(goal, ASK_LIMIT, 0.7);
  return material;
}
