// OpenAI Chat Completions: the default dialect.
import * as v from "valibot";
import type { ChatMessage, ContentPart, ToolCall } from "./types.js";
import { fields, isObject, isString } from "../schema.js";
import { content, message, messages, part, quoted, standard, validateWith } from "./validate.js";
import { jsonOf, type BuiltInDialect, type Dialect, type MessageView, type ToolCallView } from "./view.js";

type TextPart = { type: "text"; text: string };
/**
 * An OpenAI Chat Completions message as the `openai` SDK types it (`ChatCompletionMessageParam`),
 * structurally: what `compact` takes and gives back with the default dialect. Parts are named by
 * their types, so other formats' messages (Anthropic blocks, AI SDK parts) are a type error.
 */
export type OpenAIChatMessage =
  | { role: "system" | "developer"; content: string | readonly TextPart[]; name?: string }
  | { role: "user"; content: string | readonly (TextPart | { type: "image_url" | "input_audio" | "file" })[]; name?: string }
  | {
      role: "assistant";
      content?: string | readonly (TextPart | { type: "refusal"; refusal: string })[] | null;
      tool_calls?: readonly ({ id: string; type?: "function"; function: { name: string; arguments: string } } | { id: string; type: "custom"; custom: { name: string; input: string } })[];
      name?: string;
    }
  | { role: "tool"; tool_call_id: string; content: string | readonly TextPart[] }
  // The SDK's deprecated function message: in the type so that the SDK's union is accepted; refused at run time, with the reason.
  | { role: "function"; name: string; content: string | null };

/** What the default dialect reads: messages as the `openai` SDK types them, or as `ChatMessage`. */
export type OpenAIChatInput = OpenAIChatMessage | ChatMessage;

/** What compaction writes with this dialect besides the messages it edits: the handoff, stub results. */
export type OpenAIChatWritten = { role: "user"; content: string } | { role: "assistant"; content: string } | { role: "tool"; tool_call_id: string; content: string };

const ROLES = ["system", "developer", "user", "assistant", "tool"] as const;

const CONTENT = content(part([["text", (p) => isString(p.text), 'a "text" part needs a string "text"']], "a content part"), "content must be a string, null or an array of parts", true);

const CUSTOM_CALL = fields({
  id: v.string("a tool call needs a string id"),
  custom: fields({ name: v.string("a custom tool call needs a string custom.name"), input: v.string("a custom tool call needs a string custom.input") }, "a custom tool call needs a custom object"),
});
const FUNCTION_CALL = fields({
  id: v.string("a tool call needs a string id"),
  function: fields({ name: v.string("a tool call needs a string function.name"), arguments: v.string("tool call arguments must be a string") }, "a tool call needs a function object"),
});
const NOT_A_CALL = v.custom(() => false, "a tool call must be an object");
const CALL = v.lazy((c) => (!isObject(c) ? NOT_A_CALL : c.type === "custom" ? CUSTOM_CALL : FUNCTION_CALL));

const NEEDS_ROLE = fields({
  role: v.custom(() => false, (issue) =>
    issue.input === undefined
      ? "a message needs a role"
      : issue.input === "function"
        ? 'the deprecated "function" role is not supported: send tool results as role "tool" with a tool_call_id'
        : `unknown role ${quoted(issue.input)} (expected ${ROLES.join(", ")})`,
  ),
});
const ASSISTANT = fields({ content: CONTENT, tool_calls: v.optional(v.array(CALL, "tool_calls must be an array")) });
const TOOL = fields({ content: CONTENT, tool_call_id: v.string("a tool message needs a string tool_call_id") });
const OTHER = fields({ content: CONTENT });
const MESSAGE = message(({ role }) =>
  role === "assistant" ? ASSISTANT : role === "tool" ? TOOL : role === "system" || role === "developer" || role === "user" ? OTHER : NEEDS_ROLE,
);

/** The rules of an OpenAI Chat Completions transcript. */
const RULES = messages(MESSAGE);

const IMAGE_PARTS = new Set(["image_url", "image", "input_image"]);
const ATTACHMENT_PARTS = new Set(["input_audio", "file", "input_file", "audio"]);

function parts(content: ChatMessage["content"]) {
  let text = "";
  let images = 0;
  let attachments = 0;
  let otherChars = 0;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === "text") text += (text ? "\n" : "") + (part as { text: string }).text;
      else if (IMAGE_PARTS.has(part.type)) images++;
      else if (ATTACHMENT_PARTS.has(part.type)) attachments++;
      else otherChars += jsonOf(part).length;
    }
  }
  return { text, images, attachments, otherChars };
}

/** Fields OpenAI-compatible servers put a model's reasoning in (DeepSeek, vLLM, OpenRouter). */
const REASONING = ["reasoning_content", "reasoning", "reasoning_details"];
const reasoningOf = (m: ChatMessage) => REASONING.filter((k) => m[k] != null && m[k] !== "");

function view(m: ChatMessage): MessageView {
  const p = parts(m.content);
  for (const k of reasoningOf(m)) p.otherChars += jsonOf(m[k]).length;
  // only an assistant's calls are checked and sent as calls: another role's `tool_calls` is a field like any other
  const toolCalls: ToolCallView[] = m.role === "assistant" ? (m.tool_calls ?? []).map(callView) : [];
  if (m.role === "tool") {
    const result = { id: m.tool_call_id!, text: p.text, images: p.images + p.attachments };
    return { role: "tool", text: "", images: 0, attachments: 0, otherChars: p.otherChars, toolCalls, results: [result] };
  }
  return { role: m.role === "developer" ? "system" : m.role, ...p, toolCalls, results: [] };
}

/** A custom tool call (`type: "custom"`) carries free text as `custom.input` instead of `function.arguments`. */
type CustomCall = { id: string; custom: { name: string; input: string } };
const custom = (c: ToolCall) => (c.type === "custom" ? (c as unknown as CustomCall).custom : undefined);
const callView = (c: ToolCall): ToolCallView => {
  const own = custom(c);
  return own ? { id: c.id, name: own.name, arguments: own.input } : { id: c.id, name: c.function.name, arguments: c.function.arguments };
};

function withArguments(m: ChatMessage, args: Map<number, string>): ChatMessage {
  const calls = (m.tool_calls ?? []).map((c, i) => {
    const own = custom(c);
    if (!args.has(i)) return c;
    return own ? { ...c, custom: { ...own, input: args.get(i)! } } : { ...c, function: { ...c.function, arguments: args.get(i)! } };
  });
  return { ...m, tool_calls: calls };
}

function withoutImages(m: ChatMessage, stub: string): ChatMessage {
  if (!Array.isArray(m.content)) return m;
  const content: ContentPart[] = m.content.map((p) =>
    IMAGE_PARTS.has(p.type) || ATTACHMENT_PARTS.has(p.type) ? { type: "text", text: stub.replace("{kind}", p.type) } : p,
  );
  return { ...m, content };
}

function prepend(m: ChatMessage, text: string): ChatMessage {
  const c = m.content;
  if (Array.isArray(c)) return { ...m, content: [{ type: "text", text }, ...c] };
  return { ...m, content: c ? `${text}\n\n${c}` : text };
}

function appendNote(m: ChatMessage, note: string): ChatMessage {
  const c = m.content;
  if (Array.isArray(c)) return { ...m, content: [...c, { type: "text", text: note }] };
  return { ...m, content: c ? `${c}\n\n${note}` : note };
}

const schema = /* @__PURE__ */ standard<ChatMessage>(RULES);
const validate = (input: unknown) => validateWith<ChatMessage>(RULES, input);

/**
 * The reading half of the default dialect: all `plan` and `estimateTokens` use of it, so that
 * `import { plan }` does not carry the writing half (what a pass changes in a message).
 */
export const openAIReader: Pick<Dialect<ChatMessage>, "name" | "validate" | "view"> = { name: "openai", validate, view };

const dialect: Dialect<ChatMessage> = {
  name: "openai",
  schema,
  validate,
  view,
  withResults: (m, outputs) => (outputs.has(0) ? { ...m, content: outputs.get(0)! } : m),
  withArguments,
  withoutImages,
  withoutReasoning: (m) => {
    const fields = reasoningOf(m);
    if (!fields.length) return undefined;
    const message = { ...m };
    for (const k of fields) delete message[k];
    return { message, reasoning: fields.map((k) => (typeof m[k] === "string" ? m[k] : jsonOf(m[k]))) };
  },
  withoutResults: () => undefined, // a tool message is its result
  answer: (calls, text) => ({ insert: calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: text })) }),
  handoff: (role, text) => ({ role, content: text }),
  prepend,
  appendNote,
};

/**
 * OpenAI Chat Completions messages: the default dialect. It reads the `openai` SDK's
 * `ChatCompletionMessageParam` (or `ChatMessage`) and writes only what that type allows.
 */
export const openAIChat = dialect as BuiltInDialect<OpenAIChatInput, OpenAIChatWritten>;
