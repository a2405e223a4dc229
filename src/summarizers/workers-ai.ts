// workersAI: the Workers AI binding (env.AI), streamed.
import { SummarizerError } from "../errors.js";
import type { Summarizer } from "../summarize/types.js";
import { parseData } from "./http.js";
import { openAIChunk } from "./openai.js";
import { eventsOf, type SSEEvent } from "./sse.js";

/** The part of the Workers AI binding we use. */
export interface WorkersAIBinding {
  run(model: string, input: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

/**
 * Workers AI streams either its native chunks (`{response}`, maybe with `tool_calls` or `p` padding)
 * or OpenAI-compatible ones (`{choices}`), ending with [DONE].
 */
export async function* workersAIText(events: AsyncIterable<SSEEvent>): AsyncGenerator<string> {
  const state = { finished: false };
  let openAIStyle = false;
  for await (const e of events) {
    if (e.data === "[DONE]") {
      if (openAIStyle && !state.finished) break;
      return;
    }
    const chunk = parseData(e);
    openAIStyle ||= Array.isArray(chunk?.choices);
    const text = openAIStyle ? openAIChunk(chunk, state) : chunk?.response;
    if (typeof text === "string" && text) yield text;
  }
  throw new SummarizerError("cut_off", "the stream ended without its end");
}

export function workersAI(binding: WorkersAIBinding, model: string): Summarizer {
  const summarizer: Summarizer = async function* (req) {
    let result: unknown;
    try {
      result = await binding.run(model, { messages: req.messages, stream: true, max_tokens: req.maxOutputTokens }, { signal: req.signal });
    } catch (error) {
      if (req.signal?.aborted) throw error;
      throw new SummarizerError("error", error instanceof Error ? error.message : String(error));
    }
    if (result instanceof ReadableStream) {
      yield* workersAIText(eventsOf(result));
      return;
    }
    const text = (result as { response?: unknown } | null)?.response;
    if (typeof text !== "string") throw new SummarizerError("malformed", "Workers AI returned neither a stream nor a response");
    yield text;
  };
  summarizer.label = `workers-ai:${model}`;
  summarizer.model = model;
  return summarizer;
}
