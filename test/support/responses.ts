// OpenAI Responses transcripts for tests: Chat Completions transcripts (generated, or the real fixture
// trajectories) converted to input items, then given what only Responses has: a reasoning item
// opening each model turn, parallel calls as separate items, custom tool calls, server-side tool runs
// and provider compaction items. Plus the checks specific to items (see validity.ts for pairing).
import { fromOpenAI } from "../../src/convert.js";
import type { ChatMessage, CompactResult, ResponsesItem } from "../../src/index.js";

type Item = Record<string, unknown>;

/** What a decoration adds, each chosen by the caller (fast-check or a fixed choice). */
export interface Decoration {
  /** A reasoning item before each model turn (encrypted, with a summary). */
  reasoning: boolean;
  /** Every third function call becomes a custom tool call (free-text input, its own output type). */
  custom: boolean;
  /** Server-side tool runs and item references inside model turns. */
  opaque: boolean;
  /** A provider compaction item after the first user message. */
  compaction: boolean;
}

export const ALL: Decoration = { reasoning: true, custom: true, opaque: true, compaction: true };

const typeOf = (m: Item) => String(m.type ?? "message");
const isTurnStart = (items: Item[], i: number) => {
  const m = items[i];
  const t = typeOf(m);
  const prev = items[i - 1];
  const prevAssistant = prev && (typeOf(prev) === "function_call" || typeOf(prev) === "custom_tool_call" || (typeOf(prev) === "message" && prev.role === "assistant"));
  return (t === "function_call" || (t === "message" && m.role === "assistant")) && !prevAssistant;
};

/** A Chat Completions transcript as Responses input items, decorated. */
export function toResponses(chat: ChatMessage[], d: Decoration = ALL): ResponsesItem[] {
  const items = fromOpenAI(chat, "openai-responses").messages as Item[];
  const out: Item[] = [];
  const customIds = new Set<string>();
  let calls = 0;
  let turn = 0;
  items.forEach((m, i) => {
    if (isTurnStart(items, i)) {
      turn++;
      if (d.reasoning) {
        out.push({ type: "reasoning", id: `rs_${turn}`, summary: [{ type: "summary_text", text: `**Planning step ${turn}**` }], encrypted_content: `gAAAAB${"Zm9vYmFy".repeat(40 + (turn % 7) * 10)}${turn}` });
      }
      if (d.opaque && turn % 4 === 2) out.push({ type: "web_search_call", id: `ws_${turn}`, status: "completed", action: { type: "search", query: `step ${turn}` } });
      if (d.opaque && turn % 9 === 5) out.push({ id: `msg_ref_${turn}` }); // an item reference: { id } alone
    }
    // (only an id used once: some agents reuse call ids)
    if (typeOf(m) === "function_call" && d.custom && calls++ % 3 === 2 && items.filter((x) => x.call_id === m.call_id).length === 2) {
      customIds.add(String(m.call_id));
      out.push({ type: "custom_tool_call", call_id: m.call_id, name: "apply_patch", input: `*** Begin Patch\n${String(m.arguments)}\n*** End Patch` });
      return;
    }
    if (typeOf(m) === "function_call_output" && customIds.has(String(m.call_id))) {
      out.push({ type: "custom_tool_call_output", call_id: m.call_id, output: m.output });
      return;
    }
    out.push(m);
    if (d.compaction && typeOf(m) === "message" && m.role === "user" && !out.some((x) => typeOf(x) === "compaction")) {
      out.push({ type: "compaction", id: "cmp_1", encrypted_content: `gAAAAC${"Y29tcGFjdGVk".repeat(60)}` });
    }
  });
  return out as ResponsesItem[];
}

const EDITABLE = new Set(["message", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output"]);

/**
 * What only items must satisfy: a reasoning item kept is followed by the item it preceded (removed
 * whole with it); opaque items are the very objects of the input, or absent and archived.
 */
export function itemViolations(input: ResponsesItem[], result: CompactResult<ResponsesItem>): string[] {
  const v: string[] = [];
  const ins = input as Item[];
  const out = result.messages as Item[];
  // Calls and outputs by call_id, other items by id; messages by role (their parts may be rewritten).
  const key = (m: Item | undefined) => (m ? `${typeOf(m)}:${String(m.call_id ?? m.id ?? m.role)}` : "end");
  out.forEach((m, k) => {
    const j = ins.indexOf(m);
    if (!EDITABLE.has(typeOf(m)) && j < 0) v.push(`output ${k}: a ${typeOf(m)} item was written or edited`);
    if (typeOf(m) === "reasoning" && j >= 0 && key(out[k + 1]) !== key(ins[j + 1])) {
      v.push(`output ${k}: reasoning ${String(m.id)} no longer precedes ${key(ins[j + 1])} (now ${key(out[k + 1])})`);
    }
  });
  // A kept call whose turn opened with reasoning still has it right before its turn's first item.
  ins.forEach((m, j) => {
    if (typeOf(m) !== "reasoning" || out.includes(m)) return;
    const next = ins[j + 1];
    // A call or output may come back rewritten (pruned, shrunk): found by its call_id; anything else by identity.
    const kept = next && (out.includes(next) || (next.call_id !== undefined && out.some((o) => key(o) === key(next))));
    if (kept && result.report.mode !== "noop") v.push(`input ${j}: reasoning removed while ${key(next)} it preceded was kept`);
  });
  if (result.report.mode === "noop") return v;
  const archived = Object.keys(result.archive ?? {});
  ins.forEach((m, i) => {
    if (EDITABLE.has(typeOf(m)) || out.includes(m)) return;
    if (!archived.some((r) => r === `#${i}` || r.endsWith(`.${i}`))) v.push(`input ${i}: a ${typeOf(m)} item was removed without being archived`);
  });
  return v;
}
