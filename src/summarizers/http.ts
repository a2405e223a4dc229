// One streamed POST: timeouts, aborts and HTTP failures turned into classified SummarizerErrors.
import { SummarizerError } from "../errors.js";
import type { FailureKind } from "../summarize/types.js";
import { eventsOf, type SSEEvent } from "./sse.js";

export interface FetchConfig {
  baseURL?: string;
  apiKey?: string;
  model: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Longest wait for the first byte, and between two chunks of the stream (default 60 s). */
  timeoutMs?: number;
}

export function statusKind(status: number): FailureKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 408 || status === 504) return "timeout";
  if (status === 429) return "rate_limit";
  if (status >= 500) return "overloaded";
  return "http";
}

async function errorMessage(res: Response): Promise<string> {
  const body = await res.text().catch(() => "");
  let message = body;
  try {
    const j = JSON.parse(body);
    message = j?.error?.message ?? j?.message ?? body;
  } catch {
    // not JSON: the text itself
  }
  // Whole: the chain redacts it whole, then caps it (a cut first could leave a piece of an echoed key).
  return `HTTP ${res.status}${message ? `: ${String(message)}` : ""}`;
}

/**
 * POSTs `body` and yields the SSE events of the answer. The timer restarts with every chunk, so a
 * slow but live stream is never cut, and a silent one fails as "timeout". The caller's signal aborts
 * at once (an AbortError, which the chain turns into mode "aborted").
 */
export async function* streamEvents(
  config: FetchConfig,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal | undefined,
): AsyncGenerator<SSEEvent> {
  const controller = new AbortController();
  const timeoutMs = config.timeoutMs ?? 60_000;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
  };
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort);
  const fail = (error: unknown, kind: FailureKind = "network"): never => {
    if (signal?.aborted) throw signal.reason ?? error;
    if (timedOut) throw new SummarizerError("timeout", `no data for ${timeoutMs} ms`);
    throw new SummarizerError(kind, error instanceof Error ? error.message : String(error));
  };
  try {
    arm();
    let res: Response;
    try {
      res = await (config.fetch ?? fetch)(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", ...headers, ...config.headers },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (error) {
      return fail(error);
    }
    if (!res.ok) throw new SummarizerError(statusKind(res.status), await errorMessage(res), res.status);
    if (!res.body) throw new SummarizerError("malformed", "the response has no body");
    const reader = eventsOf(res.body).getReader();
    try {
      for (;;) {
        arm();
        let next: ReadableStreamReadResult<SSEEvent>;
        try {
          next = await reader.read();
        } catch (error) {
          return fail(error, "cut_off"); // the connection broke mid-stream
        }
        if (next.done) return;
        yield next.value;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Names a length or token limit: "length", "max_tokens", "model_length", "MAX_TOKENS", "context_window_exceeded"… */
const LENGTH_LIMIT = /length|max_?(?:output_?)?tokens|limit|window|too_?long/i;

/** How a finish/stop reason fails, by the provider's table (own keys only), else by meaning; undefined for a whole answer. */
export function finishFailure(reason: unknown, table: Record<string, FailureKind>): FailureKind | undefined {
  const r = String(reason);
  return Object.hasOwn(table, r) ? table[r] : LENGTH_LIMIT.test(r) ? "truncated" : undefined;
}

/** JSON of one event's data, or a "malformed" failure naming it. */
export function parseData(e: SSEEvent): any {
  try {
    return JSON.parse(e.data);
  } catch {
    throw new SummarizerError("malformed", `unparsable event data: ${e.data}`); // whole: see errorMessage
  }
}
