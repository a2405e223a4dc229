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
}

export function messageTokens(m: MessageView, s: EstimateSettings): number {
  let t = MESSAGE_OVERHEAD + (m.text ? s.countText(m.text) : 0);
  t += (m.images + m.attachments) * s.imageTokens;
  if (m.otherChars) t += Math.ceil(m.otherChars / 4);
  for (const call of m.toolCalls) {
    t += TOOL_CALL_OVERHEAD + s.countText(call.name) + s.countText(call.arguments);
  }
  for (const r of m.results) t += (r.text ? s.countText(r.text) : 0) + r.images * s.imageTokens;
  return t;
}

/** Tool definitions are sent with every request: they count, though they are never rewritten. */
export function toolDefinitionTokens(tools: unknown[] | undefined, s: EstimateSettings): number {
  if (!tools || tools.length === 0) return 0;
  return s.countText(jsonOf(tools)); // a definition that does not stringify (cyclic, BigInt) counts as nothing
}

/** The bytes of a value's JSON, UTF-8, as a request body carries it. */
export const utf8Bytes = (x: unknown) => new TextEncoder().encode(JSON.stringify(x) ?? "").length;
