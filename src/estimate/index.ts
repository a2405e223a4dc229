// Token estimation: one pass over the text, CJK-aware, images at a fixed price.
import type { MessageView } from "../dialects/view.js";

export const DEFAULT_IMAGE_TOKENS = 1600;
/** Role, separators and framing a provider adds around every message. */
export const MESSAGE_OVERHEAD = 4;
/** Framing around each tool call (id, type, function wrapper). */
export const TOOL_CALL_OVERHEAD = 8;

export type TextCounter = (text: string) => number;

/**
 * About four characters a token for Latin text and code; one token per CJK, kana or hangul code
 * point; one per astral code point (emoji, rare CJK). One pass, no allocation.
 */
export function heuristicTokens(text: string): number {
  let dense = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
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
  return t;
}

/** Tool definitions are sent with every request: they count, though they are never rewritten. */
export function toolDefinitionTokens(tools: unknown[] | undefined, s: EstimateSettings): number {
  if (!tools || tools.length === 0) return 0;
  return s.countText(JSON.stringify(tools));
}
