// A request as Claude Code 2.1.x sends it to POST /v1/messages?beta=true (the shape its requests take
// through the agents suite, test/agents): system blocks with cache_control, messages[0] a user message whose first
// text block is a <system-reminder> and whose last is the task, messages[1] a `role: "system"` message
// (environment, deferred tools), signed thinking before every tool_use, tool_result carriers, and at most
// four cache_control breakpoints in all.
import type { AnthropicBlock, AnthropicMessage } from "../../src/index.js";

export const CLAUDE_CODE_HEADERS: Record<string, string> = {
  "anthropic-version": "2023-06-01",
  "anthropic-beta": "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27",
  "anthropic-dangerous-direct-browser-access": "true",
  "x-app": "cli",
  "user-agent": "claude-cli/2.1.332 (external, cli)",
  "x-stainless-lang": "js",
  "x-stainless-package-version": "0.70.0",
  "x-stainless-os": "Linux",
  "x-stainless-arch": "x64",
  "x-stainless-runtime": "node",
  "x-stainless-runtime-version": "v20.20.0",
  "x-stainless-retry-count": "0",
  "x-stainless-timeout": "600",
  "x-claude-code-session-id": "0b6f2c1e-2f43-4c8e-9d1a-3c5e7a9b1d2f",
};

const signature = (i: number) => `EqQBCgIYAhIM${"1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds".repeat(3)}${i}`;
const ephemeral = { type: "ephemeral" };

export const environment: AnthropicMessage = {
  role: "system",
  content: [
    { type: "text", text: "<env>\nWorking directory: /repo\nIs directory a git repo: Yes\nPlatform: linux\nToday's date: 2026-11-28\n</env>" },
    { type: "text", text: "<deferred-tools>\nWebFetch, WebSearch, NotebookEdit: call ToolSearch to load them.\n</deferred-tools>" },
  ],
};

/** `turns` tool rounds of `outputChars` each after the opening request; `systemAt` puts a second system message (a deferred-tools update) after that round. */
export function claudeCodeRequest(turns: number, { outputChars = 4000, systemAt = -1, model = "claude-opus-5-5" } = {}) {
  const messages: AnthropicMessage[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nRun npm test before committing.\n</system-reminder>\n" },
        { type: "text", text: "Fix the failing test in src/app.ts and commit." },
      ],
    },
    environment,
  ];
  for (let i = 0; i < turns; i++) {
    messages.push({
      role: "assistant",
      content: [
        { type: "thinking", thinking: `Round ${i}: read the next file.`, signature: signature(i) },
        ...(i % 5 === 4 ? [{ type: "redacted_thinking", data: `ErUBCkYIBRgCIkD${i}` }] : []),
        { type: "text", text: `Reading part ${i}.` },
        { type: "tool_use", id: `toolu_${String(i).padStart(4, "0")}`, name: "Read", input: { file_path: `/repo/src/part${i}.ts` } },
      ],
    });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${String(i).padStart(4, "0")}`, content: `export const part${i} = ${i};\n`.repeat(Math.ceil(outputChars / 26)) }] });
    if (i === systemAt) messages.push({ role: "system", content: `<deferred-tools>\nUpdated after round ${i}: WebFetch is loaded.\n</deferred-tools>` });
  }
  // Claude Code's rolling breakpoint: the last block of the last message.
  const last = messages.at(-1)!;
  const blocks = last.content as AnthropicBlock[];
  blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: ephemeral };
  return {
    model,
    max_tokens: 32_000,
    stream: true,
    thinking: { type: "enabled", budget_tokens: 31_999 },
    metadata: { user_id: "user_0b6f2c1e_account__session_0b6f2c1e" },
    system: [
      { type: "text", text: "x-anthropic-billing-header: cc_version=2.1.332; cc_entrypoint=cli" },
      { type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: ephemeral },
      { type: "text", text: "You are an interactive CLI tool that helps users with software engineering tasks. ".repeat(40), cache_control: ephemeral },
    ],
    tools: [
      { name: "Read", description: "Reads a file from the local filesystem.", input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] } },
      { name: "Bash", description: "Executes a bash command.", input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] }, cache_control: ephemeral },
    ],
    messages,
  };
}

/** Every cache_control breakpoint in a request (system, tools, messages and the blocks inside them). */
export function breakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + breakpoints(v), 0);
  if (!value || typeof value !== "object") return 0;
  return Object.entries(value).reduce((n, [k, v]) => n + (k === "cache_control" ? 1 : breakpoints(v)), 0);
}
