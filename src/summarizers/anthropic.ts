// anthropic: the Messages API, streamed.
import { SummarizerError } from "../errors.js";
import type { FailureKind, Summarizer } from "../summarize/types.js";
import { finishFailure, parseData, streamEvents, type FetchConfig } from "./http.js";
import type { SSEEvent } from "./sse.js";

const ERROR_KINDS: Record<string, FailureKind> = {
  overloaded_error: "overloaded",
  api_error: "overloaded",
  rate_limit_error: "rate_limit",
  authentication_error: "auth",
  permission_error: "auth",
  not_found_error: "not_found",
  request_too_large: "http",
  invalid_request_error: "http",
  timeout_error: "timeout",
};
const STOP_FAILURES: Record<string, FailureKind> = { refusal: "refusal" };

/** Reads Messages API events: text deltas are the summary; thinking, ping and tool blocks are not. */
export async function* anthropicText(events: AsyncIterable<SSEEvent>): AsyncGenerator<string> {
  let started = false;
  for await (const e of events) {
    const ev = parseData(e);
    switch (ev?.type) {
      case "message_start":
        if (started) throw new SummarizerError("malformed", "a second message_start in one stream");
        started = true;
        break;
      case "content_block_delta":
        if (ev.delta?.type === "text_delta" && ev.delta.text) yield ev.delta.text;
        break;
      case "message_delta": {
        const stop = ev.delta?.stop_reason;
        const failure = stop ? finishFailure(stop, STOP_FAILURES) : undefined;
        if (failure) throw new SummarizerError(failure, `stop_reason ${stop}`);
        break;
      }
      case "error":
        throw new SummarizerError(ERROR_KINDS[ev.error?.type] ?? "error", String(ev.error?.message ?? "error event in the stream"));
      case "message_stop":
        return;
    }
  }
  throw new SummarizerError("cut_off", "the stream ended without message_stop");
}

export function anthropic(config: FetchConfig): Summarizer {
  const baseURL = (config.baseURL ?? "https://api.anthropic.com").replace(/\/+$/, "");
  const summarizer: Summarizer = (req) => {
    const system = req.messages.filter((m) => m.role === "system").map((m) => String(m.content)).join("\n\n");
    const messages = req.messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role === "assistant" ? "assistant" : "user", content: String(m.content) }));
    const headers: Record<string, string> = { "anthropic-version": "2023-06-01" };
    if (config.apiKey) headers["x-api-key"] = config.apiKey;
    return anthropicText(
      streamEvents(config, `${baseURL}/v1/messages`, headers, { model: config.model, system, messages, max_tokens: req.maxOutputTokens, stream: true }, req.signal),
    );
  };
  summarizer.label = `anthropic:${config.model}`;
  summarizer.model = config.model;
  return summarizer;
}
