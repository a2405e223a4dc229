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
   * What `countText` counts with besides the text: the counter it wraps (the caller's, or the
   * heuristic) and the calibration ratio it scales by. A message's count is kept under it (see
   * messageTokens); without it nothing is kept.
   */
  basis?: { counter: TextCounter; ratio: number };
}

/** A message's count, the view it was made from and what it was counted with. */
interface Counted {
  view: MessageView;
  counter: TextCounter;
  ratio: number;
  imageTokens: number;
  tokens: number;
}

/**
 * Counts by message object: a later pass given the same object (head and tail are, between passes)
 * reads its count here instead of scanning it again. Kept per object, never across sessions: a
 * message object belongs to one transcript, and its entry goes with it.
 */
const counted = new WeakMap<object, Counted>();

/** Whether two views read the same: a message changed in place since it was counted is counted again. */
function sameView(a: MessageView, b: MessageView): boolean {
  if (a.role !== b.role || a.text !== b.text || a.images !== b.images || a.attachments !== b.attachments || a.otherChars !== b.otherChars) return false;
  if (a.toolCalls.length !== b.toolCalls.length || a.results.length !== b.results.length) return false;
  for (let i = 0; i < a.toolCalls.length; i++) if (a.toolCalls[i].name !== b.toolCalls[i].name || a.toolCalls[i].arguments !== b.toolCalls[i].arguments) return false;
  for (let i = 0; i < a.results.length; i++) if (a.results[i].text !== b.results[i].text || a.results[i].images !== b.results[i].images) return false;
  return true;
}

/** Tokens of a message's view; `message`, the object it views, keeps the count for later passes. */
export function messageTokens(m: MessageView, s: EstimateSettings, message?: unknown): number {
  const basis = s.basis;
  const kept = basis && message !== null && typeof message === "object" ? counted.get(message) : undefined;
  if (kept && kept.counter === basis!.counter && kept.ratio === basis!.ratio && kept.imageTokens === s.imageTokens && sameView(kept.view, m)) return kept.tokens;
  let t = MESSAGE_OVERHEAD + (m.text ? s.countText(m.text) : 0);
  t += (m.images + m.attachments) * s.imageTokens;
  if (m.otherChars) t += Math.ceil(m.otherChars / 4);
  for (const call of m.toolCalls) {
    t += TOOL_CALL_OVERHEAD + s.countText(call.name) + s.countText(call.arguments);
  }
  for (const r of m.results) t += (r.text ? s.countText(r.text) : 0) + r.images * s.imageTokens;
  if (basis && message !== null && typeof message === "object") counted.set(message, { view: m, counter: basis.counter, ratio: basis.ratio, imageTokens: s.imageTokens, tokens: t });
  return t;
}

/** Tool definitions are sent with every request: they count, though they are never rewritten. */
export function toolDefinitionTokens(tools: unknown[] | undefined, s: EstimateSettings): number {
  if (!tools || tools.length === 0) return 0;
  return s.countText(jsonOf(tools)); // a definition that does not stringify (cyclic, BigInt) counts as nothing
}
