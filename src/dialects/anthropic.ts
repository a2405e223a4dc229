// Anthropic Messages: system beside the messages, content blocks, tool results inside user messages,
// strict user/assistant alternation. Claude Code also puts `role: "system"` messages inside `messages`
// (environment, deferred tools): valid, viewed as system, and outside the alternation.
import * as v from "valibot";
import { addText, emptyView, jsonOf, type BuiltInDialect, type Dialect, type MessageView, type ToolResultView } from "./view.js";
import { fields, isString } from "../schema.js";
import { content, message, messages, part, standard, validateWith } from "./validate.js";

export type AnthropicBlock = { type: string; [k: string]: unknown };
export interface AnthropicMessage {
  role: "user" | "assistant" | "system";
  content: string | AnthropicBlock[];
  [k: string]: unknown;
}

/**
 * An Anthropic message as `@anthropic-ai/sdk` types it (`MessageParam`), structurally, and Claude
 * Code's `role: "system"` messages: what `compact` takes and gives back with `anthropicMessages`.
 */
export interface AnthropicMessageParam {
  role: "user" | "assistant" | "system";
  content: string | readonly { type: string }[];
}

/** What compaction writes with this dialect besides the messages it edits: the handoff, stub results. */
export type AnthropicWritten =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string }
  | { role: "user"; content: { type: "tool_result"; tool_use_id: string; content: string; is_error: boolean }[] };

const BLOCK = part(
  [
    ["text", (b) => isString(b.text), 'a "text" block needs a string "text"'],
    ["tool_use", (b) => isString(b.id) && isString(b.name), 'a "tool_use" block needs a string "id" and "name"'],
    ["tool_result", (b) => isString(b.tool_use_id), 'a "tool_result" block needs a string "tool_use_id"'],
  ],
  "a content block",
);

const FIELDS = fields({
  role: v.picklist(["user", "assistant", "system"], 'role must be "user", "assistant" or "system"'),
  content: content(BLOCK, "content must be a string or an array of content blocks"),
});
const MESSAGE = message(() => FIELDS);

/** The rules of an Anthropic Messages transcript. */
const RULES = messages(MESSAGE);

const IMAGE = new Set(["image"]);
/** How a compaction block reads: one of the openings findHandoff knows as another agent's handoff. */
const COMPACTION_OPENING = "[CONTEXT COMPACTION by the provider]";
const ATTACHMENT = new Set(["document", "file", "container_upload"]);

function blocks(content: AnthropicMessage["content"]): AnthropicBlock[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

/** Text and images inside a tool_result's content (a string or text/image blocks). */
function resultView(b: AnthropicBlock): ToolResultView {
  const c = b.content as unknown;
  if (typeof c === "string") return { id: String(b.tool_use_id), text: c, images: 0 };
  let text = "";
  let images = 0;
  for (const x of Array.isArray(c) ? (c as AnthropicBlock[]) : []) {
    if (x.type === "text") text += (text ? "\n" : "") + String(x.text);
    else if (IMAGE.has(x.type) || ATTACHMENT.has(x.type)) images++;
  }
  return { id: String(b.tool_use_id), text, images };
}

function view(m: AnthropicMessage): MessageView {
  const v = emptyView(m.role);
  for (const b of blocks(m.content)) {
    if (b.type === "text") addText(v, String(b.text));
    else if (b.type === "tool_use") v.toolCalls.push({ id: String(b.id), name: String(b.name), arguments: jsonOf(b.input ?? {}) });
    else if (b.type === "tool_result") v.results.push(resultView(b));
    else if (IMAGE.has(b.type)) v.images++;
    else if (ATTACHMENT.has(b.type)) v.attachments++;
    // The provider's own compaction (context management): an earlier handoff, read as one, never edited.
    else if (b.type === "compaction") addText(v, `${COMPACTION_OPENING}\n${typeof b.content === "string" ? b.content : jsonOf(b.content ?? "")}`);
    // thinking, redacted_thinking, server tools and their results: kept as they are, counted by size
    else v.otherChars += jsonOf(b).length;
  }
  // A user message of tool results and nothing else is a tool-result carrier.
  if (v.results.length && !v.text && !v.images && !v.attachments) v.role = "tool";
  return v;
}

function mapBlocks(m: AnthropicMessage, f: (b: AnthropicBlock, i: number) => AnthropicBlock | undefined): AnthropicMessage {
  const out: AnthropicBlock[] = [];
  blocks(m.content).forEach((b, i) => {
    const x = f(b, i);
    if (x) out.push(x);
  });
  return { ...m, content: out };
}

function withResults(m: AnthropicMessage, outputs: Map<number, string>): AnthropicMessage {
  let k = -1;
  return mapBlocks(m, (b) => {
    if (b.type !== "tool_result") return b;
    k++;
    return outputs.has(k) ? { ...b, content: outputs.get(k)! } : b;
  });
}

function withArguments(m: AnthropicMessage, args: Map<number, string>): AnthropicMessage {
  let k = -1;
  return mapBlocks(m, (b) => {
    if (b.type !== "tool_use") return b;
    k++;
    return args.has(k) ? { ...b, input: JSON.parse(args.get(k)!) } : b;
  });
}

const THINKING = new Set(["thinking", "redacted_thinking"]);

const dialect: Dialect<AnthropicMessage> = {
  name: "anthropic",
  schema: standard<AnthropicMessage>(RULES),
  validate: (input) => validateWith(RULES, input),
  view,
  // A message of tool results is a user message on the wire: it takes part in the alternation.
  keepsEmptied: true,
  wireRole: (r) => (r === "tool" ? "user" : r),
  withResults,
  withArguments,
  withoutImages: (m, stub) =>
    mapBlocks(m, (b) => (IMAGE.has(b.type) || ATTACHMENT.has(b.type) ? { type: "text", text: stub.replace("{kind}", b.type) } : b)),
  // Thinking of turns before the latest request (never the current tool loop's: see src/prune/reasoning.ts).
  withoutReasoning: (m) => {
    const bs = blocks(m.content);
    const thinking = bs.filter((b) => THINKING.has(b.type));
    if (!thinking.length) return undefined;
    const rest = bs.filter((b) => !THINKING.has(b.type));
    return {
      message: { ...m, content: rest.length ? rest : [{ type: "text", text: "[reasoning pruned]" }] },
      reasoning: thinking.map((b) => (b.type === "thinking" ? String(b.thinking) : "[redacted thinking]")),
    };
  },
  // Strict alternation: a message left empty keeps its place with a note instead of disappearing.
  withoutResults: (m, ids) => {
    const kept = mapBlocks(m, (b) => (b.type === "tool_result" && ids.has(String(b.tool_use_id)) ? undefined : b));
    return (kept.content as AnthropicBlock[]).length ? kept : { ...m, content: [{ type: "text", text: "[tool results removed: their calls are gone]" }] };
  },
  // Every result of a group belongs in the one user message after it, its results before any text.
  answer: (calls, text, { last, next }) => {
    const stubs = calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: text, is_error: true }));
    if (last) {
      const b = blocks(last.content);
      const at = b.findIndex((x) => x.type !== "tool_result");
      return { last: { ...last, content: at < 0 ? [...b, ...stubs] : [...b.slice(0, at), ...stubs, ...b.slice(at)] } };
    }
    if (next?.role === "user") return { next: { ...next, content: [...stubs, ...blocks(next.content)] } };
    return { insert: [{ role: "user", content: stubs }] };
  },
  handoff: (role, text) => ({ role, content: text }),
  // Thinking blocks must open an assistant message: the handoff goes after them.
  prepend: (m, text) => {
    const bs = blocks(m.content);
    let at = 0;
    while (at < bs.length && THINKING.has(bs[at].type)) at++;
    return { ...m, content: [...bs.slice(0, at), { type: "text", text }, ...bs.slice(at)] };
  },
  appendNote: (m) => m, // the system prompt lives in options.system
  appendSystemNote: (system, note) => appendSystemNote(system, note),
};

/**
 * Anthropic Messages: the system prompt goes in `options.system`, and the result carries it back with
 * the note. It reads the SDK's `MessageParam` (or `AnthropicMessage`) and writes only what that type allows.
 */
export const anthropicMessages = dialect as BuiltInDialect<AnthropicMessageParam | AnthropicMessage, AnthropicWritten>;

/** The separate system prompt with the note appended, in the form it came in. */
export function appendSystemNote(system: unknown, note: string): string | AnthropicBlock[] {
  if (Array.isArray(system)) return [...(system as AnthropicBlock[]), { type: "text", text: note }];
  return typeof system === "string" && system ? `${system}\n\n${note}` : note;
}
