// compactionStep: a `prepareStep` for generateText, streamText and ToolLoopAgent.
import type { ModelMessage as AiModelMessage } from "ai";
import { modelMessages, type ModelMessage } from "../dialects/ai-sdk.js";
import { createHistory, type AiSdkCompactionOptions } from "./history.js";

/** What `prepareStep` is given, as far as compaction reads it (a structural subset of the SDK's options). */
export interface PrepareStepInput {
  steps: ReadonlyArray<{ usage?: unknown }>;
  stepNumber: number;
  messages: AiModelMessage[];
}

/**
 * A `prepareStep` that keeps the transcript under the window: the compacted messages persist as the
 * base of every later step (and run, with a `store`), a pass runs only when the threshold is crossed,
 * and each step's usage calibrates the estimate. Use one per conversation.
 */
export function compactionStep(options: AiSdkCompactionOptions): (step: PrepareStepInput) => Promise<{ messages: AiModelMessage[] }> {
  const history = createHistory(options, modelMessages);
  return async ({ steps, stepNumber, messages }) => {
    // The previous step's input tokens count what this function returned for it.
    if (stepNumber > 0) await history.observeUsage(steps[stepNumber - 1]?.usage);
    return { messages: (await history.prepare(messages as ModelMessage[])) as AiModelMessage[] };
  };
}
