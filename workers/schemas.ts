// Request and response schemas of the worker (zod): they validate input and generate /openapi.json.
import { z } from "@hono/zod-openapi";

export const ErrorBody = z
  .object({
    error: z.object({
      type: z.string().openapi({ example: "invalid_request" }),
      message: z.string(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .openapi("Error");

const Dialect = z.enum(["openai", "anthropic", "ai-sdk", "openai-responses"]);

/** Deeper JSON than any transcript needs: refused here, before recursive code (JSON.stringify) meets it. */
export const MAX_DEPTH = 100;

/** Whether `value` nests deeper than MAX_DEPTH; iterative, so depth itself cannot overflow the stack. */
export function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= MAX_DEPTH) return true;
    for (const x of Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}

/** A list of JSON values, each bounded in depth (the issue names the item). */
const boundedList = (description: string) =>
  z
    .array(z.unknown())
    .superRefine((items, ctx) => {
      const i = items.findIndex(tooDeep);
      if (i >= 0) ctx.addIssue({ code: "custom", path: [i], message: `nested deeper than ${MAX_DEPTH} levels` });
    })
    .openapi({ description });

const LISTS = new Set(["messages", "tools", "input"]);

/** Every field but the bounded lists is forwarded as it is: bounded too, since it is serialized again. */
function otherFieldsBounded(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const key = Object.keys(body).find((k) => !LISTS.has(k) && tooDeep(body[k]));
  if (key) ctx.addIssue({ code: "custom", path: [key], message: `nested deeper than ${MAX_DEPTH} levels` });
}

/** Session ids: what GET /v1/sessions/{id} can read back. */
export const SessionId = z.string().min(1).max(200);

/** The JSON-able subset of the core's options (functions and signals cannot travel over HTTP). */
export const Options = z
  .object({
    contextWindow: z.number().int().positive().openapi({ example: 128000 }),
    maxOutputTokens: z.number().int().nonnegative().optional(),
    threshold: z.number().gt(0).lte(1).optional(),
    headMessages: z.number().int().nonnegative().optional(),
    tailTokens: z.number().int().nonnegative().optional(),
    protectedTools: z.array(z.string()).optional(),
    imageTokens: z.number().int().nonnegative().optional(),
    tools: boundedList("Tool definitions, counted with every request").optional(),
    focus: z.string().max(4000).optional(),
    force: z.boolean().optional(),
    dialect: Dialect.optional(),
    system: z.union([z.string(), boundedList("Text blocks")]).optional(),
    maxRequestBytes: z.number().int().positive().optional().openapi({ description: "Over this many bytes of JSON a pass runs whatever the tokens, stubbing the oldest images first" }),
  })
  .strict()
  .openapi("Options");

const Messages = boundedList("A transcript in the chosen dialect (OpenAI chat messages by default)");

export const PlanRequest = z.object({ messages: Messages, options: Options }).openapi("PlanRequest");
export const CompactRequest = z
  .object({ messages: Messages, options: Options, sessionId: SessionId.optional() })
  .openapi("CompactRequest");

const Range = z.object({ start: z.number(), end: z.number() });
export const PlanResponse = z
  .object({
    tokens: z.object({ total: z.number(), threshold: z.number(), perMessage: z.array(z.number()) }),
    shouldCompact: z.boolean(),
    reason: z.string(),
    head: Range,
    middle: Range,
    tail: Range,
    latestUserIndex: z.number(),
  })
  .passthrough()
  .openapi("Plan");

const Report = z
  .object({ mode: z.enum(["noop", "prune", "summary", "fallback", "aborted", "stalled"]), tokensBefore: z.number(), tokensAfter: z.number() })
  .passthrough()
  .openapi("CompactReport");

export const CompactResponse = z
  .object({
    messages: z.array(z.unknown()),
    state: z.record(z.string(), z.unknown()),
    report: Report,
    system: z.unknown().optional(),
    archive: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("CompactResult");

export const ProposalRequest = z.object({ messages: Messages, options: Options }).openapi("ProposalRequest");

export const ProposalResponse = z
  .object({
    id: z.string().openapi({ description: "Accept it at POST /v1/sessions/{id}/proposals/{pid}/accept until the session moves on" }),
    plan: PlanResponse,
    handoff: z.string().optional().openapi({ description: "The summary the handoff carries, without its framing: what an edit replaces" }),
    replaces: z.array(z.number()).openapi({ description: "The input messages the handoff replaces" }),
    messages: z.array(z.unknown()),
    report: Report,
    system: z.unknown().optional(),
    archive: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("Proposal");

export const AcceptRequest = z
  .object({ handoff: z.string().max(200_000).optional().openapi({ description: "An edited summary: redacted, and checked like a model's (what it lost of the unresolved errors or the latest request is appended)" }) })
  .strict()
  .openapi("AcceptRequest");

export const ArchiveResponse = z.object({ id: z.string(), ref: z.string(), text: z.string() }).openapi("ArchivedContent");

export const ChatRequest = z
  .object({
    model: z.string().min(1),
    messages: Messages.min(1),
    stream: z.boolean().optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
    tools: boundedList("Tool definitions").optional(),
  })
  .passthrough()
  .superRefine(otherFieldsBounded)
  .openapi("ChatCompletionRequest");

export const SessionResponse = z
  .object({
    id: z.string(),
    state: z.record(z.string(), z.unknown()).nullable(),
    reports: z.array(z.unknown()),
    evicted: z.array(z.object({ refs: z.string(), count: z.number(), at: z.string() })).openapi({ description: "Evictions of the session's archive, newest first: the references evicted (oldest–newest archived), how many, when" }),
    span: z
      .object({ replaces: z.number(), messages: z.number() })
      .nullable()
      .openapi({ description: "The compacted span the proxies substitute: how many of the client's messages it replaces, by how many" }),
  })
  .openapi("Session");

/** Anthropic's error shape, which POST /v1/messages answers with. */
export const AnthropicError = z
  .object({
    type: z.literal("error"),
    error: z.object({
      type: z.string().openapi({ example: "invalid_request_error" }),
      message: z.string(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .openapi("AnthropicError");

export const MessagesRequest = z
  .object({
    model: z.string().min(1),
    messages: Messages.min(1),
    max_tokens: z.number().int().positive(),
    system: z.union([z.string(), boundedList("Text blocks")]).optional(),
    stream: z.boolean().optional(),
    tools: boundedList("Tool definitions").optional(),
  })
  .passthrough()
  .superRefine(otherFieldsBounded)
  .openapi("MessagesRequest");

/** POST /v1/messages/count_tokens: a Messages request without max_tokens. */
export const CountTokensRequest = z
  .object({
    model: z.string().min(1),
    messages: Messages.min(1),
    system: z.union([z.string(), boundedList("Text blocks")]).optional(),
    tools: boundedList("Tool definitions").optional(),
  })
  .passthrough()
  .superRefine(otherFieldsBounded)
  .openapi("CountTokensRequest");

export const CountTokensResponse = z.object({ input_tokens: z.number().int().nonnegative() }).passthrough().openapi("CountTokensResponse");

/** OpenAI Responses API request: what compaction reads; every other field is forwarded untouched. */
export const ResponsesRequest = z
  .object({
    model: z.string().min(1).optional(),
    input: z.union([z.string(), boundedList("Responses input items (messages, function_call, function_call_output, reasoning, …)")]).optional(),
    instructions: z.string().nullable().optional().openapi({ description: "The system prompt: counted, and given the compaction note when a handoff is written" }),
    tools: boundedList("Tool definitions").optional(),
    max_output_tokens: z.number().int().positive().nullable().optional(),
    stream: z.boolean().nullable().optional(),
    previous_response_id: z.string().nullable().optional().openapi({ description: "With it, the request is forwarded untouched (the server holds the history)" }),
    conversation: z.unknown().optional().openapi({ description: "With it too (an id or { id }), the request is forwarded untouched" }),
  })
  .passthrough()
  .superRefine(otherFieldsBounded)
  .openapi("ResponsesRequest");
