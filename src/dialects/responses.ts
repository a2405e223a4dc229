// OpenAI Responses API input items: messages with typed parts, and an item of its own for each call,
// call output, reasoning step, server-side tool run or provider compaction. No alternation rule; a
// model turn spans several items (reasoning, text, calls), which compaction keeps together. Only
// messages, function and custom tool calls and their outputs are ever edited; every other item is
// opaque: kept whole, or removed whole (and archived).
import * as v from "valibot";
import { fields, isString } from "../schema.js";
import { content, message, messages, part, quoted, standard, validateWith, type MessageSchema, type PartRule } from "./validate.js";
import { addText, emptyView, jsonOf, type BuiltInDialect, type MessageView, type ToolCallView } from "./view.js";

type ResponsesPart = { type: "input_text" | "output_text"; text: string } | { type: "refusal"; refusal: string } | { type: "input_image" | "input_file" | "input_audio" };
/** The fields compaction reads of an item other than a message: its type says what it is. */
interface TypedItem {
  type: string;
  role?: string; // output items may carry one (additional_tools)
  id?: unknown;
  content?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
  input?: unknown;
  output?: unknown;
  summary?: unknown;
  encrypted_content?: unknown;
}

/**
 * One Responses API input item, structurally, so that the `openai` SDK's `ResponseInputItem` (and
 * `ResponseOutputItem`) are accepted as they are and come back out as the SDK types them: a message
 * (its type may be left out), an item of another type, or an item reference. Every field is preserved.
 * A Chat Completions message (no type, role "tool", or parts of other formats) is a type error.
 */
export type ResponsesItem =
  | { type?: "message" | null; role: "user" | "assistant" | "system" | "developer"; content: string | readonly ResponsesPart[]; id?: unknown }
  | TypedItem
  | { id: string; type?: "item_reference" | null };

type Item = Record<string, unknown>;
type Part = { type: string; [k: string]: unknown };

const ROLES = ["user", "assistant", "system", "developer"];

const PARTS: PartRule[] = [
  ["input_text", (p) => isString(p.text), 'an "input_text" part needs a string "text"'],
  ["output_text", (p) => isString(p.text), 'an "output_text" part needs a string "text"'],
  ["refusal", (p) => isString(p.refusal), 'a "refusal" part needs a string "refusal"'],
];

/** Calls the client answers: the output item type that answers each (a stub, when one is missing). */
const CALLS: Record<string, string> = {
  function_call: "function_call_output",
  custom_tool_call: "custom_tool_call_output",
  local_shell_call: "function_call_output", // as Codex answers it
  shell_call: "shell_call_output",
  apply_patch_call: "apply_patch_call_output",
  computer_call: "computer_call_output",
  mcp_approval_request: "mcp_approval_response",
};
const OUTPUTS = new Set([...Object.values(CALLS), "local_shell_call_output"]);
/** The calls and outputs compaction may edit (shrink arguments, prune outputs); the others are opaque. */
const EDITABLE: Record<string, string> = { function_call: "arguments", custom_tool_call: "input" };
const EDITABLE_OUTPUTS = new Set(["function_call_output", "custom_tool_call_output"]);

/** What compaction writes with this dialect besides the items it edits: the handoff, stub outputs (each as the SDK types it). */
export type ResponsesWritten =
  | { type: "message"; role: "user" | "assistant"; content: string }
  | { type: "function_call_output" | "custom_tool_call_output"; call_id: string; output: string }
  | { type: "shell_call_output"; call_id: string; output: { stdout: string; stderr: string; outcome: { type: "exit"; exit_code: number } }[] }
  | { type: "apply_patch_call_output"; call_id: string; status: "failed"; output: string }
  | { type: "computer_call_output"; call_id: string; output: { type: "computer_screenshot" } }
  | { type: "mcp_approval_response"; approval_request_id: string; approve: false; reason: string };

const CONTENT = content(part(PARTS, "a content part"), "content must be a string or an array of parts");
const OUTPUT = content(part(PARTS, "an output part"), "output must be a string or an array of parts");
const ROLE = v.picklist(ROLES, (issue) => (issue.input === undefined ? "a message item needs a role" : `unknown role ${quoted(issue.input)} (expected ${ROLES.join(", ")})`));

/** A call or output compaction edits: the string fields it reads. */
const edited = (type: string, strings: string[], rest: Record<string, v.GenericSchema> = {}) =>
  fields({ ...rest, ...Object.fromEntries(strings.map((f) => [f, v.string(`a ${type} item needs a string "${f}"`)])) });
const EDITED: Record<string, MessageSchema> = {
  function_call: edited("function_call", ["call_id", "name", "arguments"]),
  custom_tool_call: edited("custom_tool_call", ["call_id", "name", "input"]),
  function_call_output: edited("function_call_output", ["call_id"], { output: OUTPUT }),
  custom_tool_call_output: edited("custom_tool_call_output", ["call_id"], { output: OUTPUT }),
};
const MESSAGE_ITEM = fields({ role: ROLE, content: CONTENT });
const TYPE = fields({ type: v.string("an item's type must be a string") });
const OPAQUE = v.unknown(); // reasoning and every type compaction never edits: passed through whole, never read beyond its size and summary

/** Items by type: messages (their type may be left out), item references ({ id } alone), the calls and outputs compaction edits. */
const ITEM = message((m) => {
  const { type } = m;
  if (type === undefined || type === null || type === "message") return m.role === undefined && isString(m.id) && type == null ? OPAQUE : MESSAGE_ITEM;
  return !isString(type) ? TYPE : Object.hasOwn(EDITED, type) ? EDITED[type] : OPAQUE;
});

/** The rules of a Responses API input. */
const RULES = messages(ITEM);

const IMAGE = new Set(["input_image", "image_url", "image"]);
const ATTACHMENT = new Set(["input_file", "input_audio", "file"]);

function partsView(v: MessageView, content: unknown): void {
  if (isString(content)) return addText(v, content);
  for (const p of (Array.isArray(content) ? content : []) as Part[]) {
    if (isString(p.text) && (p.type === "input_text" || p.type === "output_text" || p.type === "text")) addText(v, p.text);
    else if (p.type === "refusal") addText(v, String(p.refusal));
    else if (IMAGE.has(p.type)) v.images++;
    else if (ATTACHMENT.has(p.type)) v.attachments++;
    else v.otherChars += jsonOf(p).length;
  }
}

/** The id an output item answers: its call_id (an MCP approval its request's id; a local shell output may carry only id). */
const answered = (m: Item) => m.call_id ?? m.approval_request_id ?? m.id;
/** The id a call is answered by: its call_id (an MCP approval request's own id; an older local shell call may have only id). */
const callId = (m: Item) => (m.type === "mcp_approval_request" ? m.id : (m.call_id ?? m.id));

function view(item: ResponsesItem): MessageView {
  const m = item as Item;
  const type = (m.type ?? "message") as string;
  // An item reference ({ id } alone) is no message: it stands for an earlier output item, opaque, of the model's turn.
  if (isMessage(m)) {
    const v = emptyView(m.role === "user" || m.role === "assistant" ? m.role : "system");
    partsView(v, m.content);
    return v;
  }
  const id = OUTPUTS.has(type) ? answered(m) : Object.hasOwn(CALLS, type) ? callId(m) : undefined;
  // An output or call without an id to pair by is opaque: kept or removed whole like any other.
  if (OUTPUTS.has(type) && isString(id)) {
    const v = emptyView("tool");
    if (EDITABLE_OUTPUTS.has(type)) {
      const o = emptyView("tool");
      partsView(o, m.output);
      v.results.push({ id, text: o.text, images: o.images + o.attachments });
      v.otherChars = o.otherChars;
    } else {
      // Opaque: a result with no text is never pruned; its size still counts.
      v.results.push({ id, text: "", images: 0 });
      opaque(v, m);
    }
    return v;
  }
  const v = emptyView("assistant");
  if (Object.hasOwn(CALLS, type) && isString(id)) {
    const field = EDITABLE[type];
    const call: ToolCallView & { answer: string } = {
      id,
      name: String(m.name ?? type),
      arguments: field ? String(m[field]) : "", // an opaque call's arguments are never shrunk
      answer: CALLS[type],
    };
    v.toolCalls.push(call);
    if (!field) opaque(v, m);
  } else if (type === "reasoning") {
    for (const s of (Array.isArray(m.summary) ? m.summary : []) as Part[]) if (isString(s?.text)) addText(v, s.text);
    v.otherChars = isString(m.encrypted_content) ? m.encrypted_content.length : jsonOf(m.content ?? "").length;
  } else if (type === "compaction") {
    // The provider's own checkpoint of earlier turns: read as an earlier handoff (state, not a turn).
    v.role = "user";
    v.text = `[CONTEXT COMPACTION — the provider's encrypted checkpoint of earlier turns]`;
    v.otherChars = String(m.encrypted_content ?? "").length;
  } else opaque(v, m); // server-side tool runs, item references, types not known yet
  return v;
}

/** Items whose payload is an image (base64): counted as one, never as text. */
const PICTURES: Record<string, string> = { image_generation_call: "result", computer_call_output: "output" };

/**
 * An item compaction never edits, as text: what the summarizer may read and the archive keeps when
 * it is removed, and what it costs. An image payload is counted as an image instead.
 */
function opaque(v: MessageView, m: Item): void {
  const picture = PICTURES[m.type as string];
  if (picture) v.images = 1;
  v.text = `[${String(m.type ?? "item_reference")}] ${jsonOf({ ...m, type: undefined, ...(picture ? { [picture]: undefined } : {}) })}`;
}

/** A message's content as parts (a string becomes one text part of the role's kind). */
function parts(m: Item): Part[] {
  const c = m.content;
  return isString(c) ? [textPart(m, c)] : Array.isArray(c) ? (c as Part[]) : [];
}
const textPart = (m: Item, text: string): Part => ({ type: m.role === "assistant" ? "output_text" : "input_text", text });

const isMessage = (m: Item) => (m.type ?? "message") === "message" && m.role !== undefined;

function withoutImages(item: ResponsesItem, stub: string): ResponsesItem {
  const m = item as Item;
  // An assistant message takes output_text parts, everything else input_text.
  const swap = (ps: Part[]) => ps.map((p) => (IMAGE.has(p.type) || ATTACHMENT.has(p.type) ? textPart(m, stub.replace("{kind}", p.type)) : p));
  if (isMessage(m) && Array.isArray(m.content)) return { ...m, content: swap(m.content as Part[]) } as ResponsesItem;
  if (EDITABLE_OUTPUTS.has(m.type as string) && Array.isArray(m.output)) return { ...m, output: swap(m.output as Part[]) } as ResponsesItem;
  return item;
}

/** The stub output answering an unanswered call, in the output type its call takes. */
function stubOutput(c: ToolCallView, text: string): ResponsesItem {
  const type = (c as { answer?: string }).answer ?? "function_call_output";
  if (type === "mcp_approval_response") return { type, approval_request_id: c.id, approve: false, reason: text } as ResponsesItem;
  if (type === "apply_patch_call_output") return { type, call_id: c.id, status: "failed", output: text } as ResponsesItem;
  // Each in the shape the SDK types it: a shell's output is a list of runs, a computer's a screenshot (none to give).
  if (type === "shell_call_output") return { type, call_id: c.id, output: [{ stdout: "", stderr: text, outcome: { type: "exit", exit_code: 1 } }] } as ResponsesItem;
  if (type === "computer_call_output") return { type, call_id: c.id, output: { type: "computer_screenshot" } } as ResponsesItem;
  return { type, call_id: c.id, output: text } as ResponsesItem;
}

/**
 * OpenAI Responses API input items (`input` of `client.responses.create`). The system prompt may come
 * as `instructions` beside the items: put it first as a system message to have it counted and noted.
 */
export const openAIResponses: BuiltInDialect<ResponsesItem, ResponsesWritten> = {
  name: "openai-responses",
  schema: standard<ResponsesItem>(RULES),
  validate: (input) => validateWith(RULES, input),
  view,
  itemized: true,
  // No alternation rule: no item takes part in one, so the handoff is always a user message of its
  // own (never merged into an item, which may be a call or a reasoning step).
  wireRole: () => "system",
  withResults: (m, outputs) => (outputs.has(0) && EDITABLE_OUTPUTS.has((m as Item).type as string) ? ({ ...m, output: outputs.get(0)! } as ResponsesItem) : m),
  withArguments: (m, args) => {
    const field = EDITABLE[(m as Item).type as string];
    return field && args.has(0) ? ({ ...m, [field]: args.get(0)! } as ResponsesItem) : m;
  },
  withoutImages,
  withoutResults: () => undefined, // an output item is its result
  answer: (calls, text) => ({ insert: calls.map((c) => stubOutput(c, text)) }),
  handoff: (role, text) => ({ type: "message", role, content: text }) as ResponsesItem,
  prepend: (item, text) => {
    const m = item as Item;
    if (!isMessage(m)) throw new Error(`context-compactor: a handoff cannot be merged into a ${String(m.type)} item`); // wireRole keeps seams off "merge"
    return { ...m, content: isString(m.content) ? `${text}\n\n${m.content}` : [textPart(m, text), ...parts(m)] } as ResponsesItem;
  },
  appendNote: (item, note) => {
    const m = item as Item;
    if (!isMessage(m)) return item; // a leading item of its own kind (additional_tools) holds no prompt
    return { ...m, content: isString(m.content) ? (m.content ? `${m.content}\n\n${note}` : note) : [...parts(m), textPart(m, note)] } as ResponsesItem;
  },
};

