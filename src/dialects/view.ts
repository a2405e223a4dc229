// The neutral view of a message that every pipeline stage reads, whatever the dialect.
import type { StandardSchemaV1 } from "../schema.js";

export type NeutralRole = "system" | "user" | "assistant" | "tool";

export interface ToolCallView {
  id: string;
  name: string;
  arguments: string;
  /** The approval the call was put to (AI SDK `tool-approval-request`), if any: the SDK answers it once approved or denied. */
  approval?: string;
}

/** One tool result a message carries (an OpenAI tool message carries one; others may carry several). */
export interface ToolResultView {
  id: string;
  text: string;
  /** Image and attachment parts inside the result. */
  images: number;
}

export interface MessageView {
  /** "tool" for a message that carries tool results and nothing else, whatever its wire role. */
  role: NeutralRole;
  /** The message's own text (not its tool results), parts joined by a newline. */
  text: string;
  /** Image parts (charged a fixed estimate each, never by size). */
  images: number;
  /** Audio, file and document parts (charged like images: their payload is never text). */
  attachments: number;
  /** Text-like size of parts the dialect does not know (thinking, server tools…), for estimation only. */
  otherChars: number;
  toolCalls: ToolCallView[];
  results: ToolResultView[];
}

/** A part's JSON text, for estimation only: "" when it has none (cyclic, BigInt, nested past the stack). */
export function jsonOf(x: unknown): string {
  try {
    return JSON.stringify(x) ?? "";
  } catch {
    return "";
  }
}

/** An empty view to fill part by part. */
export function emptyView(role: NeutralRole): MessageView {
  return { role, text: "", images: 0, attachments: 0, otherChars: 0, toolCalls: [], results: [] };
}

/** Appends a text part, parts joined by a newline. */
export function addText(v: { text: string }, text: string): void {
  v.text += (v.text ? "\n" : "") + text;
}

/** What sanitizing writes to answer calls whose results are missing. */
export interface Answer<M> {
  /** Replaces the group's last result-carrying message. */
  last?: M;
  /** Replaces the message after the group. */
  next?: M;
  /** Inserted after the group. */
  insert?: M[];
}

/**
 * A message format: how compaction reads its messages and writes the few it changes. Public, so that
 * users can bring their own; the built-in ones are `openAIChat`, `anthropicMessages`,
 * `aiSdkMessages` and `openAIResponses`. Only what compaction writes is encoded here: every other
 * message passes through by identity, never re-encoded. `M` is the message type the dialect reads;
 * `W` the messages it writes of its own (handoff, stub results), which `compact` adds to the caller's
 * message type when that does not hold them already.
 */
export interface Dialect<M, W = M> {
  /** Shown in reports and warnings. */
  readonly name: string;
  /** Checks the input and returns it typed; throws a CompactionInputError naming the index and problem. */
  validate(messages: unknown): M[];
  /** The rules `validate` applies, as a Standard Schema of an array of messages (the built-in dialects' are valibot schemas). */
  readonly schema?: StandardSchemaV1<unknown, M[]>;
  /** Types only, never set: the messages this dialect writes (`W`). */
  readonly "~written"?: W;
  /** The neutral view every pipeline stage reads. */
  view(message: M): MessageView;
  /** The role on the wire, where user and assistant must alternate: a tool-result carrier may count as a user. Default: the role itself. */
  wireRole?(role: NeutralRole): NeutralRole;
  /** Whether a message left without results keeps its place (strict alternation) instead of being dropped. Default false. */
  readonly keepsEmptied?: boolean;
  /**
   * A model turn comes as several messages (Responses API items: reasoning, text, one per call):
   * consecutive assistant messages are then one turn, never cut apart, and their calls one group. Default false.
   */
  readonly itemized?: boolean;
  /** Tool results replaced (prune), by index in `view(message).results`. */
  withResults(message: M, outputs: Map<number, string>): M;
  /** An assistant message whose tool calls get new argument strings (JSON), by call index. */
  withArguments(message: M, args: Map<number, string>): M;
  /**
   * The message without its reasoning (thinking) parts and the text they held, or undefined when it
   * has none. Optional: without it reasoning is never pruned. Called only for assistant messages
   * before the latest real user message.
   */
  withoutReasoning?(message: M): { message: M; reasoning: string[] } | undefined;
  /** The message with each image or attachment part replaced by a text stub ("{kind}" is the part type). */
  withoutImages(message: M, stub: string): M;
  /** The message without the results answering `ids`; undefined when nothing is left of it. */
  withoutResults(message: M, ids: Set<string>): M | undefined;
  /** Stub results for calls the transcript never answered. */
  answer(calls: ToolCallView[], text: string, around: { last?: M; next?: M }): Answer<M>;
  /** A fresh message carrying the handoff. */
  handoff(role: "user" | "assistant", text: string): M;
  /** The message with `text` put before its own content (a handoff merged into it). */
  prepend(message: M, text: string): M;
  /** A system message (view role "system") with the compaction note appended. */
  appendNote(message: M, note: string): M;
  /** For formats that keep the system prompt beside the messages (`options.system`): that prompt with the note appended. */
  appendSystemNote?(system: unknown, note: string): unknown;
}

/** A built-in dialect: `schema` is always there, a Standard Schema of the messages it reads, to check your own data by its rules. */
export type BuiltInDialect<M, W = M> = Dialect<M, W> & { readonly schema: StandardSchemaV1<unknown, M[]> };
