// OpenAI Chat Completions: the default dialect.
import * as v from "valibot";
import { CompactionInputError } from "../errors.js";
import type { ChatMessage, ContentPart } from "../types.js";
import type { Dialect, MessageView, NeutralRole, ToolCallView } from "./view.js";

const ROLES = ["system", "developer", "user", "assistant", "tool"] as const;

const Part = v.pipe(
  v.looseObject({ type: v.string('a content part needs a string "type"') }, 'a content part must be an object with a string "type"'),
  v.check((p) => p.type !== "text" || typeof (p as { text?: unknown }).text === "string", 'a "text" part needs a string "text"'),
);

// lazy rather than union: the array branch's own issues (which part, what is wrong) reach the user.
const Content = v.nullish(
  v.lazy((input) => (typeof input === "string" ? v.string() : v.array(Part, "content must be a string, null or an array of parts"))),
);

const ToolCallSchema = v.looseObject({
  id: v.string("a tool call needs a string id"),
  function: v.looseObject(
    {
      name: v.string("a tool call needs a string function.name"),
      arguments: v.string("tool call arguments must be a string"),
    },
    "a tool call needs a function object",
  ),
});

const Message = v.variant(
  "role",
  [
    v.looseObject({ role: v.picklist(["system", "developer", "user"]), content: Content }),
    v.looseObject({
      role: v.literal("assistant"),
      content: Content,
      tool_calls: v.optional(v.array(ToolCallSchema, "tool_calls must be an array")),
    }),
    v.looseObject({
      role: v.literal("tool"),
      content: Content,
      tool_call_id: v.string("a tool message needs a string tool_call_id"),
    }),
  ],
  (issue) =>
    issue.input === undefined
      ? "a message needs a role"
      : `unknown role ${JSON.stringify(issue.input)} (expected ${ROLES.join(", ")})`,
);

function describe(issues: v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

function validate(messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages)) throw new CompactionInputError(-1, ["must be an array of messages"]);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m === null || typeof m !== "object" || Array.isArray(m)) {
      throw new CompactionInputError(i, ["a message must be an object"]);
    }
    const result = v.safeParse(Message, m);
    if (!result.success) throw new CompactionInputError(i, describe(result.issues));
  }
  return messages as ChatMessage[];
}

const IMAGE_PARTS = new Set(["image_url", "image", "input_image"]);
const ATTACHMENT_PARTS = new Set(["input_audio", "file", "input_file", "audio"]);

function neutralRole(role: ChatMessage["role"]): NeutralRole {
  return role === "developer" ? "system" : role;
}

function view(m: ChatMessage): MessageView {
  let text = "";
  let images = 0;
  let attachments = 0;
  let otherChars = 0;
  const content = m.content;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === "text") text += (text ? "\n" : "") + (part as { text: string }).text;
      else if (IMAGE_PARTS.has(part.type)) images++;
      else if (ATTACHMENT_PARTS.has(part.type)) attachments++;
      else otherChars += JSON.stringify(part).length;
    }
  }
  const toolCalls: ToolCallView[] = (m.tool_calls ?? []).map((c) => ({
    id: c.id,
    name: c.function.name,
    arguments: c.function.arguments,
  }));
  const out: MessageView = { role: neutralRole(m.role), text, images, attachments, otherChars, toolCalls };
  if (m.role === "tool") out.toolCallId = m.tool_call_id;
  return out;
}

function withToolOutput(m: ChatMessage, text: string): ChatMessage {
  return { ...m, content: text };
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

export const openai: Dialect<ChatMessage> = {
  name: "openai",
  validate,
  view,
  withToolOutput,
  withArguments,
  withoutImages,
  handoff: (role, text) => ({ role, content: text }),
  prepend,
  appendNote,
  stubResult: (call, text) => ({ role: "tool", tool_call_id: call.id, content: text }),
};
