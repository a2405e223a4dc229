// OpenAI Chat Completions: the default dialect.
import type { ChatMessage, ContentPart } from "./types.js";
import { contentIssues, isObject, isString, quoted, validateEach, type PartRule } from "./validate.js";
import { jsonOf, type Dialect, type MessageView, type ToolCallView } from "./view.js";

const ROLES = ["system", "developer", "user", "assistant", "tool"] as const;

const PARTS: PartRule[] = [["text", (p) => isString(p.text), 'a "text" part needs a string "text"']];

function callIssues(c: unknown, at: string): string[] {
  if (!isObject(c)) return [`${at}: a tool call must be an object`];
  const out = isString(c.id) ? [] : [`${at}.id: a tool call needs a string id`];
  const f = c.function;
  if (!isObject(f)) return [...out, `${at}.function: a tool call needs a function object`];
  if (!isString(f.name)) out.push(`${at}.function.name: a tool call needs a string function.name`);
  if (!isString(f.arguments)) out.push(`${at}.function.arguments: tool call arguments must be a string`);
  return out;
}

function check(m: Record<string, unknown>): string[] {
  const { role } = m;
  if (role === undefined) return ["role: a message needs a role"];
  if (!(ROLES as readonly unknown[]).includes(role)) return [`role: unknown role ${quoted(role)} (expected ${ROLES.join(", ")})`];
  const out = contentIssues(m.content, PARTS, "a content part", "content must be a string, null or an array of parts", true);
  const calls = m.tool_calls;
  if (role === "assistant" && calls !== undefined) {
    if (Array.isArray(calls)) calls.forEach((c, k) => out.push(...callIssues(c, `tool_calls.${k}`)));
    else out.push("tool_calls: tool_calls must be an array");
  }
  if (role === "tool" && !isString(m.tool_call_id)) out.push("tool_call_id: a tool message needs a string tool_call_id");
  return out;
}

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
  const toolCalls: ToolCallView[] = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
  if (m.role === "tool") {
    const result = { id: m.tool_call_id!, text: p.text, images: p.images + p.attachments };
    return { role: "tool", text: "", images: 0, attachments: 0, otherChars: p.otherChars, toolCalls, results: [result] };
  }
  return { role: m.role === "developer" ? "system" : m.role, ...p, toolCalls, results: [] };
}

function withArguments(m: ChatMessage, args: Map<number, string>): ChatMessage {
  const calls = (m.tool_calls ?? []).map((c, i) =>
    args.has(i) ? { ...c, function: { ...c.function, arguments: args.get(i)! } } : c,
  );
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

/** OpenAI Chat Completions messages: the default dialect. */
export const openAIChat: Dialect<ChatMessage> = {
  name: "openai",
  validate: (messages) => validateEach(messages, check) as ChatMessage[],
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
