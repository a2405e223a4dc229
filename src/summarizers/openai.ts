// openAICompatible: any /chat/completions endpoint, streamed.
import { SummarizerError } from "../errors.js";
import type { FailureKind, Summarizer } from "../summarize/types.js";
import { finishFailure, parseData, statusKind, streamEvents, type FetchConfig } from "./http.js";
import type { SSEEvent } from "./sse.js";

/** finish_reason values that mean the summary is not a whole answer (besides any length limit). */
const FINISH_FAILURES: Record<string, FailureKind> = { content_filter: "refusal", error: "error" };

/**
 * One OpenAI chat-completion chunk: the content delta of choice 0, or undefined. Reasoning is
 * ignored; a refusal, an error object or a failing finish_reason throw. Sets `state.finished`.
 */
export function openAIChunk(chunk: any, state: { finished: boolean }): string | undefined {
  if (chunk?.error) {
    const code = Number(chunk.error.code ?? chunk.error.status);
    const kind = Number.isFinite(code) && code >= 400 ? statusKind(code) : chunk.error.type === "server_error" ? "overloaded" : "error";
    throw new SummarizerError(kind, String(chunk.error.message ?? "error event in the stream"));
  }
  let text: string | undefined;
  for (const choice of chunk?.choices ?? []) {
    if ((choice.index ?? 0) !== 0) continue;
    const delta = choice.delta ?? {};
    if (delta.refusal) throw new SummarizerError("refusal", `the model refused: ${String(delta.refusal)}`); // whole: the chain redacts, then caps
    if (typeof delta.content === "string" && delta.content) text = delta.content;
    if (choice.finish_reason) {
      const failure = finishFailure(choice.finish_reason, FINISH_FAILURES);
      if (failure) throw new SummarizerError(failure, `finish_reason ${choice.finish_reason}`);
      state.finished = true;
    }
  }
  return text;
}

/** The summary text of an OpenAI chat-completions stream; a stream without a finish is cut off. */
export async function* openAIText(events: AsyncIterable<SSEEvent>): AsyncGenerator<string> {
  const state = { finished: false };
  for await (const e of events) {
    if (e.data === "[DONE]") break;
    const text = openAIChunk(parseData(e), state);
    if (text) yield text;
  }
  if (!state.finished) throw new SummarizerError("cut_off", "the stream ended without a finish_reason");
}

export function openAICompatible(config: FetchConfig): Summarizer {
  const baseURL = (config.baseURL ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  const summarizer: Summarizer = (req) =>
    openAIText(
      streamEvents(
        config,
        `${baseURL}/chat/completions`,
        config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
        { model: config.model, messages: req.messages, stream: true, max_tokens: req.maxOutputTokens },
        req.signal,
      ),
    );
  summarizer.label = `openai:${config.model}`;
  summarizer.model = config.model;
  return summarizer;
}
