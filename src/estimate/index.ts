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
  countText: TextCounter;
  imageTokens: number;
  /**
   * What a count depends on besides the message: the counter `countText` wraps (the caller's, or the
   * heuristic), and `key`, its calibration ratio and the image price. A message's count is kept under
   * it (see messageTokens); without it nothing is kept.
   */
  basis?: { counter: TextCounter; key: string };
}

/**
 * Counts by message object: a later pass given the same object (head and tail are, between passes)
 * reads its count here instead of scanning it again. Kept per object, never across sessions: a
 * message object belongs to one transcript, and its entry goes with it. An entry holds the view it
 * was counted from (a message changed in place since is counted again), the counter and what else
 * the count depends on.
 */
const counted = new WeakMap<object, [view: MessageView, counter: TextCounter, key: string, tokens: number]>();

/** A message is kept from this many tokens on (~500 characters). */
const KEPT_TOKENS = 128;

/** Whether two views (plain objects, arrays, strings and numbers) read the same. */
function same(a: unknown, b: unknown): boolean {
  if (!a || !b || typeof a != "object" || typeof b != "object") return a === b;
  for (const k in a) if (!same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return Object.keys(a).length === Object.keys(b).length;
}

/** Tokens of a message's view; `message`, the object it views, keeps the count for later passes. */
export function messageTokens(m: MessageView, s: EstimateSettings, message?: unknown): number {
  const b = s.basis;
  // Only an object can key a count (a custom dialect's message may be a string).
  const key = b && message === Object(message) && (message as object);
  const kept = key && counted.get(key);
  if (kept && kept[1] === b!.counter && kept[2] === b!.key && same(kept[0], m)) return kept[3];
  let t = MESSAGE_OVERHEAD + (m.text ? s.countText(m.text) : 0);
  t += (m.images + m.attachments) * s.imageTokens + Math.ceil(m.otherChars / 4);
  for (const call of m.toolCalls) {
    t += TOOL_CALL_OVERHEAD + s.countText(call.name) + s.countText(call.arguments);
  }
  for (const r of m.results) t += (r.text ? s.countText(r.text) : 0) + r.images * s.imageTokens;
  // A short message costs less to count again than to keep (a WeakMap entry costs about what counting 500 characters does).
  if (key && t >= KEPT_TOKENS) counted.set(key, [m, b.counter, b.key, t]);
  return t;
}

/** Tool definitions are sent with every request: they count, though they are never rewritten. */
export function toolDefinitionTokens(tools: unknown[] | undefined, s: EstimateSettings): number {
  if (!tools || tools.length === 0) return 0;
  return s.countText(jsonOf(tools)); // a definition that does not stringify (cyclic, BigInt) counts as nothing
}

/** The bytes of a value's JSON, UTF-8, as a request body carries it. */
const utf8 = /* @__PURE__ */ new TextEncoder();
export const utf8Bytes = (x: unknown) => utf8.encode(JSON.stringify(x) ?? "").length;
