// Side by side on the same fixtures and budget: context-compactor, AI SDK pruneMessages, LangChain trimMessages
// and summarizationMiddleware, Google ADK's TokenBasedContextCompactor (the last two with a fake model).
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { pruneMessages, type ModelMessage } from "ai";
import type * as Convert from "../src/convert.js";
import type * as Entry from "../src/index.js";
import type { ChatMessage } from "../src/index.js";
import { openAIValidity } from "../test/support/validity.js";
import { trajectories } from "../test/support/fixtures.js";
import { bundleSize, packaged, table, time } from "./lib.js";

/** Ours as an app ships it (`packaged`), as the peers run their published code: loaded by `peersBench`. */
let compact: typeof Entry.compact;
let estimateTokens: typeof Entry.estimateTokens;
let fromOpenAI: typeof Convert.fromOpenAI;
let toOpenAI: typeof Convert.toOpenAI;

const WINDOW = 32_000;
const BUDGET = WINDOW * 0.75;
/** What our compact keeps verbatim at the end (its default tailTokens, 20 % of the threshold), given to LangChain's `keep`. */
const TAIL = BUDGET * 0.2;
/** ADK keeps a number of events, not tokens, and has no default: LangChain's default keep (20 messages). */
const ADK_EVENTS_KEPT = 20;
/** What both fake models answer, whatever they are sent: ~1,000 tokens, about the size of our handoff at 32k. */
const FAKE_SUMMARY = "The fake model's fixed summary. ".repeat(125);

const parsedArguments = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
};
const textOf = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));

function toLangChain(messages: ChatMessage[]): BaseMessage[] {
  return messages.map((m) => {
    const content = textOf(m);
    if (m.role === "system" || m.role === "developer") return new SystemMessage(content);
    if (m.role === "user") return new HumanMessage(content);
    if (m.role === "tool") return new ToolMessage({ content, tool_call_id: m.tool_call_id! });
    return new AIMessage({
      content,
      tool_calls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: parsedArguments(c.function.arguments), type: "tool_call" as const })),
    });
  });
}

function fromLangChain(messages: BaseMessage[]): ChatMessage[] {
  return messages.map((m) => {
    const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
    const type = m.getType();
    if (type === "system") return { role: "system", content };
    if (type === "human") return { role: "user", content };
    if (type === "tool") return { role: "tool", tool_call_id: (m as ToolMessage).tool_call_id, content };
    const calls = (m as AIMessage).tool_calls ?? [];
    return calls.length
      ? { role: "assistant", content, tool_calls: calls.map((c) => ({ id: c.id!, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } })) }
      : { role: "assistant", content };
  });
}

/**
 * Our estimator as LangChain's token counter, per message and remembered per message object: both
 * LangChain rows call it on many slices, and converting each message anew on every call would time
 * the converter, not LangChain.
 */
const lcTokens = new WeakMap<BaseMessage, number>();
const lcCounter = (ms: BaseMessage[]) =>
  ms.reduce((sum, m) => {
    let n = lcTokens.get(m);
    if (n === undefined) lcTokens.set(m, (n = estimateTokens(fromLangChain([m]))));
    return sum + n;
  }, 0);

/** Tokens of the last prompt a fake model was sent: what a real one would have to read (counted after the timing). */
const promptTokens = (text: string) => estimateTokens([{ role: "user", content: text }]);

/**
 * LangChain's summarizationMiddleware, its `beforeModel` hook called as createAgent would before a model
 * call: over `trigger` it summarizes everything before the last `keep` tokens (never splitting an AI
 * message from its tool results) into one human message, with one model call. The system prompt stays
 * outside (createAgent's `systemPrompt`), as leading system messages here.
 */
async function langChainSummarization(messages: ChatMessage[]) {
  const model = new FakeListChatModel({ responses: [FAKE_SUMMARY] });
  let prompt: string | undefined;
  const invoke = model.invoke.bind(model);
  model.invoke = (input, options) => ((prompt = String(input)), invoke(input, options));
  const { summarizationMiddleware } = await import("langchain");
  const middleware = summarizationMiddleware({ model, trigger: { tokens: BUDGET }, keep: { tokens: TAIL }, tokenCounter: lcCounter });
  const beforeModel = middleware.beforeModel as (state: { messages: BaseMessage[] }, runtime: { context: object }) => Promise<{ messages: BaseMessage[] } | undefined>;
  const system = leadingSystem(messages);
  const conversation = toLangChain(messages.slice(system.length));
  const run = async () => {
    const update = await beforeModel({ messages: [...conversation] }, { context: {} });
    return [...system, ...fromLangChain((update?.messages ?? conversation).filter((m) => !RemoveMessage.isInstance(m)))];
  };
  return { run, sent: () => (prompt === undefined ? 0 : promptTokens(prompt)) };
}

const leadingSystem = (messages: ChatMessage[]) => messages.slice(0, Math.max(0, messages.findIndex((m) => m.role !== "system" && m.role !== "developer")));

type AdkContent = { role?: string; parts?: AdkPart[] };
type AdkPart = { text?: string; functionCall?: { id?: string; name?: string; args?: Record<string, unknown> }; functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> } };

/** Our transcript as ADK session events: one per message, a turn's tool results merged into one event as ADK writes them. */
function toAdkEvents(adk: typeof import("@google/adk"), messages: ChatMessage[], agent: string) {
  const names = new Map<string, string>();
  const events: ReturnType<typeof adk.createEvent>[] = [];
  const add = (author: string, content: AdkContent) => events.push(adk.createEvent({ author, content, invocationId: "bench", timestamp: events.length + 1 }));
  for (const m of messages) {
    if (m.role === "user") add("user", { role: "user", parts: [{ text: textOf(m) }] });
    else if (m.role === "assistant") {
      const calls = (m.tool_calls ?? []).map((c) => (names.set(c.id, c.function.name), { functionCall: { id: c.id, name: c.function.name, args: parsedArguments(c.function.arguments) } }));
      add(agent, { role: "model", parts: [...(textOf(m) ? [{ text: textOf(m) }] : []), ...calls] });
    } else if (m.role === "tool") {
      const part = { functionResponse: { id: m.tool_call_id, name: names.get(m.tool_call_id!) ?? "tool", response: { result: textOf(m) } } };
      const last = events.at(-1)?.content as AdkContent | undefined;
      if (last?.parts?.[0]?.functionResponse) last.parts.push(part);
      else add(agent, { role: "user", parts: [part] });
    } else add("user", { role: "user", parts: [{ text: textOf(m) }] }); // a system message inside the transcript: ADK has no such event
  }
  return events;
}

/** What ADK sends the model (Gemini contents) back as chat messages, to count and check the same way. */
function fromAdkContents(contents: AdkContent[]): ChatMessage[] {
  return contents.flatMap((c): ChatMessage[] => {
    const parts = c.parts ?? [];
    const text = parts.flatMap((p) => (p.text ? [p.text] : [])).join("\n");
    if (c.role === "model") {
      const calls = parts.flatMap((p) => (p.functionCall ? [{ id: p.functionCall.id!, type: "function" as const, function: { name: p.functionCall.name!, arguments: JSON.stringify(p.functionCall.args ?? {}) } }] : []));
      return [calls.length ? { role: "assistant", content: text, tool_calls: calls } : { role: "assistant", content: text }];
    }
    const results = parts.flatMap((p): ChatMessage[] => {
      const r = p.functionResponse;
      return r ? [{ role: "tool", tool_call_id: r.id!, content: typeof r.response?.result === "string" ? r.response.result : JSON.stringify(r.response ?? {}) }] : [];
    });
    return [...results, ...(text ? [{ role: "user" as const, content: text }] : [])];
  });
}

/**
 * Google ADK's TokenBasedContextCompactor with its LlmSummarizer, run as an LlmAgent's request processors
 * run before a model call (the compactor's processor, then the one that builds the contents): over
 * `tokenThreshold` (its own estimate, characters ÷ 4, without usage metadata) it summarizes every event
 * before the last `eventRetentionSize` (reaching back to keep a response with its call), sending the
 * span's text to the model (no tool calls, no tool outputs); the summary goes in as a user message.
 * The system prompt is the agent's instruction, outside the events.
 */
async function adkTokenBased(messages: ChatMessage[]) {
  const adk = await import("@google/adk");
  let prompt: AdkContent[] | undefined;
  class FixedSummaryLlm extends adk.BaseLlm {
    constructor() {
      super({ model: "fixed-summary" });
    }
    async *generateContentAsync(request: { contents: AdkContent[] }) {
      prompt = request.contents;
      yield { content: { role: "model", parts: [{ text: FAKE_SUMMARY }] } };
    }
    connect(): never {
      throw new Error("not used");
    }
  }
  const llm = new FixedSummaryLlm();
  const system = leadingSystem(messages);
  const compactor = new adk.TokenBasedContextCompactor({ tokenThreshold: BUDGET, eventRetentionSize: ADK_EVENTS_KEPT, summarizer: new adk.LlmSummarizer({ llm }) });
  const agent = new adk.LlmAgent({ name: "agent", model: llm, instruction: system.map(textOf).join("\n") });
  const events = toAdkEvents(adk, messages.slice(system.length), agent.name);
  const compaction = new adk.ContextCompactorRequestProcessor([compactor]);
  const run = async () => {
    const session = adk.createSession({ id: "bench", appName: "bench", events: [...events] });
    const context = new adk.InvocationContext({ invocationId: "bench", agent, session, pluginManager: new adk.PluginManager() } as ConstructorParameters<typeof adk.InvocationContext>[0]);
    const request = { contents: [] as AdkContent[] };
    for (const processor of [compaction, adk.CONTENT_REQUEST_PROCESSOR]) for await (const _ of processor.runAsync(context, request as never));
    return [...system, ...fromAdkContents(request.contents)];
  };
  return { run, sent: () => (prompt ? promptTokens(prompt.flatMap((c) => (c.parts ?? []).map((p) => p.text ?? "")).join("\n")) : 0) };
}

/**
 * Whether the last user request of the input is still a user message of the output. Claude Code's
 * own continuation summaries ("This session is being continued…") are summaries, not requests.
 */
function latestSurvives(input: ChatMessage[], output: ChatMessage[]): boolean {
  const last = [...input]
    .reverse()
    .find((m) => m.role === "user" && typeof m.content === "string" && m.content.trim() && !m.content.startsWith("This session is being continued"));
  return !last || output.some((m) => m.role === "user" && typeof m.content === "string" && m.content.includes(String(last.content)));
}

interface Outcome {
  ms: number;
  tokens: number;
  valid: boolean;
  latest: boolean;
  /** Tokens sent to the (fake) summarizing model, for the peers that call one. */
  sent?: number;
}

async function measure(input: ChatMessage[], run: () => Promise<ChatMessage[]> | ChatMessage[], sent?: () => number): Promise<Outcome> {
  const ms = await time(run, 5, 1);
  const out = await run();
  return { ms, tokens: estimateTokens(out), valid: openAIValidity(out).length === 0, latest: latestSurvives(input, out), sent: sent?.() };
}

const OURS = "context-compactor compact (deterministic)";
const PRUNE = "AI SDK pruneMessages (tool calls before the last 2 messages)";
const TRIM = "LangChain trimMessages (last, 24k budget, start on human)";
const SUMMARIZE = "LangChain summarizationMiddleware (trigger 24k, keep 4.8k tokens, fake model)";
const ADK = `Google ADK TokenBasedContextCompactor (threshold 24k, keep ${ADK_EVENTS_KEPT} events, fake model)`;

/** esbuild's browser bundle of the import, or why there is none. */
async function gzipOf(entry: string, name: string): Promise<string> {
  try {
    return `${((await bundleSize(entry, [name])).gzip / 1024).toFixed(1)} KiB`;
  } catch (e) {
    const unresolved = new Set(((e as { errors?: { text: string }[] }).errors ?? []).map((x) => /Could not resolve "([^"]+)"/.exec(x.text)?.[1]).filter(Boolean));
    if (!unresolved.size) throw e;
    return `— (no browser bundle: it imports ${[...unresolved].slice(0, 4).join(", ")}…)`;
  }
}

export async function peersBench(): Promise<string> {
  return packaged(["src/index.ts", "src/convert.ts"], async (bundle) => {
    ({ compact, estimateTokens } = await bundle.load<typeof Entry>("index.js"));
    ({ fromOpenAI, toOpenAI } = await bundle.load<typeof Convert>("convert.js"));
    return measured();
  });
}

async function measured(): Promise<string> {
  const big = trajectories().filter((t) => estimateTokens(t.messages) > BUDGET);
  const totals: Record<string, { ms: number; tokens: number; valid: number; latest: number; over: number; sent: number; unsent: number }> = {};
  const add = (name: string, o: Outcome) => {
    const t = (totals[name] ??= { ms: 0, tokens: 0, valid: 0, latest: 0, over: 0, sent: 0, unsent: 0 });
    t.ms += o.ms;
    t.tokens += o.tokens;
    t.valid += o.valid ? 1 : 0;
    t.latest += o.latest ? 1 : 0;
    t.over += o.tokens > BUDGET ? 1 : 0;
    t.sent += o.sent ?? Number.NaN;
    t.unsent += o.sent === 0 ? 1 : 0;
  };
  let before = 0;
  for (const { messages } of big) {
    before += estimateTokens(messages);
    add(OURS, await measure(messages, async () => (await compact(messages, { contextWindow: WINDOW })).messages));
    const modelMessages = fromOpenAI(messages, "ai-sdk").messages as ModelMessage[];
    add(PRUNE, await measure(messages, () =>
      toOpenAI(pruneMessages({ messages: modelMessages, toolCalls: "before-last-2-messages", reasoning: "before-last-message", emptyMessages: "remove" }), "ai-sdk").messages,
    ));
    const lc = toLangChain(messages);
    add(TRIM, await measure(messages, async () =>
      fromLangChain(await trimMessages(lc, { maxTokens: BUDGET, strategy: "last", tokenCounter: lcCounter, includeSystem: true, startOn: "human" })),
    ));
    const summarization = await langChainSummarization(messages);
    add(SUMMARIZE, await measure(messages, summarization.run, summarization.sent));
    const adk = await adkTokenBased(messages);
    add(ADK, await measure(messages, adk.run, adk.sent));
  }
  const sizes: Record<string, string> = {
    [OURS]: await gzipOf("src/index.ts", "compact"),
    [PRUNE]: await gzipOf("node_modules/ai/dist/index.mjs", "pruneMessages"),
    [TRIM]: await gzipOf("node_modules/@langchain/core/dist/messages/index.js", "trimMessages"),
    [SUMMARIZE]: await gzipOf("node_modules/langchain/dist/browser.js", "summarizationMiddleware"),
    [ADK]: await gzipOf("node_modules/@google/adk/dist/web/index_web.js", "TokenBasedContextCompactor"),
  };
  const n = big.length;
  const mean = (x: number) => (Number.isNaN(x) ? "none" : Math.round(x / n).toLocaleString("en-US"));
  const rows: string[][] = Object.entries(totals).map(([name, t]) => [
    name,
    (t.ms / n).toFixed(2),
    Math.round(t.tokens / n).toLocaleString("en-US"),
    `${t.over}/${n}`,
    `${t.valid}/${n}`,
    `${t.latest}/${n}`,
    mean(t.sent),
    sizes[name],
  ]);
  return (
    `The ${n} fixtures over a ${BUDGET.toLocaleString("en-US")}-token budget (window ${WINDOW.toLocaleString("en-US")}, threshold 0.75), ` +
    `${Math.round(before / n).toLocaleString("en-US")} tokens on average before; tokens counted with the same estimator for all, validity with the same checker (OpenAI's tool-call pairing, on each output converted back to chat messages).\n\n` +
    table(["tool", "ms / transcript", "tokens after (mean)", "still over budget", "tool pairs valid", "latest request kept", "tokens sent to a model (mean)", "bundle (gzip) of the import"], rows) +
    "\n\npruneMessages has no token budget (it only drops tool content by position), so whether a long session lands under a window is chance (here, with every tool output but the last 2 messages' dropped, it did); trimMessages drops whole old turns, the handoff context with them. " +
    `summarizationMiddleware and ADK's TokenBasedContextCompactor call a model to write the summary: here a fake one (LangChain's FakeListChatModel, a BaseLlm subclass for ADK) that answers a fixed ${promptTokens(FAKE_SUMMARY).toLocaleString("en-US")}-token text at once, so their milliseconds leave out the model call (seconds, and money, with a real one) and their tokens after count that fixed text as the summary. ` +
    `What a real model would have to read is the column before the bundle (the mean over the ${n}, the prompt included): LangChain trims the span to its last 4,000 tokens first (\`trimTokensToSummarize\`), so the summary never sees the older turns, and when the span's last message alone is over that (${totals[SUMMARIZE].unsent} of ${n} here) it calls no model and writes "Previous conversation was too long to summarize."; ADK's LlmSummarizer sends the span's text parts only, so the summary never sees a tool call or a tool output. ` +
    `summarizationMiddleware keeps the last ${TAIL.toLocaleString("en-US")} tokens (our tail's size) and its \`beforeModel\` hook is called directly, as createAgent would before a model call; ADK keeps the last ${ADK_EVENTS_KEPT} events (it counts events, not tokens, and has no default: ${ADK_EVENTS_KEPT} is LangChain's default keep) and runs as an LlmAgent's request processors (compaction, then building the contents). ` +
    "The LangChain rows count tokens with our estimator, per message, remembered per message object; ADK decides with its own estimate (characters ÷ 4). Bundle sizes are esbuild, browser, minified, of `import { that function }`. All run in one process, each transcript in turn; ours is src/ bundled as an app ships it (`packaged` in bench/lib.ts), as the others run their published code."
  );
}
