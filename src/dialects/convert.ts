// Conversions between the three dialects, through OpenAI Chat Completions. Lossless where the formats
// allow; whatever cannot be carried is listed in `lost`, never dropped silently.
import type { ChatMessage, ContentPart, DialectName, ToolCall } from "./types.js";
import type { OpenAIChatInput } from "./openai.js";
import type { AnthropicBlock, AnthropicMessage } from "./anthropic.js";
import { aiSdkMessages, type ModelMessage, type ModelPart } from "./ai-sdk.js";
import { anthropicMessages } from "./anthropic.js";
import { openAIChat } from "./openai.js";
import { openAIResponses, type ResponsesItem } from "./responses.js";
import { sniffDialect } from "./detect.js";
import type { Dialect } from "./view.js";

/** The built-in dialect objects by name, for HTTP APIs and pages that choose a format by name. */
export const dialects: Record<DialectName, Dialect<any>> = {
  openai: openAIChat,
  anthropic: anthropicMessages,
  "ai-sdk": aiSdkMessages,
  "openai-responses": openAIResponses,
};

/** The messages a converter writes in each format, typed as this package types them (each is read by that format's dialect). */
export interface MessagesOf {
  openai: ChatMessage;
  anthropic: AnthropicMessage;
  "ai-sdk": ModelMessage;
  "openai-responses": ResponsesItem;
}

export interface Converted<M = unknown> {
  messages: M[];
  /** The system prompt, when the target keeps it beside the messages (Anthropic). */
  system?: string;
  /** What the target format cannot carry, one line per item, naming the message index. */
  lost: string[];
}

const text = (t: string): ContentPart => ({ type: "text", text: t });
const parseInput = (args: string): unknown => {
  try {
    return JSON.parse(args);
  } catch {
    return { arguments: args };
  }
};
const contentText = (c: ChatMessage["content"]): string =>
  typeof c === "string" ? c : Array.isArray(c) ? c.filter((p) => p.type === "text").map((p) => String(p.text)).join("\n") : "";

/** An OpenAI content's text and image parts in the target's form; other parts are listed as lost. */
function contentParts(
  content: ChatMessage["content"],
  image: (url: string) => ContentPart,
  where: string,
  target: string,
  lost: string[],
): ContentPart[] {
  const out: ContentPart[] = typeof content === "string" && content ? [text(content)] : [];
  for (const p of Array.isArray(content) ? content : []) {
    if (p.type === "text") out.push(p);
    else if (p.type === "image_url") out.push(image(String((p.image_url as { url: string }).url)));
    else lost.push(`${where}: a "${p.type}" part has no ${target} equivalent`);
  }
  return out;
}

/** Merges neighbours that share a role (for formats that require alternation). */
function alternate<M extends { role: string; content: unknown }>(messages: M[], toBlocks: (c: M["content"]) => unknown[]): M[] {
  const out: M[] = [];
  for (const m of messages) {
    const prev = out[out.length - 1];
    if (prev && prev.role === m.role) out[out.length - 1] = { ...prev, content: [...toBlocks(prev.content), ...toBlocks(m.content)] };
    else out.push(m);
  }
  return out;
}

// ---- Anthropic ----------------------------------------------------------------------------------

function imageToAnthropic(url: string): AnthropicBlock {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return data
    ? { type: "image", source: { type: "base64", media_type: data[1], data: data[2] } }
    : { type: "image", source: { type: "url", url } };
}

function openAIToAnthropic(messages: ChatMessage[], lost: string[]): Converted {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  messages.forEach((m, i) => {
    if (m.role === "system" || m.role === "developer") return void system.push(contentText(m.content));
    if (m.role === "tool") {
      out.push({ role: "user", content: [{ type: "tool_result", tool_use_id: m.tool_call_id!, content: contentText(m.content) }] });
      return;
    }
    const blocks: AnthropicBlock[] = contentParts(m.content, imageToAnthropic, `message ${i}`, "Anthropic", lost);
    for (const call of m.tool_calls ?? []) blocks.push({ type: "tool_use", id: call.id, name: call.function.name, input: parseInput(call.function.arguments) });
    out.push({ role: m.role, content: blocks });
  });
  const alternating = alternate(out, (c) => (typeof c === "string" ? [text(c)] : c));
  if (alternating[0]?.role === "assistant") {
    alternating.unshift({ role: "user", content: "(conversation continued)" });
    lost.push("message 0: Anthropic needs a user message first; a placeholder was added");
  }
  return { messages: alternating, system: system.join("\n\n") || undefined, lost };
}

function anthropicToOpenAI(messages: AnthropicMessage[], system: unknown, lost: string[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const sys = typeof system === "string" ? system : Array.isArray(system) ? system.map((b) => String(b?.text ?? "")).join("\n") : "";
  if (sys) out.push({ role: "system", content: sys });
  messages.forEach((m, i) => {
    const blocks: AnthropicBlock[] = typeof m.content === "string" ? [text(m.content)] : m.content;
    const parts: ContentPart[] = [];
    const calls: ToolCall[] = [];
    for (const b of blocks) {
      if (b.type === "text") parts.push(text(String(b.text)));
      else if (b.type === "image") {
        const s = b.source as { type: string; media_type?: string; data?: string; url?: string };
        parts.push({ type: "image_url", image_url: { url: s.type === "base64" ? `data:${s.media_type};base64,${s.data}` : String(s.url) } });
      } else if (b.type === "tool_use") calls.push({ id: String(b.id), type: "function", function: { name: String(b.name), arguments: JSON.stringify(b.input ?? {}) } });
      else if (b.type === "tool_result") {
        const c = b.content;
        const blocksIn = Array.isArray(c) ? (c as AnthropicBlock[]) : [];
        if (blocksIn.some((x) => x.type !== "text")) lost.push(`message ${i}: images inside a tool result cannot be carried by an OpenAI tool message`);
        out.push({ role: "tool", tool_call_id: String(b.tool_use_id), content: typeof c === "string" ? c : blocksIn.filter((x) => x.type === "text").map((x) => String(x.text)).join("\n") });
      } else lost.push(`message ${i}: a "${b.type}" block has no OpenAI equivalent`);
    }
    if (!parts.length && !calls.length) return;
    const content = parts.every((p) => p.type === "text") ? parts.map((p) => String(p.text)).join("\n") : parts;
    out.push(calls.length ? { role: "assistant", content: content || null, tool_calls: calls } : { role: m.role, content });
  });
  return out;
}

// ---- AI SDK -------------------------------------------------------------------------------------

function openAIToAiSdk(messages: ChatMessage[], lost: string[]): ModelMessage[] {
  const names = new Map<string, string>();
  const out: ModelMessage[] = [];
  messages.forEach((m, i) => {
    if (m.role === "system" || m.role === "developer") return void out.push({ role: "system", content: contentText(m.content) });
    if (m.role === "tool") {
      const part: ModelPart = { type: "tool-result", toolCallId: m.tool_call_id!, toolName: names.get(m.tool_call_id!) ?? "unknown", output: { type: "text", value: contentText(m.content) } };
      const prev = out[out.length - 1];
      if (prev?.role === "tool") (prev.content as ModelPart[]).push(part);
      else out.push({ role: "tool", content: [part] });
      return;
    }
    const c = m.content;
    const parts: ModelPart[] = contentParts(c, (url) => ({ type: "image", image: url }), `message ${i}`, "AI SDK", lost);
    for (const call of m.tool_calls ?? []) {
      names.set(call.id, call.function.name);
      parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parseInput(call.function.arguments) });
    }
    out.push({ role: m.role, content: typeof c === "string" && !m.tool_calls?.length ? c : parts });
  });
  return out;
}

function aiSdkToOpenAI(messages: ModelMessage[], lost: string[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  messages.forEach((m, i) => {
    const parts: ModelPart[] = typeof m.content === "string" ? [text(m.content)] : m.content;
    const content: ContentPart[] = [];
    const calls: ToolCall[] = [];
    for (const p of parts) {
      if (p.type === "text") content.push(text(String(p.text)));
      else if (p.type === "image") content.push({ type: "image_url", image_url: { url: String(p.image) } });
      else if (p.type === "tool-call" && !p.providerExecuted) calls.push({ id: String(p.toolCallId), type: "function", function: { name: String(p.toolName), arguments: JSON.stringify(p.input ?? {}) } });
      else if (p.type === "tool-result" && m.role === "tool") {
        const o = p.output as { type: string; value: unknown };
        const value = o.type === "content" ? (o.value as ModelPart[]).filter((x) => x.type === "text").map((x) => String(x.text)).join("\n") : typeof o.value === "string" ? o.value : JSON.stringify(o.value);
        if (o.type === "content" && (o.value as ModelPart[]).some((x) => x.type !== "text")) lost.push(`message ${i}: media inside a tool result cannot be carried by an OpenAI tool message`);
        out.push({ role: "tool", tool_call_id: String(p.toolCallId), content: value });
      } else lost.push(`message ${i}: a "${p.type}" part has no OpenAI equivalent`);
    }
    if (m.role === "tool") return;
    const flat = content.every((p) => p.type === "text") ? content.map((p) => String(p.text)).join("\n") : content;
    out.push(calls.length ? { role: "assistant", content: flat || null, tool_calls: calls } : { role: m.role, content: flat });
  });
  return out;
}

// ---- OpenAI Responses ---------------------------------------------------------------------------

type Item = Record<string, unknown>;

function openAIToResponses(messages: ChatMessage[], lost: string[]): ResponsesItem[] {
  const out: Item[] = [];
  messages.forEach((m, i) => {
    if (m.role === "tool") return void out.push({ type: "function_call_output", call_id: m.tool_call_id!, output: contentText(m.content) });
    const kind = m.role === "assistant" ? "output_text" : "input_text";
    const parts = contentParts(m.content, (url) => ({ type: "input_image", image_url: url }), `message ${i}`, "Responses", lost).map((p) =>
      p.type === "text" ? { type: kind, text: String(p.text) } : p,
    );
    const plain = parts.every((p) => p.type === kind);
    if (parts.length) out.push({ type: "message", role: m.role, content: plain ? parts.map((p) => String(p.text)).join("\n") : parts });
    for (const c of m.tool_calls ?? []) out.push({ type: "function_call", call_id: c.id, name: c.function.name, arguments: c.function.arguments });
  });
  return out as ResponsesItem[];
}

function responsesToOpenAI(items: ResponsesItem[], system: unknown, lost: string[]): ChatMessage[] {
  const out: ChatMessage[] = typeof system === "string" && system ? [{ role: "system", content: system }] : [];
  (items as Item[]).forEach((m, i) => {
    const type = m.type ?? "message";
    const prev = out[out.length - 1];
    if (type === "function_call" || type === "custom_tool_call") {
      if (type === "custom_tool_call") lost.push(`item ${i}: a custom tool call is carried as a function call with { input }`);
      const args = type === "function_call" ? String(m.arguments) : JSON.stringify({ input: m.input });
      const call: ToolCall = { id: String(m.call_id), type: "function", function: { name: String(m.name), arguments: args } };
      // Calls of one turn are one assistant message in Chat Completions.
      if (prev?.role === "assistant" && (prev.tool_calls?.length || !prev.content)) prev.tool_calls = [...(prev.tool_calls ?? []), call];
      else out.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      const o = m.output;
      const parts = (Array.isArray(o) ? o : []) as Item[];
      if (parts.some((p) => p.type !== "input_text")) lost.push(`item ${i}: images and files inside a tool output cannot be carried by an OpenAI tool message`);
      out.push({ role: "tool", tool_call_id: String(m.call_id), content: typeof o === "string" ? o : parts.filter((p) => p.type === "input_text").map((p) => String(p.text)).join("\n") });
    } else if (type === "message" && m.role !== undefined) {
      const c = m.content;
      const content: ContentPart[] = [];
      for (const p of (typeof c === "string" ? [{ type: "input_text", text: c }] : Array.isArray(c) ? c : []) as Item[]) {
        if (p.type === "input_text" || p.type === "output_text") content.push(text(String(p.text)));
        else if (p.type === "input_image" && typeof p.image_url === "string") content.push({ type: "image_url", image_url: { url: p.image_url } });
        else lost.push(`item ${i}: a "${String(p.type)}" part has no OpenAI equivalent`);
      }
      out.push({ role: m.role as ChatMessage["role"], content: content.every((p) => p.type === "text") ? content.map((p) => String(p.text)).join("\n") : content });
    } else lost.push(`item ${i}: a "${String(type)}" item has no OpenAI equivalent`);
  });
  return out;
}

// ---- entry points -------------------------------------------------------------------------------

/** A dialect name checked against the built-in ones (own keys: "__proto__" is no dialect). */
function known(name: DialectName): DialectName {
  if (!Object.hasOwn(dialects, name)) throw new RangeError(`context-compactor: unknown dialect ${JSON.stringify(name)} (openai, anthropic, ai-sdk or openai-responses)`);
  return name;
}

/** Any dialect → OpenAI Chat Completions. */
export function toOpenAI(messages: readonly unknown[], from: DialectName, system?: unknown): { messages: ChatMessage[]; lost: string[] } {
  const lost: string[] = [];
  known(from);
  if (from === "openai") return { messages: messages as ChatMessage[], lost };
  if (from === "anthropic") return { messages: anthropicToOpenAI(messages as AnthropicMessage[], system, lost), lost };
  if (from === "openai-responses") return { messages: responsesToOpenAI(messages as ResponsesItem[], system, lost), lost };
  return { messages: aiSdkToOpenAI(messages as ModelMessage[], lost), lost };
}

/** OpenAI Chat Completions (as the `openai` SDK types them, or `ChatMessage`) → any dialect. */
export function fromOpenAI<To extends DialectName>(input: readonly OpenAIChatInput[], to: To): Converted<MessagesOf[To]> {
  return fromChat(input as ChatMessage[], to) as Converted<MessagesOf[To]>;
}

/** The conversion itself, on the package's own message type. */
function fromChat(messages: ChatMessage[], to: DialectName): Converted {
  const lost: string[] = [];
  known(to);
  if (to === "openai") return { messages, lost };
  if (to === "anthropic") return openAIToAnthropic(messages, lost);
  if (to === "openai-responses") return { messages: openAIToResponses(messages, lost), lost };
  return { messages: openAIToAiSdk(messages, lost), lost };
}

/** Between any two dialects (through OpenAI). */
export function convert<To extends DialectName>(messages: readonly unknown[], options: { from: DialectName; to: To; system?: unknown }): Converted<MessagesOf[To]> {
  known(options.to); // before any work
  const a = toOpenAI(messages, options.from, options.system);
  const b = fromOpenAI(a.messages, options.to);
  return { ...b, lost: [...a.lost, ...b.lost] };
}

/**
 * The dialect messages are written in, by shape; when nothing tells, Anthropic's if the request
 * carries a separate `system` prompt (only Anthropic Messages keeps it beside the messages), else OpenAI's.
 */
export function detectDialect(messages: readonly unknown[], system?: unknown): DialectName {
  return responsesLike(messages) ? "openai-responses" : (sniffDialect(messages) ?? (system == null ? "openai" : "anthropic"));
}

/** An item type, or a content part type, that only the Responses API has (AI SDK parts are "reasoning" too). */
function responsesLike(messages: readonly unknown[]): boolean {
  const item = /^(?:function_call|function_call_output|custom_tool_call|reasoning|compaction|item_reference|message)$/;
  const part = /^(?:input_text|output_text|input_image|input_file)$/;
  return (messages as Item[]).some((m) => item.test(String(m?.type)) || (Array.isArray(m?.content) && (m.content as Item[]).some((p) => part.test(String(p?.type)))));
}
