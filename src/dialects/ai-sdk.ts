// Vercel AI SDK ModelMessage: system/user/assistant/tool roles, typed parts, provider options kept.
import * as v from "valibot";
import { fields, isString } from "../schema.js";
import { content, message, messages, part, quoted, standard, validateWith, type MessageSchema } from "./validate.js";
import { addText, emptyView, jsonOf, type BuiltInDialect, type Dialect, type MessageView, type ToolCallView, type ToolResultView } from "./view.js";

export type ModelPart = { type: string; [k: string]: unknown };
export interface ModelMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | ModelPart[];
  [k: string]: unknown;
}

type AiPart =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string }
  | { type: "tool-result"; toolCallId: string; output: object }
  | { type: "image" | "file" | "reasoning" | "tool-approval-request" | "tool-approval-response" };
/**
 * An AI SDK message as the `ai` package types it (`ModelMessage`), structurally: what `compact` takes
 * and gives back with `aiSdkMessages`. Parts are named by their types, so other formats' messages are
 * a type error.
 */
export type AiSdkModelMessage =
  | { role: "system"; content: string }
  | { role: "user" | "assistant"; content: string | readonly AiPart[] }
  | { role: "tool"; content: readonly AiPart[] };

/** What compaction writes with this dialect besides the messages it edits: the handoff, stub results. */
export type AiSdkWritten =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string }
  | { role: "tool"; content: { type: "tool-result"; toolCallId: string; toolName: string; output: { type: "error-text"; value: string } }[] };

const PART = part(
  [
    ["text", (p) => isString(p.text), 'a "text" part needs a string "text"'],
    ["tool-call", (p) => isString(p.toolCallId) && isString(p.toolName), 'a "tool-call" part needs a string "toolCallId" and "toolName"'],
    ["tool-result", (p) => isString(p.toolCallId) && typeof p.output === "object" && p.output !== null, 'a "tool-result" part needs a string "toolCallId" and an "output" object'],
  ],
  "a part",
);
const CONTENT = content(PART, "content must be a string or an array of parts");

const BY_ROLE: Record<string, MessageSchema> = {
  system: fields({ content: v.string("a system message needs string content") }),
  user: fields({ content: CONTENT }),
  assistant: fields({ content: CONTENT }),
  tool: fields({ content: v.array(PART, "a tool message needs an array of parts") }),
};
const NEEDS_ROLE = fields({
  role: v.picklist(Object.keys(BY_ROLE), (issue) => (issue.input === undefined ? "a message needs a role" : `unknown role ${quoted(issue.input)} (expected system, user, assistant, tool)`)),
});
const MESSAGE = message(({ role }) => (typeof role === "string" && Object.hasOwn(BY_ROLE, role) ? BY_ROLE[role] : NEEDS_ROLE));

/** The rules of an AI SDK transcript. */
const RULES = messages(MESSAGE);

const parts = (c: ModelMessage["content"]): ModelPart[] => (typeof c === "string" ? [{ type: "text", text: c }] : c);
const MEDIA = new Set(["image", "file"]);
const REASONING = new Set(["reasoning", "redacted-reasoning"]);

/** The text of a tool result's output, whatever its type. */
function outputView(p: ModelPart): ToolResultView {
  const o = p.output as { type?: string; value?: unknown } | undefined;
  let text = "";
  let images = 0;
  if (o?.type === "content" && Array.isArray(o.value)) {
    for (const x of o.value as ModelPart[]) {
      if (x.type === "text") text += (text ? "\n" : "") + String(x.text);
      else images++;
    }
  } else if (typeof o?.value === "string") text = o.value;
  else if (o?.value !== undefined) text = jsonOf(o.value);
  return { id: String(p.toolCallId), text, images };
}

/** Marks the call a `tool-approval-request` is for (the request follows its call) with the approval's id. */
function approvalOf(calls: ToolCallView[], p: ModelPart): void {
  const call = calls.find((c) => c.id === String(p.toolCallId));
  if (call) call.approval = String(p.approvalId);
}

function view(m: ModelMessage): MessageView {
  const v = emptyView(m.role);
  for (const p of parts(m.content)) {
    if (p.type === "text") addText(v, String(p.text));
    // Calls the provider ran itself carry their result in the same message: not ours to pair.
    else if (p.type === "tool-call" && !p.providerExecuted) v.toolCalls.push({ id: String(p.toolCallId), name: String(p.toolName), arguments: jsonOf(p.input ?? {}) });
    else if (p.type === "tool-result" && m.role === "tool") v.results.push(outputView(p));
    else if (p.type === "tool-approval-request") approvalOf(v.toolCalls, p);
    else if (p.type === "image") v.images++;
    else if (p.type === "file") v.attachments++;
    else v.otherChars += jsonOf(p).length;
  }
  return v;
}

function mapParts(m: ModelMessage, f: (p: ModelPart) => ModelPart | undefined): ModelPart[] {
  const out: ModelPart[] = [];
  for (const p of parts(m.content)) {
    const x = f(p);
    if (x) out.push(x);
  }
  return out;
}

function indexed(m: ModelMessage, type: string, values: Map<number, string>, set: (p: ModelPart, value: string) => ModelPart): ModelMessage {
  let k = -1;
  return { ...m, content: mapParts(m, (p) => (p.type === type && (type !== "tool-call" || !p.providerExecuted) && values.has(++k) ? set(p, values.get(k)!) : p)) };
}

const stubResult = (c: ToolCallView, text: string): ModelPart => ({ type: "tool-result", toolCallId: c.id, toolName: c.name, output: { type: "error-text", value: text } });

/** The dialect as the package's own code reads it (`ModelMessage` as this package types it). */
export const modelMessages: Dialect<ModelMessage> = {
  name: "ai-sdk",
  schema: standard<ModelMessage>(RULES),
  validate: (input) => validateWith(RULES, input),
  view,
  withResults: (m, outputs) => indexed(m, "tool-result", outputs, (p, value) => ({ ...p, output: { type: "text", value } })),
  withArguments: (m, args) => indexed(m, "tool-call", args, (p, value) => ({ ...p, input: JSON.parse(value) })),
  withoutImages: (m, stub) => ({ ...m, content: mapParts(m, (p) => (MEDIA.has(p.type) ? { type: "text", text: stub.replace("{kind}", p.type) } : p)) }),
  withoutReasoning: (m) => {
    const ps = parts(m.content);
    const reasoning = ps.filter((p) => REASONING.has(p.type));
    if (!reasoning.length) return undefined;
    const rest = ps.filter((p) => !REASONING.has(p.type));
    // An empty assistant turn is refused by providers: a note stands for what was there.
    return { message: { ...m, content: rest.length ? rest : "[reasoning pruned]" }, reasoning: reasoning.map((p) => String(p.text ?? p.data ?? "")) };
  },
  withoutResults: (m, ids) => {
    const content = mapParts(m, (p) => (p.type === "tool-result" && ids.has(String(p.toolCallId)) ? undefined : p));
    return content.length ? { ...m, content } : undefined;
  },
  answer: (calls, text, { last }) => {
    const stubs = calls.map((c) => stubResult(c, text));
    return last ? { last: { ...last, content: [...parts(last.content), ...stubs] } } : { insert: [{ role: "tool", content: stubs }] };
  },
  handoff: (role, text) => ({ role, content: text }),
  // Reasoning opens an assistant message for some providers: the handoff goes after it.
  prepend: (m, text) => {
    const ps = parts(m.content);
    let at = 0;
    while (at < ps.length && ps[at].type === "reasoning") at++;
    return { ...m, content: [...ps.slice(0, at), { type: "text", text }, ...ps.slice(at)] };
  },
  appendNote: (m, note) => ({ ...m, content: typeof m.content === "string" && m.content ? `${m.content}\n\n${note}` : note }),
};

/**
 * AI SDK `ModelMessage`s (what `generateText`, `streamText` and agents take as `messages`). It reads
 * the `ai` package's `ModelMessage` (or this package's) and writes only what that type allows.
 */
export const aiSdkMessages = modelMessages as BuiltInDialect<AiSdkModelMessage | ModelMessage, AiSdkWritten>;
