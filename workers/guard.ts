// Who may call the worker: a bearer token when API_TOKEN is set; without it, only this machine (a
// loopback client, through a loopback Host, from no page or a same-origin, loopback or allowed one).
// CORS answers only the origins in ALLOWED_ORIGINS. Shared by every route.
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { fail } from "./errors.js";
import type { Env } from "./env.js";

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const LOOPBACK_IP = /^(?:127\.|::1$|::ffff:127\.)/i;

/** ALLOWED_ORIGINS: origins separated by commas or spaces; none by default. */
export function allowedOrigins(env: Env): string[] {
  return (env.ALLOWED_ORIGINS ?? "").split(/[\s,]+/).filter(Boolean);
}

function loopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOST.test(new URL(origin).hostname);
  } catch {
    return false; // "null" and other opaque origins
  }
}

/** Why a request may not be served without a token, or undefined when it comes from this machine. */
export function localRefusal(req: Request, env: Env): string | undefined {
  const url = new URL(req.url);
  const ip = req.headers.get("cf-connecting-ip"); // the connecting address, where the runtime gives it
  if (!LOOPBACK_HOST.test(url.hostname) || (ip && !LOOPBACK_IP.test(ip))) {
    return "API_TOKEN is not set: this worker only serves local development requests until it is";
  }
  const origin = req.headers.get("origin");
  const crossSite = origin
    ? origin !== url.origin && !loopbackOrigin(origin) && !allowedOrigins(env).includes(origin)
    : req.headers.get("sec-fetch-site") === "cross-site";
  return crossSite ? "API_TOKEN is not set: requests from a page of another origin are refused (list it in ALLOWED_ORIGINS)" : undefined;
}

/** Compares secrets in constant time, so the token cannot be guessed byte by byte. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export const auth: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const token = c.env.API_TOKEN;
  if (!token) {
    const refused = localRefusal(c.req.raw, c.env);
    if (refused) return fail(c, 401, "unauthorized", refused);
    c.header("x-context-compactor-warning", "API_TOKEN is not set: local development only");
    return next();
  }
  // The scheme is case-insensitive (RFC 9110); Anthropic clients send their key as x-api-key: the worker's token, for them.
  const given = /^bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? c.req.header("x-api-key");
  if (!given || !sameSecret(given, token)) return fail(c, 401, "unauthorized", "a valid Authorization: Bearer token is required");
  return next();
};

export const COMPACTION_HEADERS = ["x-compaction-mode", "x-compaction-tokens-before", "x-compaction-tokens-after", "x-compaction-messages-before", "x-compaction-messages-after", "x-compaction-summary", "x-compaction-first-changed-index", "x-compaction-retried", "x-compaction-session", "x-compaction-shrunk", "x-compaction-trimmed"];

/** CORS for the listed origins only; `exposeHeaders` are the ones a listed page may read. */
export function corsAllowList(allowHeaders: string[], exposeHeaders: string[]): MiddlewareHandler<{ Bindings: Env }> {
  return cors({ origin: (origin, c) => (allowedOrigins(c.env).includes(origin) ? origin : null), allowHeaders, exposeHeaders });
}
