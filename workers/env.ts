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
  /** Tool outputs over this many tokens are trimmed when they first appear (the x-compaction-max-tool-output-tokens header overrides; "off"); unset: off. */
  MAX_TOOL_OUTPUT_TOKENS?: string;
  /** A request over this many bytes is compacted whatever its tokens, its oldest images stubbed (maxRequestBytes; the x-compaction-max-request-bytes header overrides; "off"); unset: off. */
  MAX_REQUEST_BYTES?: string;
}

/** The summarizer chain the configuration asks for; the deterministic one always ends it. */
export function summarizerFor(env: Env): Summarizer | undefined {
  const model = env.SUMMARIZER_MODEL ?? "gpt-5.4-mini";
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

/**
 * Context windows (input + output, tokens) by model-name prefix; the longest matching prefix wins.
 * Checked 2026-11-28 against the providers' model pages and gateways' model cards (docs search):
 * Claude 4.x 200k (Sonnet 4/4.5/4.6 and Opus 4.6 reach 1M with the `context-1m` beta, below); the
 * Claude 5 family (Opus 5/5.5, Sonnet 5/5.5, Fable, Mythos) 1M natively, as Claude Code reports for
 * claude-opus-5-5; Haiku 200k. GPT-5, 5.1-5.3 (and -mini, -nano, -codex) 400k (272k input + 128k
 * output); GPT-5.4 and later 1.05M; GPT-4.1 1M; o-series 200k. Gemini 2.x/3.x 1M (1,048,576), Gemini
 * 1.5 Pro and 3.5 Pro 2M. A window learned from a provider's overflow error beats the table.
 */
const WINDOWS: Record<string, number> = {
  "gpt-4o": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-5": 400_000,
  "gpt-5.4": 1_050_000,
  "gpt-5.4-mini": 400_000,
  "gpt-5.4-nano": 400_000,
  "gpt-5.5": 1_050_000,
  "gpt-5.6": 1_050_000,
  "o1": 200_000,
  "o1-mini": 128_000,
  "o3": 200_000,
  "o4-mini": 200_000,
  "claude": 200_000,
  "claude-opus-5": 1_000_000,
  "claude-sonnet-5": 1_000_000,
  "claude-fable-5": 1_000_000,
  "claude-mythos-5": 1_000_000,
  "gemini": 1_048_576,
  "gemini-1.5-pro": 2_097_152,
  "gemini-3.5-pro": 2_097_152,
};
export const DEFAULT_WINDOW = 128_000;
/** What Anthropic's `context-1m-…` beta (or Claude Code's `[1m]` model suffix) gives. */
const ONE_MILLION = 1_000_000;

/**
 * A model's context window: the x-context-window header, else the table (longest matching prefix of
 * the name without a provider path such as `anthropic/`). A `[1m]` suffix or an `anthropic-beta`
 * header naming `context-1m` asks for 1M tokens.
 */
export function windowFor(env: Env, model: string, header: string | undefined, beta?: string): number {
  const fromHeader = Number(header);
  if (header && Number.isInteger(fromHeader) && fromHeader > 0) return fromHeader;
  let table = WINDOWS;
  try {
    table = { ...WINDOWS, ...(env.MODEL_WINDOWS ? JSON.parse(env.MODEL_WINDOWS) : {}) };
  } catch {
    // a malformed MODEL_WINDOWS leaves the built-in table
  }
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  const oneMillion = /\[1m\]$/.test(name) || /(?:^|,)\s*context-1m/.test(beta ?? "");
  const bare = name.replace(/\[1m\]$/, "");
  const key = Object.keys(table)
    .filter((k) => bare.startsWith(k.toLowerCase()))
    .sort((a, b) => b.length - a.length)[0];
  const window = key ? table[key] : DEFAULT_WINDOW;
  return oneMillion ? Math.max(window, ONE_MILLION) : window;
}

/**
 * The worker's own keys (clients' bearer token, upstream and summarizer keys): known values every pass
 * redacts wherever they appear (`secrets`), so a transcript that quotes one never carries it on.
 */
export const ownSecrets = (env: Env): string[] =>
  [env.API_TOKEN, env.UPSTREAM_API_KEY, env.ANTHROPIC_API_KEY, env.SUMMARIZER_API_KEY].filter((k): k is string => typeof k === "string" && k.length > 0);

/** What a pass takes from the deployment: its summarizer chain, and the worker's own keys to redact. */
export const passSettings = (env: Env) => ({ summarizer: summarizerFor(env), secrets: ownSecrets(env) });
