// recall: an archived message back as text, in pieces; and the tool an agent calls to do it.
import type { Archive, DialectName } from "../types.js";

/** Characters one recall returns by default: a piece that fits beside a conversation. */
export const RECALL_PIECE = 20_000;

function textOf(ref: string, e: Archive[string]): string {
  const parts = [`${ref} ${e.role}`];
  for (const r of e.reasoning ?? []) parts.push(`(reasoning) ${r}`);
  if (e.text) parts.push(e.text);
  for (const c of e.calls ?? []) parts.push(`→ call ${c.name} ${c.arguments}`);
  e.results?.forEach((r, k) => parts.push(`← result${e.results!.length > 1 ? ` ${k + 1}` : ""}\n${r}`));
  return parts.join("\n");
}

export interface RecallOptions {
  /** First character to return (default 0). */
  offset?: number;
  /** How many characters (default 20,000). */
  limit?: number;
}

/** A reference as the archive keys it: "212", " #212" and "#212" are one reference. */
export function normalizeRef(ref: string): string {
  return String(ref).trim().replace(/^#?/, "#");
}

/**
 * The archived content under `ref` (`#212`, or `212`) as text; with offset/limit, one piece of it,
 * ending with where the next piece starts. Undefined when the archive has no such reference.
 */
export function recall(archive: Archive, ref: string, { offset = 0, limit = RECALL_PIECE }: RecallOptions = {}): string | undefined {
  const key = normalizeRef(ref);
  const entry = Object.hasOwn(archive ?? {}, key) ? archive[key] : undefined;
  if (!entry) return undefined;
  const text = textOf(key, entry);
  if (offset <= 0 && text.length <= limit) return text;
  const end = Math.min(text.length, offset + limit);
  const more = end < text.length ? `; call again with offset ${end} for the rest` : "";
  return `${text.slice(offset, end)}\n[characters ${offset}–${end} of ${text.length}${more}]`;
}

const NAME = "recall";
const DESCRIPTION =
  `Read back content removed from this conversation by context compaction. The handoff and the pruned-output stand-ins cite references like #212: pass one to get the original text (redacted), in pieces of up to ${RECALL_PIECE} characters.`;
const PARAMETERS = {
  type: "object",
  properties: {
    ref: { type: "string", description: "The reference, e.g. #212" },
    offset: { type: "integer", minimum: 0, description: "First character to return (for long content)" },
    limit: { type: "integer", minimum: 1, description: "How many characters to return" },
  },
  required: ["ref"],
  additionalProperties: false,
};

/**
 * A ready definition of the recall tool in the dialect's shape (a dialect object or its name):
 * OpenAI `{ type: "function", function }`, Anthropic `{ name, description, input_schema }`, AI SDK
 * `{ description, inputSchema }` (a JSON Schema: wrap it with the AI SDK's `jsonSchema()`).
 * Answer its calls with `recall(archive, args.ref, args)`.
 */
export function recallTool(dialect: { name: string } | DialectName = "openai") {
  const name = typeof dialect === "string" ? dialect : dialect?.name;
  if (name === "anthropic") return { name: NAME, description: DESCRIPTION, input_schema: PARAMETERS };
  if (name === "ai-sdk") return { description: DESCRIPTION, inputSchema: PARAMETERS };
  // The provider-level prompt (LanguageModelV3FunctionTool), as middleware passes tools to a model.
  if (name === "ai-sdk-prompt") return { type: "function", name: NAME, description: DESCRIPTION, inputSchema: PARAMETERS };
  return { type: "function", function: { name: NAME, description: DESCRIPTION, parameters: PARAMETERS } };
}
