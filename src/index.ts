// context-compactor: the isomorphic core. Web-standard APIs only.
export { compact, estimateTokens, plan } from "./compact.js";
export { previewPrune, type PrunePreview } from "./preview.js";
export { createCompactor, type Compactor } from "./compactor.js";
export { CompactionInputError, SummarizerError } from "./errors.js";
export { redact } from "./redact/index.js";
export { normalizeRef, recall, recallTool, type RecallOptions } from "./archive/recall.js";
export { deterministicSummarizer } from "./summarizers/local.js";
export { openAICompatible } from "./summarizers/openai.js";
export { anthropic } from "./summarizers/anthropic.js";
export { workersAI, type WorkersAIBinding } from "./summarizers/workers-ai.js";
export type { FetchConfig } from "./summarizers/http.js";
export { HANDOFF_END, HANDOFF_PREFIX, SYSTEM_NOTE } from "./assemble/handoff.js";
export { heuristicTokens } from "./estimate/index.js";
export { openAIChat } from "./dialects/openai.js";
export { anthropicMessages, type AnthropicBlock, type AnthropicMessage } from "./dialects/anthropic.js";
export { aiSdkMessages, type ModelMessage, type ModelPart } from "./dialects/ai-sdk.js";
export type { Answer, Dialect, MessageView, NeutralRole, ToolCallView, ToolResultView } from "./dialects/view.js";
export type * from "./types.js";
