// Token estimation of messages: text by the counter given (the heuristic by default), images at a fixed price.
import { jsonOf, type MessageView } from "../dialects/view.js";

export const DEFAULT_IMAGE_TOKENS = 1600;
/** Role, separators and framing a provider adds around every message. */
export const MESSAGE_OVERHEAD = 4;
/** Framing around each tool call (id, type, function wrapper). */
export const TOOL_CALL_OVERHEAD = 8;

export type TextCounter = (text: string) => number;

export { heuristicTokens } from "./heuristic.js";

export interface EstimateSettings {
  /** The counter, calibrated: each text's count scaled by the calibration learned from usage. */
  countText: TextCounter;
  imageTokens: number;
  /**
   * A message's texts are counted by `count` (uncalibrated: the caller's counter, checked, or the
   * heuristic) and their sum scaled once by `scale` (the calibration). What a kept count depends on:
   * `counter`, the function the caller gave (or the heuristic), and `imageTokens`.
   */
  basis: { counter: TextCounter; count: TextCounter; scale: (n: number) => number };
}

/**
 * Counts by message object: a later pass given the same object (head and tail are, between passes)
 * reads its count here instead of scanning it again. Kept per object, never across sessions: a
 * message object belongs to one transcript, and its entry goes with it. An entry holds the view it
 * was counted from (a message changed in place since is counted again), the counter, the image price,
 * the fixed tokens (framing, images) and the texts' uncalibrated count, scaled when read: a
 * calibration that moves (usage calibrates after each answer) never makes a message be counted again.
 * And each text with its count, [text, count, …]: a pass that rewrites the message counts only the
 * texts it changed (src/estimate/rewritten.ts).
 */
export const counted = new WeakMap<object, [view: MessageView, counter: TextCounter, imageTokens: number, fixed: number, text: number, counts: (string | number)[]]>();

/** A message is kept from this many tokens on (~250 characters). */
const KEPT_TOKENS = 64;

/** Whether two views (plain objects, arrays, strings and numbers) read the same. */
export function same(a: unknown, b: unknown): boolean {
  if (!a || !b || typeof a != "object" || typeof b != "object") return a === b;
  // Arrays by index: `for…in` over an array's keys was half the check.
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => same(x, (b as unknown[])[i]));
  for (const k in a) if (!same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return Object.keys(a).length === Object.keys(b).length;
}

/** The count of `x`, kept beside it in `counts` (a function of the module: a closure made per message slowed `plan` ~20 %). */
const count = (counts: (string | number)[], x: string, b: EstimateSettings["basis"]) => counts[counts.push(x, b.count(x)) - 1] as number;

/** Tokens of a message's view; `message`, the object it views, keeps the count for later passes. */
export function messageTokens(m: MessageView, s: EstimateSettings, message?: unknown): number {
  const b = s.basis;
  const kept = counted.get(message as object); // (undefined for anything but an object)
  if (kept && kept[1] === b.counter && kept[2] === s.imageTokens && same(kept[0], m)) return kept[3] + b.scale(kept[4]);
  const counts: (string | number)[] = [];
  let text = m.text ? count(counts, m.text, b) : 0;
  let t = MESSAGE_OVERHEAD + (m.images + m.attachments) * s.imageTokens + Math.ceil(m.otherChars / 4);
  for (const call of m.toolCalls) {
    t += TOOL_CALL_OVERHEAD;
    text += count(counts, call.name, b) + count(counts, call.arguments, b);
  }
  for (const r of m.results) {
    t += r.images * s.imageTokens;
    text += r.text ? count(counts, r.text, b) : 0;
  }
  // A short message costs less to count again than to keep (a WeakMap entry and its check cost about what counting ~250 characters does).
  // Only an object can key a count (a custom dialect's message may be a string).
  if (t + text >= KEPT_TOKENS && message === Object(message)) counted.set(message as object, [m, b.counter, s.imageTokens, t, text, counts]);
  return t + b.scale(text);
}

/** Tool definitions are sent with every request: they count, though they are never rewritten. */
export function toolDefinitionTokens(tools: unknown[] | undefined, s: EstimateSettings): number {
  return tools?.length ? s.countText(jsonOf(tools)) : 0; // a definition that does not stringify (cyclic, BigInt) counts as nothing
}

/** The bytes of a value's JSON, UTF-8, as a request body carries it. */
const utf8 = /* @__PURE__ */ new TextEncoder();
export const utf8Bytes = (x: unknown) => utf8.encode(JSON.stringify(x) ?? "").length;
