// Side by side on the same fixtures and budget: context-compactor, AI SDK pruneMessages, LangChain trimMessages.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { pruneMessages, type ModelMessage } from "ai";
import { fromOpenAI, toOpenAI } from "../src/convert.js";
import { compact, estimateTokens, type ChatMessage } from "../src/index.js";
import { openAIValidity } from "../test/support/validity.js";
import { trajectories } from "../test/support/fixtures.js";
import { bundleSize, table, time } from "./lib.js";

const WINDOW = 32_000;
const BUDGET = WINDOW * 0.75;

function toLangChain(messages: ChatMessage[]): BaseMessage[] {
  return messages.map((m) => {
    const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
    if (m.role === "system" || m.role === "developer") return new SystemMessage(content);
    if (m.role === "user") return new HumanMessage(content);
    if (m.role === "tool") return new ToolMessage({ content, tool_call_id: m.tool_call_id! });
    return new AIMessage({
      content,
      tool_calls: (m.tool_calls ?? []).map((c) => {
        let args: Record<string, unknown> = {};
        try {
          args = JSON.parse(c.function.arguments);
        } catch {
          args = { arguments: c.function.arguments };
        }
        return { id: c.id, name: c.function.name, args, type: "tool_call" as const };
      }),
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

const lcCounter = (ms: BaseMessage[]) => estimateTokens(fromLangChain(ms));

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
}

async function measure(input: ChatMessage[], run: () => Promise<ChatMessage[]> | ChatMessage[]): Promise<Outcome> {
  const ms = await time(run, 5, 1);
  const out = await run();
  return { ms, tokens: estimateTokens(out), valid: openAIValidity(out).length === 0, latest: latestSurvives(input, out) };
}

/** Peers the issue names that need a package this repo does not install: said, never stood in for. */
const ABSENT = [
  ["LangChain summarizationMiddleware", "langchain"],
  ["Google ADK TokenBased compactor", "@google/adk"],
] as const;

async function installed(pkg: string): Promise<boolean> {
  try {
    await import(pkg);
    return true;
  } catch {
    return false;
  }
}

export async function peersBench(): Promise<string> {
  const big = trajectories().filter((t) => estimateTokens(t.messages) > BUDGET);
  const totals: Record<string, { ms: number; tokens: number; valid: number; latest: number; over: number }> = {};
  const add = (name: string, o: Outcome) => {
    const t = (totals[name] ??= { ms: 0, tokens: 0, valid: 0, latest: 0, over: 0 });
    t.ms += o.ms;
    t.tokens += o.tokens;
    t.valid += o.valid ? 1 : 0;
    t.latest += o.latest ? 1 : 0;
    t.over += o.tokens > BUDGET ? 1 : 0;
  };
  let before = 0;
  for (const { messages } of big) {
    before += estimateTokens(messages);
    add("context-compactor compact (deterministic)", await measure(messages, async () => (await compact(messages, { contextWindow: WINDOW })).messages));
    const modelMessages = fromOpenAI(messages, "ai-sdk").messages as ModelMessage[];
    add("AI SDK pruneMessages (tool calls before the last 2 messages)", await measure(messages, () =>
      toOpenAI(pruneMessages({ messages: modelMessages, toolCalls: "before-last-2-messages", reasoning: "before-last-message", emptyMessages: "remove" }), "ai-sdk").messages,
    ));
    const lc = toLangChain(messages);
    add("LangChain trimMessages (last, 24k budget, start on human)", await measure(messages, async () =>
      fromLangChain(await trimMessages(lc, { maxTokens: BUDGET, strategy: "last", tokenCounter: lcCounter, includeSystem: true, startOn: "human" })),
    ));
  }
  const sizes = {
    "context-compactor compact (deterministic)": await bundleSize("src/index.ts", ["compact"]),
    "AI SDK pruneMessages (tool calls before the last 2 messages)": await bundleSize("node_modules/ai/dist/index.mjs", ["pruneMessages"]),
    "LangChain trimMessages (last, 24k budget, start on human)": await bundleSize("node_modules/@langchain/core/dist/messages/index.js", ["trimMessages"]),
  };
  const n = big.length;
  const rows: string[][] = Object.entries(totals).map(([name, t]) => [
    name,
    (t.ms / n).toFixed(2),
    Math.round(t.tokens / n).toLocaleString("en-US"),
    `${t.over}/${n}`,
    `${t.valid}/${n}`,
    `${t.latest}/${n}`,
    `${(sizes[name as keyof typeof sizes].gzip / 1024).toFixed(1)} KiB`,
  ]);
  const absent: string[] = [];
  for (const [name, pkg] of ABSENT) {
    if (await installed(pkg)) absent.push(`${name}: \`${pkg}\` is installed but this bench has no adapter for it yet`);
    else {
      rows.push([`${name} (\`${pkg}\` not installed)`, "—", "—", "—", "—", "—", "—"]);
      absent.push(`${name}: \`${pkg}\` is not a dependency of this repo, so it is not measured`);
    }
  }
  return (
    `The ${n} fixtures over a ${BUDGET.toLocaleString("en-US")}-token budget (window ${WINDOW.toLocaleString("en-US")}, threshold 0.75), ` +
    `${Math.round(before / n).toLocaleString("en-US")} tokens on average before; tokens counted with the same estimator for all.\n\n` +
    table(["tool", "ms / transcript", "tokens after (mean)", "still over budget", "tool pairs valid", "latest request kept", "bundle (gzip) of the import"], rows) +
    "\n\npruneMessages has no token budget (it only drops tool content by position), so whether a long session lands under a window is chance (here, with every tool output but the last 2 messages' dropped, it did); trimMessages drops whole old turns, the handoff context with them. Bundle sizes are esbuild, browser, minified, of `import { that function }`. All run in one process, each transcript in turn. " +
    `Not measured: ${absent.join("; ")}.`
  );
}
