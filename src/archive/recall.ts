// recall: an archived message back as text, in pieces; and the tool an agent calls to do it.
import type { DialectName } from "../dialects/types.js";
import type { Archive } from "./types.js";

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
  /** First character to return (default 0; clamped to the entry's length). */
  offset?: number;
  /** How many characters (default 20,000; 1 to 1,000,000). */
  limit?: number;
}

/** The most characters one recall returns, as the worker's archive route allows. */
export const RECALL_MAX = 1_000_000;

/** A reference as the archive keys it: "212", " #212" and "#212" are one reference. */
export function normalizeRef(ref: string): string {
  return String(ref).trim().replace(/^#?/, "#");
}

/**
 * A model's argument as a whole number: a number or a numeric string ("100"), truncated; anything
 * else (null, "", "soon", an object) is `fallback`. Then clamped to [min, max].
 */
function wholeNumber(v: unknown, fallback: number, min: number, max: number): number {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(v) ? Number(v) : NaN;
  return Number.isNaN(n) ? fallback : Math.min(max, Math.max(min, Math.trunc(n)));
}

/**
 * The archived content under `ref` (`#212`, or `212`) as text; with offset/limit, one piece of it,
 * ending with where the next piece starts. Undefined when the archive has no such reference.
 * `options` may be a tool call's arguments as the model wrote them: never a throw, and every piece
 * either advances (limit at least 1) or says it is the last (an offset past the end gives an empty one).
 */
export function recall(archive: Archive, ref: string, options?: RecallOptions | null): string | undefined {
  const key = normalizeRef(ref);
  const entry = Object.hasOwn(archive ?? {}, key) ? archive[key] : undefined;
  if (!entry) return undefined;
  const text = textOf(key, entry);
  const offset = wholeNumber(options?.offset, 0, 0, text.length);
  const limit = wholeNumber(options?.limit, RECALL_PIECE, 1, RECALL_MAX);
  if (offset === 0 && text.length <= limit) return text;
  const end = Math.min(text.length, offset + limit);
  const more = end < text.length ? `; call again with offset ${end} for the rest` : "";
  return `${text.slice(offset, end)}\n[characters ${offset}–${end} of ${text.length}${more}]`;
}

const NAME = "recall";
const DESCRIPTION =
  `Read back content removed from this conversation by context compaction. The handoff and the pruned-output stand-ins cite references like #212: pass one to get the original text (redacted), in pieces of up to ${RECALL_PIECE} characters.`;
// JSON Schema's type names as literals, so the AI SDK's jsonSchema() takes it as it is.
const PARAMETERS = {
  type: "object" as const,
  properties: {
    ref: { type: "string" as const, description: "The reference, e.g. #212" },
    offset: { type: "integer" as const, minimum: 0, description: "First character to return (for long content)" },
    limit: { type: "integer" as const, minimum: 1, maximum: RECALL_MAX, description: "How many characters to return" },
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
export function recallTool(dialect: "ai-sdk"): { description: string; inputSchema: typeof PARAMETERS };
export function recallTool(dialect: "anthropic"): { name: string; description: string; input_schema: typeof PARAMETERS };
export function recallTool(dialect?: { name: string } | DialectName): object;
export function recallTool(dialect: { name: string } | DialectName = "openai") {
  const name = typeof dialect === "string" ? dialect : dialect?.name;
  if (name === "anthropic") return { name: NAME, description: DESCRIPTION, input_schema: PARAMETERS };
  if (name === "ai-sdk") return { description: DESCRIPTION, inputSchema: PARAMETERS };
  if (name === "openai-responses") return { type: "function", name: NAME, description: DESCRIPTION, parameters: PARAMETERS };
  // The provider-level prompt (LanguageModelV3FunctionTool), as middleware passes tools to a model.
  if (name === "ai-sdk-prompt") return { type: "function", name: NAME, description: DESCRIPTION, inputSchema: PARAMETERS };
  return { type: "function", function: { name: NAME, description: DESCRIPTION, parameters: PARAMETERS } };
}
