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

const Dialect = z.enum(["openai", "anthropic", "ai-sdk"]);

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
    tools: z.array(z.unknown()).optional(),
    focus: z.string().max(4000).optional(),
    force: z.boolean().optional(),
    dialect: Dialect.optional(),
    system: z.union([z.string(), z.array(z.unknown())]).optional(),
  })
  .strict()
  .openapi("Options");

const Messages = z.array(z.unknown()).openapi({ description: "A transcript in the chosen dialect (OpenAI chat messages by default)" });

export const PlanRequest = z.object({ messages: Messages, options: Options }).openapi("PlanRequest");
export const CompactRequest = z
  .object({ messages: Messages, options: Options, sessionId: z.string().min(1).max(200).optional() })
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

export const CompactResponse = z
  .object({
    messages: z.array(z.unknown()),
    state: z.record(z.string(), z.unknown()),
    report: z.object({ mode: z.enum(["noop", "prune", "summary", "fallback", "aborted"]), tokensBefore: z.number(), tokensAfter: z.number() }).passthrough(),
    system: z.unknown().optional(),
    archive: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("CompactResult");

export const ArchiveResponse = z.object({ id: z.string(), ref: z.string(), text: z.string() }).openapi("ArchivedContent");

export const ChatRequest = z
  .object({
    model: z.string().min(1),
    messages: z.array(z.unknown()).min(1),
    stream: z.boolean().optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
    tools: z.array(z.unknown()).optional(),
  })
  .passthrough()
  .openapi("ChatCompletionRequest");

export const SessionResponse = z
  .object({ id: z.string(), state: z.record(z.string(), z.unknown()).nullable(), reports: z.array(z.unknown()) })
  .openapi("Session");
