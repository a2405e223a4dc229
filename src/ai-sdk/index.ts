// context-compactor/ai-sdk: compaction wired into the Vercel AI SDK's own hooks. `ai` is used for
// types only: nothing from it is imported at run time.
export { compactionStep, type PrepareStepInput } from "./step.js";
export { compactionMiddleware } from "./middleware.js";
export { languageModelPrompt } from "./prompt.js";
export type { AiSdkCompactionEvent, AiSdkCompactionOptions, CompactionStore, SavedCompaction } from "./history.js";
