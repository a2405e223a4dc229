// Tool call ↔ result pairing over neutral views.
import type { MessageView, ToolCallView } from "./view.js";

/**
 * For every tool result of every message, the call it answers: the latest earlier call with that id
 * (some agents reuse ids), or undefined for an orphan. Indexed [message][result].
 */
export function callsOfResults(views: MessageView[]): (ToolCallView | undefined)[][] {
  const open = new Map<string, ToolCallView>();
  return views.map((m) => {
    for (const c of m.toolCalls) open.set(c.id, c);
    return m.results.map((r) => open.get(r.id));
  });
}
