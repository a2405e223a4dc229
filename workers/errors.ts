// The one error format of every non-2xx answer, {"error":{"type","message","issues"?}}, and how any
// failure maps onto it. Errors cross the Durable Object boundary as this data, never as exceptions.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HTTPException } from "hono/http-exception";
import { CompactionInputError } from "../src/index.js";

export interface Issue {
  path: string;
  message: string;
}

export interface ErrorData {
  status: ContentfulStatusCode;
  type: string;
  message: string;
  issues?: Issue[];
}

/** The type of an error answer that has no more specific one, by status. */
const TYPES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  413: "body_too_large",
  415: "unsupported_media_type",
  504: "upstream_timeout",
};

/** An error answer thrown from deep inside a route (or returned by the Durable Object). */
export class ErrorAnswer extends Error {
  constructor(readonly data: ErrorData) {
    super(data.message);
  }
}

export function fail(c: Context, status: ContentfulStatusCode, type: string, message: string, issues?: Issue[], headers?: Record<string, string>): Response {
  return c.json({ error: { type, message, ...(issues ? { issues } : {}) } }, status, headers);
}

export function failWith(c: Context, e: ErrorData): Response {
  return fail(c, e.status, e.type, e.message, e.issues);
}

/** What the Durable Object answers: a result, or a failure as error data. */
export type Outcome<T> = { result: T } | { error: ErrorData };

/**
 * The Durable Object's side: `work`'s result, or its failure as error data (an exception would cross
 * RPC as a plain Error, a 500, and be logged with its message, which may quote the input).
 */
export async function outcomeOf<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { result: await work() };
  } catch (err) {
    return { error: errorData(err) };
  }
}

/** The caller's side: the Durable Object's result, or its error thrown as the one error format. */
export function answered<T>(outcome: Outcome<T>): T {
  if ("error" in outcome) throw new ErrorAnswer(outcome.error);
  return outcome.result;
}

/** Any failure as error data: input errors are 400s; anything else a 500 whose message is never logged (it may quote input). */
export function errorData(err: unknown): ErrorData {
  if (err instanceof ErrorAnswer) return err.data;
  if (err instanceof CompactionInputError) {
    const path = err.index >= 0 ? `messages.${err.index}` : "messages";
    return { status: 400, type: "invalid_messages", message: err.message, issues: err.issues.map((message) => ({ path, message })) };
  }
  if (err instanceof RangeError && err.message.startsWith("context-compactor:")) return { status: 400, type: "invalid_options", message: err.message };
  if (err instanceof HTTPException) {
    const malformed = err.status === 400 && /JSON/.test(err.message);
    return { status: err.status, type: malformed ? "invalid_json" : (TYPES[err.status] ?? "error"), message: err.message };
  }
  console.error("unhandled error:", err instanceof Error ? err.name : "unknown");
  return { status: 500, type: "internal_error", message: "internal error" };
}

/** Why a proxy has no upstream, and where to set it: `.dev.vars` for `npm start`, `[vars]` when deployed. */
export function upstreamMissing(variable: "UPSTREAM_BASE_URL" | "ANTHROPIC_UPSTREAM_BASE_URL"): string {
  const [what, example] =
    variable === "UPSTREAM_BASE_URL"
      ? ["only /v1/plan and /v1/compact are available", "https://api.openai.com/v1 or another OpenAI-compatible base URL, its version path included"]
      : ["POST /v1/messages has nowhere to forward", "https://api.anthropic.com"];
  return `${variable} is not configured: ${what}. Set it (${example}) in .dev.vars for \`npm start\` (see .dev.vars.example), or under [vars] in wrangler.toml when deployed.`;
}
