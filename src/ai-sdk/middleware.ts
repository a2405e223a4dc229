// compactionMiddleware: `wrapLanguageModel({ model, middleware: compactionMiddleware(...) })`.
import type { LanguageModelMiddleware } from "ai";
import type { ModelMessage } from "../dialects/ai-sdk.js";
import { createHistory, type AiSdkCompactionOptions } from "./history.js";
import { languageModelPrompt } from "./prompt.js";

type Prompt = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"]["prompt"];

/** Provider-level usage ({ inputTokens: { total } }) in the shape calibration reads. */
function inputTokens(usage: { inputTokens?: { total?: number } } | undefined): { inputTokens: number } | undefined {
  const total = usage?.inputTokens?.total;
  return typeof total === "number" ? { inputTokens: total } : undefined;
}

/**
 * Middleware that compacts the provider-level prompt before each call, with the same persistence as
 * `compactionStep`: wrap one model per conversation, since the middleware keeps that conversation's base.
 */
export function compactionMiddleware(options: AiSdkCompactionOptions): LanguageModelMiddleware {
  const history = createHistory(options, languageModelPrompt);
  return {
    specificationVersion: "v3",
    transformParams: async ({ params }) => ({
      ...params,
      prompt: (await history.prepare(params.prompt as ModelMessage[], params.abortSignal)) as Prompt,
    }),
    wrapGenerate: async ({ doGenerate }) => {
      const result = await doGenerate();
      await history.observeUsage(inputTokens(result.usage));
      return result;
    },
    wrapStream: async ({ doStream }) => {
      const result = await doStream();
      // The finish part carries the usage; every part passes on untouched.
      const watch = new TransformStream<(typeof result.stream extends ReadableStream<infer P> ? P : never)>({
        async transform(part, out) {
          if (part.type === "finish") await history.observeUsage(inputTokens(part.usage));
          out.enqueue(part);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(watch) };
    },
  };
}
