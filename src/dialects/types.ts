// The message of the default dialect (OpenAI Chat Completions) and the built-in dialects' names.

/** A content part of an OpenAI chat message. Unknown part types pass through untouched. */
export type ContentPart =
  | { type: "text"; text: string; [k: string]: unknown }
  | { type: "image_url"; image_url: { url: string; detail?: string }; [k: string]: unknown }
  | { type: string; [k: string]: unknown };

export interface ToolCall {
  id: string;
  type?: "function" | string;
  function: { name: string; arguments: string };
  [k: string]: unknown;
}

/** An OpenAI Chat Completions message, the default dialect. Extra fields are preserved. */
export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | ContentPart[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  [k: string]: unknown;
}

/** Names of the built-in dialects, as HTTP APIs and the converters use them. */
export type DialectName = "openai" | "anthropic" | "ai-sdk" | "openai-responses";
