// Type tests (compiled, never run): the official SDKs' message types go into every entry point and
// come back out with no cast, under `strict`; another format's messages without their dialect object
// are a type error. Compiled by test/types/tsconfig.bundler.json and tsconfig.node16.json against the
// package as its users import it (`context-compactor`: src/ in `npm run typecheck`, the built
// dist/*.d.ts in test/package.test.ts).
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ModelMessage } from "ai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import {
  aiSdkMessages,
  anthropicMessages,
  compact,
  createCompactor,
  estimateTokens,
  openAIChat,
  openAIResponses,
  plan,
  previewPrune,
  type ChatMessage,
  type CompactOptions,
  type StandardSchemaV1,
} from "context-compactor";
import { convert, fromOpenAI } from "context-compactor/convert";

declare const chat: ChatCompletionMessageParam[];
declare const claude: MessageParam[];
declare const vercel: ModelMessage[];
declare const items: ResponseInputItem[];
declare const outputs: ResponseOutputItem[];
declare const own: ChatMessage[];
const window = { contextWindow: 128_000 };

export async function openAIChatIsTheDefault() {
  const r = await compact(chat, window);
  const back: ChatCompletionMessageParam[] = r.messages;
  const again: ChatCompletionMessageParam[] = (await compact(chat, { ...window, dialect: openAIChat })).messages;
  const readonlyIn: readonly ChatCompletionMessageParam[] = chat;
  const fromReadonly: ChatCompletionMessageParam[] = (await compact(readonlyIn, window)).messages;
  const compactor = createCompactor(window);
  const next: ChatCompletionMessageParam[] = (await compactor.compact(chat)).messages;
  compactor.observeUsage({ prompt_tokens: 1 }, next);
  const should: boolean = compactor.shouldCompact(chat);
  const total: number = plan(chat, window).tokens.total + previewPrune(chat, window).tokensAfter + estimateTokens(chat) + estimateTokens(chat[0]);
  // The package's own ChatMessage still goes in and out as itself.
  const mine: ChatMessage[] = (await compact(own, window)).messages;
  // Options typed ahead of the call, as a config module would hold them.
  const options: CompactOptions = { ...window, threshold: 0.8 };
  const typedAhead: ChatCompletionMessageParam[] = (await compact(chat, options)).messages;
  // Messages written inline are read as the SDK's.
  plan([{ role: "user", content: "hi" }, { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] }], window);
  return [back, again, fromReadonly, next, should, total, mine, typedAhead, fromOpenAI(chat, "anthropic")];
}

export async function anthropicWithItsDialect() {
  const options = { ...window, dialect: anthropicMessages, system: "be brief" };
  const r = await compact(claude, options);
  const back: MessageParam[] = r.messages;
  const compactor = createCompactor(options);
  const next: MessageParam[] = (await compactor.compact(claude)).messages;
  return [back, next, plan(claude, options), previewPrune(claude, options), estimateTokens(claude, options), r.system];
}

export async function aiSdkWithItsDialect() {
  const options = { ...window, dialect: aiSdkMessages };
  const back: ModelMessage[] = (await compact(vercel, options)).messages;
  const next: ModelMessage[] = (await createCompactor(options).compact(vercel)).messages;
  return [back, next, plan(vercel, options), previewPrune(vercel, options), estimateTokens(vercel, options)];
}

export async function responsesWithItsDialect() {
  const options = { ...window, dialect: openAIResponses };
  const back: ResponseInputItem[] = (await compact(items, options)).messages;
  const next: ResponseInputItem[] = (await createCompactor(options).compact(items)).messages;
  // The usual loop: the last response's output items appended to the input.
  const loop = await compact([...items, ...outputs], options);
  return [back, next, loop, plan(items, options), previewPrune(items, options), estimateTokens(items, options)];
}

export async function convertedMessagesGoToTheirDialect() {
  const converted = convert(chat, { from: "openai", to: "anthropic" });
  const r = await compact(converted.messages, { ...window, dialect: anthropicMessages, system: converted.system });
  const items = fromOpenAI(chat, "openai-responses").messages;
  return [r, await compact(items, { ...window, dialect: openAIResponses }), await compact(convert(claude, { from: "anthropic", to: "ai-sdk" }).messages, { ...window, dialect: aiSdkMessages })];
}

export async function anotherFormatWithoutItsDialectIsATypeError() {
  // @ts-expect-error Anthropic messages need dialect: anthropicMessages
  await compact(claude, window);
  // @ts-expect-error Anthropic messages need dialect: anthropicMessages
  plan(claude, window);
  // @ts-expect-error Anthropic messages need dialect: anthropicMessages
  await createCompactor(window).compact(claude);
  // @ts-expect-error AI SDK messages need dialect: aiSdkMessages
  await compact(vercel, window);
  // @ts-expect-error Responses items need dialect: openAIResponses
  await compact(items, window);
  // @ts-expect-error Chat Completions messages are no Anthropic messages
  await compact(chat, { ...window, dialect: anthropicMessages });
  // @ts-expect-error Chat Completions messages are no AI SDK messages
  await compact(chat, { ...window, dialect: aiSdkMessages });
  // @ts-expect-error Chat Completions messages are no Responses items
  await compact(chat, { ...window, dialect: openAIResponses });
  // @ts-expect-error Anthropic messages are no AI SDK messages
  await compact(claude, { ...window, dialect: aiSdkMessages });
  // @ts-expect-error Anthropic messages are no Responses items
  await compact(claude, { ...window, dialect: openAIResponses });
  // @ts-expect-error the result is the SDK's type, not another's
  const wrong: MessageParam[] = (await compact(chat, window)).messages;
  return wrong;
}

export async function eachDialectsRulesAreAStandardSchema(data: unknown) {
  const schemas: StandardSchemaV1<unknown, unknown[]>[] = [openAIChat.schema, anthropicMessages.schema, aiSdkMessages.schema, openAIResponses.schema];
  const result = await openAIChat.schema["~standard"].validate(data);
  if (result.issues) return result.issues.map((i) => `${i.path?.map((p) => (typeof p === "object" ? p.key : p)).join(".")}: ${i.message}`);
  // What the rules accept (the SDK's messages, or the looser ChatMessage), ready for a pass.
  const checked = result.value;
  return [schemas, await compact(checked, window), convert(checked, { from: "openai", to: "anthropic" })];
}
