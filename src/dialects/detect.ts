// Which built-in format a transcript is written in, by the first part or field only one format has.
import type { DialectName } from "./types.js";

/** The first evidence of a format in the messages; undefined when nothing tells (plain text reads the same in all three). */
export function sniffDialect(messages: readonly unknown[]): DialectName | undefined {
  for (const m of messages as { role?: string; content?: unknown; tool_calls?: unknown }[]) {
    if (m?.tool_calls || m?.role === "developer") return "openai";
    if (Array.isArray(m?.content)) {
      for (const p of m.content as { type?: string }[]) {
        if (p?.type === "tool_use" || p?.type === "tool_result" || p?.type === "thinking") return "anthropic";
        if (p?.type === "tool-call" || p?.type === "tool-result" || p?.type === "reasoning") return "ai-sdk";
        if (p?.type === "image_url") return "openai";
      }
    }
    if (m?.role === "tool") return Array.isArray(m.content) ? "ai-sdk" : "openai";
  }
  return undefined;
}
