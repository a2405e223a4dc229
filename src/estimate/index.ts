// Token estimation: one pass over the text, CJK-aware, images at a fixed price.
import type { MessageView } from "../dialects/view.js";

export const DEFAULT_IMAGE_TOKENS = 1600;
/** Role, separators and framing a provider adds around every message. */
export const MESSAGE_OVERHEAD = 4;
/** Framing around each tool call (id, type, function wrapper). */
export const TOOL_CALL_OVERHEAD = 8;

export type TextCounter = (text: string) => number;

/** Code points charged a token each: CJK, kana, hangul, fullwidth forms, and astral (surrogate) ones. */
const DENSE = /[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\udbff\uf900-\ufaff\uff00-\uffef]/;

/**
 * About four characters a token for Latin text and code; one token per CJK, kana or hangul code
 * point; one per astral code point (emoji, rare CJK). A native regex scan finds the first dense
 * character, so text without any is counted without a per-character loop.
 */
export function heuristicTokens(text: string): number {
  const first = text.search(DENSE);
  if (first < 0) return Math.ceil(text.length / 4);
  let dense = 0;
  let other = first;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x1100) other++;
    else if (
      c <= 0x11ff ||
      (c >= 0x2e80 && c <= 0x9fff) ||
      (c >= 0xa960 && c <= 0xa97f) ||
      (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xff00 && c <= 0xffef)
    ) dense++;
    else if (c >= 0xd800 && c <= 0xdbff) {
      dense++;
      i++; // the low surrogate belongs to the same code point
    } else other++;
  }
  return dense + Math.ceil(other / 4);
}

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
  return s.countText(JSON.stringify(tools));
}
