// What the worker is configured with (wrangler.toml vars, secrets and bindings).
import { openAICompatible, workersAI, type Summarizer, type WorkersAIBinding } from "../src/index.js";

export interface Env {
  SESSIONS: DurableObjectNamespace;
  ASSETS?: Fetcher;
  AI?: WorkersAIBinding;
  /** Bearer token clients must send; without it only local development requests are served. */
  API_TOKEN?: string;
  UPSTREAM_BASE_URL?: string;
  UPSTREAM_API_KEY?: string;
  /** Where POST /v1/messages forwards (Anthropic's base URL, without /v1: https://api.anthropic.com). */
  ANTHROPIC_UPSTREAM_BASE_URL?: string;
  /** Sent upstream as x-api-key (a secret: `wrangler secret put ANTHROPIC_API_KEY`). */
  ANTHROPIC_API_KEY?: string;
  /** "deterministic" (default), "upstream", "workers-ai", or "openai" with SUMMARIZER_BASE_URL. */
  SUMMARIZER?: string;
  SUMMARIZER_BASE_URL?: string;
  SUMMARIZER_API_KEY?: string;
  SUMMARIZER_MODEL?: string;
  /** JSON object: model name → context window, merged over the built-in table. */
  MODEL_WINDOWS?: string;
  MAX_BODY_BYTES?: string;
  /** Origins (comma-separated) whose pages may call the API across origins (CORS); none by default. */
  ALLOWED_ORIGINS?: string;
  /** How long the upstream may stay silent, before its first byte and between chunks (ms, default 120000). */
  UPSTREAM_TIMEOUT_MS?: string;
  /** Characters of archived JSON each session keeps (default 20,000,000); over it the oldest entries are evicted, and reported. */
  SESSION_ARCHIVE_CHARS?: string;
}

/** The summarizer chain the configuration asks for; the deterministic one always ends it. */
export function summarizerFor(env: Env): Summarizer | undefined {
  const model = env.SUMMARIZER_MODEL ?? "gpt-4o-mini";
  switch (env.SUMMARIZER) {
    case "upstream":
      return env.UPSTREAM_BASE_URL ? openAICompatible({ baseURL: env.UPSTREAM_BASE_URL, apiKey: env.UPSTREAM_API_KEY, model, timeoutMs: 30_000 }) : undefined;
    case "openai":
      return env.SUMMARIZER_BASE_URL ? openAICompatible({ baseURL: env.SUMMARIZER_BASE_URL, apiKey: env.SUMMARIZER_API_KEY, model, timeoutMs: 30_000 }) : undefined;
    case "workers-ai":
      return env.AI ? workersAI(env.AI, env.SUMMARIZER_MODEL ?? "@cf/meta/llama-3.1-8b-instruct") : undefined;
    default:
      return undefined;
  }
}

const WINDOWS: Record<string, number> = {
  "gpt-4o": 128_000,
  "gpt-4o-mini": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.1-mini": 1_047_576,
  "gpt-5": 400_000,
  "o3": 200_000,
  "o4-mini": 200_000,
  "claude": 200_000,
  "claude-sonnet-4": 200_000,
  "claude-opus-4": 200_000,
};
export const DEFAULT_WINDOW = 128_000;

/** A model's context window: the x-context-window header, else the table (longest matching prefix). */
export function windowFor(env: Env, model: string, header: string | undefined): number {
  const fromHeader = Number(header);
  if (header && Number.isInteger(fromHeader) && fromHeader > 0) return fromHeader;
  let table = WINDOWS;
  try {
    table = { ...WINDOWS, ...(env.MODEL_WINDOWS ? JSON.parse(env.MODEL_WINDOWS) : {}) };
  } catch {
    // a malformed MODEL_WINDOWS leaves the built-in table
  }
  const key = Object.keys(table)
    .filter((k) => model === k || model.startsWith(`${k}-`) || model.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return key ? table[key] : DEFAULT_WINDOW;
}
