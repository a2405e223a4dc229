// A scripted model server of the suite's own, on 127.0.0.1: it speaks Anthropic Messages, OpenAI Chat
// Completions and OpenAI Responses (JSON and SSE), refuses what each provider refuses (400 in that
// provider's error shape), and drives a tool session: each main request is answered with a call that
// reads the next large file of a fresh work folder, until the transcript shows that a compaction ran
// (or the turn cap), then a few small reads, then a final text. Every request is recorded for the tests' assertions.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Api = "anthropic" | "chat" | "responses";

export interface Recorded {
  api: Api | "other";
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The raw body, as the upstream received it. */
  text: string;
  body: any;
  /** A request of the tool session (it offers the file-reading tool), not a side request (titles, quota checks). */
  main: boolean;
  /** The transcript shows a compaction's products (a handoff, a pruned output, the worker's system note). */
  compacted: boolean;
  /** Why it was refused (the 400's message), if it was. */
  refused?: string;
  /** What the upstream answered: a tool call, the final text, or a side answer. */
  answer?: "tool" | "final" | "side";
}

export interface Secret {
  name: string;
  /** The random part a masking must never show, not even its first characters. */
  body: string;
  /** How it appears in the file. */
  line: string;
}

export interface UpstreamOptions {
  /** Bytes of each file the agent is made to read (≈ its tool output). */
  fileBytes?: number;
  /** Tool turns before the final text when no compaction is seen (the control run's length). */
  maxTurns?: number;
  /**
   * Tool turns after the first compacted request, before the final text. They read small files
   * (`smallBytes`): a turn that adds less than the compaction's runway stays between compactions,
   * where the prefix share is measured (a 200 KB read would cross the threshold again at once).
   */
  turnsAfterCompaction?: number;
  smallBytes?: number;
  /** Start the small reads after this many large ones even if no compaction shows (to replay a worker run straight to the upstream). */
  smallFrom?: number;
  /** Estimated tokens (characters / 4) over which a request is refused as too long. */
  window?: number;
}

export const FINAL_TEXT = "E2E-SESSION-COMPLETE: every file was read.";
const COMPACTION_MARKS = ["[CONTEXT HANDOFF", "[output pruned", "[context-compactor]"];

/** What a file of the work folder holds: numbered lines of varied words, and optionally the planted secrets. */
function fileText(k: number, bytes: number, secrets: Secret[]): string {
  const words = ["alpha", "build", "cache", "delta", "error", "fetch", "graph", "index", "join", "kernel", "lambda", "module", "node", "output", "parse", "query", "route", "state", "token", "update", "value", "worker"];
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const pick = (j: number) => words[(i * 7 + j * 13 + k * 3) % words.length];
    const line = `${String(i).padStart(5, "0")} file-${k} ${pick(1)} ${pick(2)} ${pick(3)} id=${randomBytes(6).toString("hex")} ${pick(4)}(${i % 97}) -> ${pick(5)}`;
    lines.push(line);
    size += line.length + 1;
    if (i === 40) for (const s of secrets) lines.push(s.line); // early: inside what every agent's read tool returns
  }
  return lines.join("\n") + "\n";
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const randomAlnum = (n: number) => [...randomBytes(n)].map((b) => ALNUM[b % ALNUM.length]).join("");

export function plantSecrets(): Secret[] {
  const aws = randomAlnum(40);
  const ghp = randomAlnum(36);
  return [
    { name: "AWS_SECRET_ACCESS_KEY", body: aws, line: `AWS_SECRET_ACCESS_KEY=${aws}` },
    { name: "GITHUB_TOKEN", body: ghp, line: `GITHUB_TOKEN=ghp_${ghp}` },
  ];
}

/** Where a secret shows, whole or by its first characters after its name or vendor prefix; undefined when nowhere. */
export function secretLeak(text: string, secrets: Secret[]): string | undefined {
  for (const s of secrets) {
    const probes = [s.body, s.body.slice(-8), `${s.name}=${s.body.slice(0, 4)}`, `ghp_${s.body.slice(0, 4)}`];
    for (const p of probes) if (text.includes(p)) return `${s.name}: "${p}" found`;
  }
  return undefined;
}

class Refusal extends Error {}
const refuse = (why: string): never => {
  throw new Refusal(why);
};

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

// ---- the providers' request rules ------------------------------------------------------------------

interface Issued {
  /** signature → thinking text, for every thinking block this server wrote. */
  thinking: Map<string, string>;
  /** reasoning item id → encrypted_content. */
  reasoning: Map<string, string>;
  /** Responses kept for previous_response_id: id → the input and output they hold. */
  responses: Map<string, any[]>;
}

function anthropicRules(body: any, issued: Issued, window: number): void {
  const messages: any[] = body?.messages;
  if (!Array.isArray(messages) || !messages.length) refuse("messages: at least one message is required");
  let cacheControls = 0;
  const countCache = (blocks: unknown) => Array.isArray(blocks) && blocks.forEach((b: any) => b?.cache_control && cacheControls++);
  countCache(body.system);
  countCache(body.tools);
  const turns = messages.map((m, i) => ({ m, i })).filter(({ m }) => m.role !== "system");
  messages.forEach((m, i) => {
    if (!["user", "assistant", "system"].includes(m?.role)) refuse(`messages.${i}.role: unexpected role ${JSON.stringify(m?.role)}`);
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    if (!Array.isArray(blocks)) refuse(`messages.${i}.content: must be a string or a list of blocks`);
    if (!blocks.length && !(m.role === "assistant" && i === messages.length - 1)) refuse(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    countCache(blocks);
    blocks.forEach((b: any, j: number) => {
      if (b?.type === "text" && !String(b.text ?? "").length) refuse(`messages.${i}.content.${j}.text: text content blocks must be non-empty`);
      if (b?.type === "thinking") {
        const issuedText = issued.thinking.get(b.signature);
        if (issuedText === undefined || issuedText !== b.thinking) refuse(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
      }
    });
  });
  if (cacheControls > 4) refuse(`A maximum of 4 blocks with cache_control may be provided. Found ${cacheControls}.`);
  if (turns[0]?.m.role !== "user") refuse(`messages.${turns[0]?.i ?? 0}: the first message must use the "user" role`);
  for (let t = 1; t < turns.length; t++) {
    if (turns[t].m.role === turns[t - 1].m.role) refuse(`messages.${turns[t].i}: roles must alternate between "user" and "assistant", found two "${turns[t].m.role}" messages in a row`);
  }
  const blocksOf = (m: any): any[] => (typeof m.content === "string" ? [] : m.content);
  for (let t = 0; t < turns.length; t++) {
    const { m, i } = turns[t];
    const next = turns[t + 1];
    if (m.role === "assistant") {
      const uses = blocksOf(m).filter((b) => b.type === "tool_use").map((b) => b.id);
      if (!uses.length) continue;
      const answered = new Set(next ? blocksOf(next.m).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : []);
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length && next) refuse(`messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    } else {
      const prev = turns[t - 1];
      const uses = new Set(prev ? blocksOf(prev.m).filter((b) => b.type === "tool_use").map((b) => b.id) : []);
      for (const [j, b] of blocksOf(m).entries()) {
        if (b.type === "tool_result" && !uses.has(b.tool_use_id)) refuse(`messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
      }
    }
  }
  const thinkingOn = body.thinking && body.thinking.type !== "disabled";
  const lastAssistant = [...turns].reverse().find(({ m }) => m.role === "assistant");
  if (thinkingOn && lastAssistant) {
    const blocks = blocksOf(lastAssistant.m);
    const hasThinking = blocks.some((b) => b.type === "thinking" || b.type === "redacted_thinking");
    const first = blocks[0]?.type;
    if (hasThinking && first !== "thinking" && first !== "redacted_thinking") {
      refuse(`messages.${lastAssistant.i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`);
    }
  }
  const tokens = estimateTokens(JSON.stringify({ system: body.system, tools: body.tools, messages }));
  if (tokens > window) refuse(`prompt is too long: ${tokens} tokens > ${window} maximum`);
}

function chatRules(body: any, window: number): void {
  const messages: any[] = body?.messages;
  if (!Array.isArray(messages) || !messages.length) refuse("'messages' must be a non-empty array");
  let open = new Set<string>();
  messages.forEach((m, i) => {
    if (m?.role === "tool") {
      if (!open.has(m.tool_call_id)) refuse(`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[${i}].tool_call_id ${JSON.stringify(m.tool_call_id)})`);
      open.delete(m.tool_call_id);
      return;
    }
    if (open.size) refuse(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")} (messages.[${i}])`);
    if (!["system", "developer", "user", "assistant"].includes(m?.role)) refuse(`Invalid value for 'messages.[${i}].role': ${JSON.stringify(m?.role)}`);
    if (m.role === "assistant" && Array.isArray(m.tool_calls)) open = new Set(m.tool_calls.map((c: any) => c.id));
    if (m.role === "assistant" && !m.tool_calls?.length && (m.content === null || m.content === undefined || m.content === "")) refuse(`Invalid 'messages.[${i}]': an assistant message needs content or tool_calls`);
  });
  if (open.size) refuse(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`);
  const tokens = estimateTokens(JSON.stringify({ tools: body.tools, messages }));
  if (tokens > window) refuse(`This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`);
}

function responsesInput(body: any, issued: Issued): any[] {
  const own = typeof body?.input === "string" ? [{ role: "user", content: body.input }] : body?.input;
  if (!Array.isArray(own)) refuse("Invalid type for 'input': expected a string or an array of input items");
  if (body.previous_response_id) {
    const earlier = issued.responses.get(body.previous_response_id);
    if (!earlier) refuse(`Previous response with id '${body.previous_response_id}' not found.`);
    return [...earlier!, ...own];
  }
  return own;
}

function responsesRules(body: any, input: any[], issued: Issued, window: number): void {
  const calls = new Set<string>();
  const answered = new Set<string>();
  input.forEach((item, i) => {
    const type = item?.type ?? (item?.role ? "message" : undefined);
    if (type === "function_call" || type === "custom_tool_call" || type === "local_shell_call") calls.add(item.call_id);
    if (type === "function_call_output" || type === "custom_tool_call_output" || type === "local_shell_call_output") {
      if (!calls.has(item.call_id)) refuse(`No tool call found for function call output with call_id ${item.call_id}. (input[${i}])`);
      answered.add(item.call_id);
    }
    if (type === "reasoning" && issued.reasoning.has(item.id)) {
      if (item.encrypted_content !== undefined && item.encrypted_content !== issued.reasoning.get(item.id)) refuse(`The encrypted content for item ${item.id} could not be verified. (input[${i}])`);
      const next = input[i + 1];
      if (!next || next.type === "reasoning" || (next.role && next.role !== "assistant")) refuse(`Item '${item.id}' of type 'reasoning' was provided without its required following item. (input[${i}])`);
    }
    if (type === "message" && item.role === "assistant" && Array.isArray(item.content) && item.content.some((p: any) => p?.type === "output_text" && !p.text)) refuse(`Invalid 'input[${i}].content': empty output_text`);
  });
  const unanswered = [...calls].filter((c) => !answered.has(c));
  if (unanswered.length) refuse(`No tool output found for function call ${unanswered[0]}.`);
  const tokens = estimateTokens(JSON.stringify({ instructions: body.instructions, tools: body.tools, input }));
  if (tokens > window) refuse(`Your input exceeds the context window of this model. (${tokens} > ${window} tokens)`);
}

// ---- the tool the session drives ------------------------------------------------------------------

interface ToolSpec {
  name: string;
  /** JSON Schema of the arguments. */
  schema: any;
}

/** The file-reading tool an agent offers, with the arguments that read `path` with it. */
function readingCall(tools: ToolSpec[], path: string, file: string): { name: string; args: unknown } | undefined {
  const props = (t: ToolSpec) => t.schema?.properties ?? {};
  for (const t of tools) {
    const p = props(t);
    if (/^(read|read_file|Read)$/.test(t.name)) {
      for (const key of ["file_path", "filePath", "path"]) if (key in p) return { name: t.name, args: { [key]: path } };
    }
  }
  for (const t of tools) {
    const p = props(t);
    if (p.cmd) return { name: t.name, args: { cmd: `cat ${file}` } };
    if (p.command?.type === "array") return { name: t.name, args: { command: ["cat", file] } };
    if (p.command) return { name: t.name, args: { command: `cat ${file}` } };
  }
  return undefined;
}

/** The API a path speaks, by its last segment. */
export function apiOf(path: string): Api | "other" {
  const p = path.split("?")[0];
  return p.endsWith("/messages") ? "anthropic" : p.endsWith("/chat/completions") ? "chat" : p.endsWith("/responses") ? "responses" : "other";
}

/** How many turns (messages, input items) a request carries. */
function turnsOf(api: Api, body: any): number {
  const list = api === "responses" ? body?.input : body?.messages;
  return Array.isArray(list) ? list.length : 1;
}

/** A request of the tool session: it offers a tool that reads files. */
export function isMain(api: Api | "other", body: any): boolean {
  return api !== "other" && readingCall(toolsOf(api, body), "/x", "x") !== undefined;
}

function toolsOf(api: Api, body: any): ToolSpec[] {
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  return tools
    .map((t) => {
      if (api === "anthropic") return { name: t.name, schema: t.input_schema };
      if (api === "chat") return { name: t.function?.name, schema: t.function?.parameters };
      return { name: t.name, schema: t.parameters };
    })
    .filter((t) => typeof t.name === "string");
}

// ---- wire formats ---------------------------------------------------------------------------------

const id = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;
const sse = (res: ServerResponse, event: string | undefined, data: unknown) => res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);

type Turn = { kind: "tool"; name: string; args: unknown } | { kind: "text"; text: string };

function anthropicAnswer(res: ServerResponse, body: any, turn: Turn, issued: Issued, inputTokens: number): void {
  const thinkingOn = body.thinking && body.thinking.type !== "disabled";
  const content: any[] = [];
  if (thinkingOn) {
    const thinking = `Step ${randomBytes(3).toString("hex")}: ${turn.kind === "tool" ? "read the next file" : "report that all files were read"}.`;
    const signature = randomBytes(48).toString("base64");
    issued.thinking.set(signature, thinking);
    content.push({ type: "thinking", thinking, signature });
  }
  if (turn.kind === "tool") content.push({ type: "tool_use", id: id("toolu_"), name: turn.name, input: turn.args });
  else content.push({ type: "text", text: turn.text });
  const stop_reason = turn.kind === "tool" ? "tool_use" : "end_turn";
  const usage = { input_tokens: inputTokens, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: id("msg_"), type: "message", role: "assistant", model: body.model, content, stop_reason, stop_sequence: null, usage };
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json", "request-id": id("req_") });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": id("req_") });
  sse(res, "message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  content.forEach((b, index) => {
    if (b.type === "thinking") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: b.thinking } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: b.signature } });
    } else if (b.type === "tool_use") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
      const json = JSON.stringify(b.input);
      const half = json.length >> 1;
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(0, half) } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(half) } });
    } else {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  sse(res, "message_delta", { type: "message_delta", delta: { stop_reason, stop_sequence: null }, usage: { input_tokens: inputTokens, output_tokens: 20 } });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

function chatAnswer(res: ServerResponse, body: any, turn: Turn, inputTokens: number): void {
  const base = { id: id("chatcmpl-"), created: Math.floor(Date.now() / 1000), model: body.model };
  const usage = { prompt_tokens: inputTokens, completion_tokens: 20, total_tokens: inputTokens + 20 };
  const call = turn.kind === "tool" ? { id: id("call_"), type: "function", function: { name: turn.name, arguments: JSON.stringify(turn.args) } } : undefined;
  const finish_reason = call ? "tool_calls" : "stop";
  if (!body.stream) {
    const message = call ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: (turn as { text: string }).text };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason, logprobs: null }], usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (delta: unknown, finish: string | null = null) => sse(res, undefined, { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  if (call) {
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] });
    chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] });
  } else {
    chunk({ role: "assistant", content: "" });
    chunk({ content: (turn as { text: string }).text });
  }
  chunk({}, finish_reason);
  if (body.stream_options?.include_usage) sse(res, undefined, { ...base, object: "chat.completion.chunk", choices: [], usage });
  res.write("data: [DONE]\n\n");
  res.end();
}

function responsesAnswer(res: ServerResponse, body: any, input: any[], turn: Turn, issued: Issued, inputTokens: number): void {
  const responseId = id("resp_");
  const output: any[] = [];
  if (String(body.model).match(/^(gpt-5|o\d)/) || body.reasoning) {
    const rid = id("rs_");
    const encrypted = randomBytes(64).toString("base64");
    issued.reasoning.set(rid, encrypted);
    const wantsEncrypted = (body.include ?? []).includes("reasoning.encrypted_content");
    output.push({ id: rid, type: "reasoning", summary: [], ...(wantsEncrypted ? { encrypted_content: encrypted } : {}) });
  }
  if (turn.kind === "tool") output.push({ id: id("fc_"), type: "function_call", status: "completed", call_id: id("call_"), name: turn.name, arguments: JSON.stringify(turn.args) });
  else output.push({ id: id("msg_"), type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: turn.text, annotations: [], logprobs: [] }] });
  issued.responses.set(responseId, [...input, ...output]);
  const usage = { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + 20 };
  const response = (status: string, out: any[], withUsage: boolean) => ({
    id: responseId,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output: out,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: body.reasoning ?? null,
    store: body.store ?? true,
    temperature: 1,
    text: body.text ?? { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: withUsage ? usage : null,
    metadata: {},
  });
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(response("completed", output, true)));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let seq = 0;
  const event = (type: string, data: object) => sse(res, type, { type, sequence_number: seq++, ...data });
  event("response.created", { response: response("in_progress", [], false) });
  event("response.in_progress", { response: response("in_progress", [], false) });
  output.forEach((item, output_index) => {
    if (item.type === "reasoning") {
      event("response.output_item.added", { output_index, item });
      event("response.output_item.done", { output_index, item });
    } else if (item.type === "function_call") {
      event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } });
      event("response.function_call_arguments.delta", { item_id: item.id, output_index, delta: item.arguments });
      event("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments });
      event("response.output_item.done", { output_index, item });
    } else {
      const text = item.content[0].text;
      const part = { type: "output_text", text: "", annotations: [], logprobs: [] };
      event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      event("response.content_part.added", { item_id: item.id, output_index, content_index: 0, part });
      event("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta: text, logprobs: [] });
      event("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
      event("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
      event("response.output_item.done", { output_index, item });
    }
  });
  event("response.completed", { response: response("completed", output, true) });
  res.end();
}

function errorAnswer(res: ServerResponse, api: Api | "other", status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  if (api === "anthropic") res.end(JSON.stringify({ type: "error", error: { type: status === 404 ? "not_found_error" : "invalid_request_error", message } }));
  else res.end(JSON.stringify({ error: { message, type: "invalid_request_error", param: null, code: status === 404 ? "not_found" : null } }));
}

// ---- the server -----------------------------------------------------------------------------------

export interface Upstream {
  /** http://127.0.0.1:PORT (no /v1). */
  origin: string;
  /** A fresh tool session: a new work folder with new secrets, no requests, no turns. */
  begin(options?: UpstreamOptions): Session;
  /** Stops the server and removes the work folders. */
  close(): Promise<void>;
}

export interface Session {
  /** The fresh work folder the agent runs in; its files are the ones the session reads. */
  workdir: string;
  secrets: Secret[];
  /** The file that holds them (the second one read, so that it falls outside the kept head). */
  secretFile: string;
  requests: Recorded[];
  /** Main requests only, in order. */
  main(): Recorded[];
  refusals(): Recorded[];
  /** Tool turns answered so far. */
  turns(): number;
  /** Of those, the large reads (before compaction showed). */
  bigTurns(): number;
  window: number;
}

export const SECRET_FILE_INDEX = 1;

function newSession(options: UpstreamOptions) {
  const fileBytes = options.fileBytes ?? 200_000;
  const maxTurns = options.maxTurns ?? 4;
  const after = options.turnsAfterCompaction ?? 3;
  const smallBytes = options.smallBytes ?? 2_000;
  const window = options.window ?? 1_000_000;
  const workdir = mkdtempSync(join(tmpdir(), "agents-work-"));
  const secrets = plantSecrets();
  const files: string[] = [];
  const fileFor = (k: number) => {
    while (files.length <= k) {
      const name = `big-file-${files.length}.txt`;
      writeFileSync(join(workdir, name), fileText(files.length, fileBytes, files.length === SECRET_FILE_INDEX ? secrets : []));
      files.push(name);
    }
    return files[k];
  };
  const smallFile = (j: number) => {
    const name = `small-file-${j}.txt`;
    writeFileSync(join(workdir, name), fileText(100 + j, smallBytes, []));
    return name;
  };
  fileFor(maxTurns + 1);
  writeFileSync(join(workdir, "README.md"), "# work folder\nRead the files big-file-0.txt, big-file-1.txt, … one by one, as asked.\n");
  const requests: Recorded[] = [];
  let toolTurns = 0;
  let turnsSinceCompaction = -1;
  let bigTurns = 0;

  /** The main session's next step: another file while no compaction was seen (and the cap allows), a few more after it, then the final text. */
  function nextTurn(tools: ToolSpec[], compacted: boolean): Turn {
    if ((compacted || (options.smallFrom !== undefined && toolTurns >= options.smallFrom)) && turnsSinceCompaction < 0) turnsSinceCompaction = 0;
    const done = turnsSinceCompaction >= 0 ? turnsSinceCompaction >= after : toolTurns >= maxTurns;
    if (done) return { kind: "text", text: FINAL_TEXT };
    const file = turnsSinceCompaction >= 0 ? smallFile(turnsSinceCompaction) : fileFor(toolTurns);
    const call = readingCall(tools, join(workdir, file), file)!;
    toolTurns++;
    if (turnsSinceCompaction >= 0) turnsSinceCompaction++;
    else bigTurns++;
    return { kind: "tool", ...call };
  }

  const session: Session = {
    workdir,
    secrets,
    secretFile: fileFor(SECRET_FILE_INDEX),
    requests,
    window,
    main: () => requests.filter((r) => r.main),
    refusals: () => requests.filter((r) => r.refused),
    turns: () => toolTurns,
    bigTurns: () => bigTurns,
  };
  return { session, nextTurn };
}

export async function startUpstream(): Promise<Upstream> {
  const issued: Issued = { thinking: new Map(), reasoning: new Map(), responses: new Map() };
  let current = newSession({ maxTurns: 0, turnsAfterCompaction: 0 });
  const workdirs = [current.session.workdir];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const { session, nextTurn } = current;
      const text = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0];
      const api = apiOf(path);
      let body: any;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const rec: Recorded = { api, method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, text, body, main: false, compacted: false };
      session.requests.push(rec);
      try {
        if (req.method === "GET" && path.endsWith("/models")) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ object: "list", data: [{ id: "claude-sonnet-4-5", type: "model", object: "model", display_name: "Claude Sonnet 4.5", created_at: "2025-09-29T00:00:00Z", created: 1759104000, owned_by: "local" }], has_more: false, first_id: "claude-sonnet-4-5", last_id: "claude-sonnet-4-5" }));
          return;
        }
        if (req.method === "POST" && path.endsWith("/messages/count_tokens")) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ input_tokens: estimateTokens(text) }));
          return;
        }
        if (req.method !== "POST" || api === "other") return errorAnswer(res, api, 404, `no route ${req.method} ${path}`);
        if (body === undefined) refuse("the request body is not valid JSON");
        const tools = toolsOf(api, body);
        rec.main = isMain(api, body);
        // A compaction shows by what it wrote, or (whatever it wrote) by a transcript shorter than the last one.
        const items = turnsOf(api, body);
        const last = session.main().at(-2);
        rec.compacted = rec.main && (COMPACTION_MARKS.some((m) => text.includes(m)) || (last !== undefined && items < turnsOf(api, last.body)));
        const input = api === "responses" ? responsesInput(body, issued) : undefined;
        if (api === "anthropic") anthropicRules(body, issued, session.window);
        else if (api === "chat") chatRules(body, session.window);
        else responsesRules(body, input!, issued, session.window);
        const turn: Turn = rec.main ? nextTurn(tools, rec.compacted) : { kind: "text", text: "ok" };
        rec.answer = !rec.main ? "side" : turn.kind === "tool" ? "tool" : "final";
        const inputTokens = estimateTokens(text);
        if (api === "anthropic") anthropicAnswer(res, body, turn, issued, inputTokens);
        else if (api === "chat") chatAnswer(res, body, turn, inputTokens);
        else responsesAnswer(res, body, input!, turn, issued, inputTokens);
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        rec.refused = err.message;
        errorAnswer(res, api, 400, err.message);
      }
    });
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    begin(options = {}) {
      current = newSession(options);
      workdirs.push(current.session.workdir);
      return current.session;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      for (const d of workdirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
