// The AI SDK's provider-level prompt (LanguageModelV3Prompt): ModelMessage's shape, except that user
// and assistant content is always an array of parts. Only the handoff message differs in writing.
import { aiSdkMessages, type ModelMessage } from "../dialects/ai-sdk.js";
import type { Dialect } from "../dialects/view.js";

/** `LanguageModelV3Prompt` messages, what `transformParams` middleware sees as `params.prompt`. */
export const languageModelPrompt: Dialect<ModelMessage> = {
  ...aiSdkMessages,
  name: "ai-sdk-prompt",
  handoff: (role, text) => ({ role, content: [{ type: "text", text }] }),
};
