// context-compactor/convert: moving transcripts between the OpenAI, Anthropic and AI SDK formats.
// Its own entry: compaction never needs it (each dialect works in place), so the core stays smaller.
export { convert, detectDialect, dialects, fromOpenAI, toOpenAI, type Converted, type MessagesOf } from "./dialects/convert.js";
