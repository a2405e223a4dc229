// The neutral view of a message that every pipeline stage reads, whatever the dialect.

export type NeutralRole = "system" | "user" | "assistant" | "tool";

export interface ToolCallView {
  id: string;
  name: string;
  arguments: string;
}

export interface MessageView {
  role: NeutralRole;
  /** All text of the message, parts joined by a newline. */
  text: string;
  /** Image parts (charged a fixed estimate each, never by size). */
  images: number;
  /** Audio, file and document parts (charged like images: their payload is never text). */
  attachments: number;
  /** Text-like size of parts the dialect does not know, for estimation only. */
  otherChars: number;
  toolCalls: ToolCallView[];
  /** For tool results: the call they answer. */
  toolCallId?: string;
}

export interface Dialect<M> {
  readonly name: string;
  /** Checks the input and returns it typed; throws CompactionInputError naming the index. */
  validate(messages: unknown): M[];
  view(message: M): MessageView;
  /** A tool result with its output replaced (prune). */
  withToolOutput(message: M, text: string): M;
  /** An assistant message whose tool calls get new argument strings, by call index. */
  withArguments(message: M, args: Map<number, string>): M;
  /** The message with each image or attachment part replaced by a text stub. */
  withoutImages(message: M, stub: string): M;
  /** A fresh message carrying the handoff. */
  handoff(role: "user" | "assistant", text: string): M;
  /** The message with `text` put before its own content (a handoff merged into it). */
  prepend(message: M, text: string): M;
  /** The system message with the compaction note appended. */
  appendNote(message: M, note: string): M;
  /** A tool result standing in for one the transcript never recorded. */
  stubResult(call: ToolCallView, text: string): M;
}
