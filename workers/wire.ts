// What a proxy route sends upstream besides the body: the client's own headers and query string, as
// real clients (Claude Code, the OpenAI and Anthropic SDKs) send them, so that the upstream judges the
// request it would have seen. Shared by every proxy route.

/**
 * Never forwarded: hop-by-hop headers (RFC 9110 §7.6.1) and what the runtime sets itself, the client's
 * credentials for this worker (the upstream gets the worker's own key), the worker's own headers, and
 * what the edge adds about the client (its address is none of the upstream's business).
 */
const DROPPED = /^(?:connection|keep-alive|transfer-encoding|te|trailer|upgrade|proxy-[\w-]*|host|content-length|content-type|accept-encoding|authorization|x-api-key|cookie|x-session-id|x-context-window|x-compaction-[\w-]*|cf-[\w-]*|x-forwarded-[\w-]*|forwarded|x-real-ip|true-client-ip)$/i;

/** The client's headers worth passing on, then `own` (content type, the upstream's key) over them. */
export function forwardedHeaders(client: Headers, own: Record<string, string | undefined>): Headers {
  const out = new Headers();
  // Headers the client names in Connection are hop-by-hop too.
  const named = new Set((client.get("connection") ?? "").split(",").map((h) => h.trim().toLowerCase()));
  client.forEach((v, k) => {
    if (!DROPPED.test(k) && !named.has(k)) out.set(k, v);
  });
  for (const [k, v] of Object.entries(own)) if (v !== undefined) out.set(k, v);
  return out;
}

/** `base` + `path` with the client's query string (Claude Code's `?beta=true`). */
export function upstreamUrl(base: string, path: string, clientUrl: string): string {
  return `${base.replace(/\/+$/, "")}${path}${new URL(clientUrl).search}`;
}
