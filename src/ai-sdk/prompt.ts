// The AI SDK's provider-level prompt (LanguageModelV3Prompt): ModelMessage's shape, except that user
// and assistant content is always an array of parts. Only the handoff message and a turn left empty
// by reasoning pruning differ in writing.
import { modelMessages, type ModelMessage } from "../dialects/ai-sdk.js";
import type { Dialect } from "../dialects/view.js";

/** `LanguageModelV3Prompt` messages, what `transformParams` middleware sees as `params.prompt`. */
export const languageModelPrompt: Dialect<ModelMessage> = {
  ...modelMessages,
  name: "ai-sdk-prompt",
  handoff: (role, text) => ({ role, content: [{ type: "text", text }] }),
  // Reasoning parts pruned as in ModelMessage; a turn that only reasoned keeps a note, in parts (a
  // string is not V3 content, and providers refuse an empty assistant message).
  withoutReasoning: (m) => {
    const out = modelMessages.withoutReasoning!(m);
    if (!out || typeof out.message.content !== "string") return out;
    return { ...out, message: { ...out.message, content: [{ type: "text", text: "[reasoning pruned]" }] } as ModelMessage };
  },
};
