// AI SDK 6 tool approvals (issue 25 item 10): a call the user approved (or denied) whose result the
// SDK has not produced yet is no unanswered call. Compaction must leave it open (no stub result):
// the SDK runs an approved call, and writes a denied one's result itself, only while no result for it
// exists. Checked with the real generateText, after compact().
import { generateText, jsonSchema, tool, type ModelMessage as AiModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import { fromOpenAI } from "../src/convert.js";
import { aiSdkMessages, compact, type ModelMessage } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";
import { aiSdkValidity } from "./support/validity.js";

/** A long recorded session in AI SDK messages: enough for a pass at a 16k window. */
const history = fromOpenAI(trajectory("claude-code-spotter__fa812bfe").messages.slice(0, 120), "ai-sdk").messages as ModelMessage[];

/** The assistant asked for `deploy` (approval needed) and `lint` (none); the user answered the approval. */
function approvalTurn(approved: boolean, withLintResult: boolean): ModelMessage[] {
  return [
    { role: "user", content: "Deploy it, then lint." },
    {
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "call_deploy", toolName: "deploy", input: { env: "prod" } },
        { type: "tool-approval-request", approvalId: "approval_1", toolCallId: "call_deploy" },
        { type: "tool-call", toolCallId: "call_lint", toolName: "lint", input: {} },
      ],
    },
    ...(withLintResult ? [{ role: "tool" as const, content: [{ type: "tool-result", toolCallId: "call_lint", toolName: "lint", output: { type: "text", value: "0 problems" } }] }] : []),
    { role: "tool", content: [{ type: "tool-approval-response", approvalId: "approval_1", approved, ...(approved ? {} : { reason: "not on a Friday" }) }] },
  ];
}

/** Every tool-result part in `messages` for `id`. */
const resultsFor = (messages: ModelMessage[], id: string) => messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === "tool-result" && p.toolCallId === id) : []));

/** Runs `messages` through the real generateText: which tools ran, and the first prompt the model saw. */
async function run(messages: ModelMessage[]) {
  const deploy = vi.fn(async () => "deployed v42");
  const prompts: unknown[][] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      return { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: undefined }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }, warnings: [] };
    },
  });
  const tools = {
    deploy: tool({ inputSchema: jsonSchema<{ env: string }>({ type: "object" }), needsApproval: true, execute: deploy }),
    lint: tool({ inputSchema: jsonSchema<Record<string, never>>({ type: "object" }), execute: async () => "0 problems" }),
  };
  await generateText({ model, tools, messages: messages as AiModelMessage[] });
  return { deploy, prompt: JSON.stringify(prompts[0]) };
}

describe("AI SDK tool approvals survive compaction", () => {
  it("an approved call at the end stays open: no stub, and the SDK then runs it", async () => {
    const input = [...history, ...approvalTurn(true, true)];
    const r = await compact(input, { dialect: aiSdkMessages, contextWindow: 16_000 });
    expect(r.report.mode).not.toBe("noop");
    expect(resultsFor(r.messages, "call_deploy")).toEqual([]);
    expect(r.report.sanitized?.stubbedCalls ?? []).not.toContain("call_deploy");
    expect(r.messages.at(-1)).toBe(input.at(-1)); // the approval response, the same object
    const { deploy, prompt } = await run(r.messages);
    expect(deploy).toHaveBeenCalledTimes(1);
    expect(prompt).toContain("deployed v42");
  });

  it("a denied call at the end stays open too: the SDK writes its denial itself", async () => {
    const r = await compact([...history, ...approvalTurn(false, true)], { dialect: aiSdkMessages, contextWindow: 16_000 });
    expect(resultsFor(r.messages, "call_deploy")).toEqual([]);
    const { deploy, prompt } = await run(r.messages);
    expect(deploy).not.toHaveBeenCalled();
    expect(prompt).toContain("not on a Friday");
  });

  it("a call without approval or result beside it is still answered with a stub; the approved one is not", async () => {
    const r = await compact([...history, ...approvalTurn(true, false)], { dialect: aiSdkMessages, contextWindow: 16_000 });
    expect(resultsFor(r.messages, "call_deploy")).toEqual([]);
    expect(resultsFor(r.messages, "call_lint")).toHaveLength(1);
    expect(r.report.sanitized?.stubbedCalls).toContain("call_lint");
    const { deploy } = await run(r.messages);
    expect(deploy).toHaveBeenCalledTimes(1);
  });

  it("a call still awaiting its approval (the SDK stopped to ask) stays open, so the answer added later runs it", async () => {
    const waiting = approvalTurn(true, true).slice(0, -1); // the SDK's own output: the lint result, the request unanswered
    const r = await compact([...history, ...waiting], { dialect: aiSdkMessages, contextWindow: 16_000 });
    expect(resultsFor(r.messages, "call_deploy")).toEqual([]);
    const { deploy } = await run([...r.messages, approvalTurn(true, true).at(-1)!]);
    expect(deploy).toHaveBeenCalledTimes(1);
  });

  it("once the conversation went on, an approved call that never got its result is answered (the provider needs one)", async () => {
    const input = [...history, ...approvalTurn(true, true), { role: "user" as const, content: "Never mind, what is the status?" }];
    const r = await compact(input, { dialect: aiSdkMessages, contextWindow: 16_000 });
    expect(resultsFor(r.messages, "call_deploy")).toHaveLength(1);
    expect(aiSdkValidity(r.messages)).toEqual([]);
  });
});
