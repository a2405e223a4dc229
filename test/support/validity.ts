// Each dialect's own validity rules, as its provider documents them, checked on a transcript.
import type { AnthropicBlock, AnthropicMessage, ChatMessage, DialectName, ModelMessage, ModelPart, ResponsesItem } from "../../src/index.js";

/**
 * Anthropic Messages: the first message is from the user; user and assistant strictly alternate;
 * every tool_use is answered by a tool_result in the very next (user) message, which lists its
 * tool_result blocks first; a tool_result answers a tool_use of the message just before; thinking
 * blocks open an assistant message. A trailing assistant tool_use is in flight. System messages inside
 * `messages` are outside the alternation.
 */
export function anthropicValidity(messages: AnthropicMessage[]): string[] {
  const p: string[] = [];
  const blocks = (m: AnthropicMessage): AnthropicBlock[] => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content);
  // A system message inside messages (Claude Code's) stands outside the alternation.
  const turns = messages.map((m, i) => [m, i] as const).filter(([m]) => m.role !== "system");
  if (turns.length && turns[0][0].role !== "user") p.push("the first message is not from the user");
  turns.forEach(([m, i], k) => {
    if (k > 0 && turns[k - 1][0].role === m.role) p.push(`messages ${turns[k - 1][1]} and ${i} are both ${m.role}`);
  });
  messages.forEach((m, i) => {
    const bs = blocks(m);
    const uses = bs.filter((b) => b.type === "tool_use").map((b) => String(b.id));
    if (m.role === "assistant") {
      const firstOther = bs.findIndex((b) => b.type !== "thinking" && b.type !== "redacted_thinking");
      if (firstOther >= 0 && bs.slice(firstOther).some((b) => b.type === "thinking" || b.type === "redacted_thinking")) p.push(`message ${i}: thinking after other blocks`);
      if (uses.length && i < messages.length - 1) {
        const answered = new Set(blocks(messages[i + 1]).filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id)));
        for (const id of uses) if (!answered.has(id)) p.push(`message ${i}: tool_use ${id} has no tool_result in the next message`);
      }
    } else if (m.role === "user") {
      const results = bs.filter((b) => b.type === "tool_result");
      const lastResult = bs.map((b) => b.type).lastIndexOf("tool_result");
      if (results.length && bs.slice(0, lastResult).some((b) => b.type !== "tool_result")) p.push(`message ${i}: tool_result blocks are not first`);
      const prev = i > 0 ? new Set(blocks(messages[i - 1]).filter((b) => b.type === "tool_use").map((b) => String(b.id))) : new Set<string>();
      for (const r of results) if (!prev.has(String(r.tool_use_id))) p.push(`message ${i}: tool_result ${String(r.tool_use_id)} answers no tool_use of message ${i - 1}`);
    }
  });
  return p;
}

/**
 * AI SDK ModelMessage: a tool-call of an assistant message is answered by a tool-result in the tool
 * message(s) right after it; a tool-result answers a call of that assistant message. A trailing
 * group is in flight.
 */
export function aiSdkValidity(messages: ModelMessage[]): string[] {
  const p: string[] = [];
  const parts = (m: ModelMessage): ModelPart[] => (typeof m.content === "string" ? [] : m.content);
  let open = new Set<string>();
  let owner = -1;
  const close = (at: number) => {
    if (open.size) p.push(`calls ${[...open].join(",")} of message ${owner} have no result before ${at}`);
  };
  messages.forEach((m, i) => {
    if (!["system", "user", "assistant", "tool"].includes(m.role)) p.push(`message ${i}: bad role ${m.role}`);
    if (m.role === "tool") {
      for (const r of parts(m)) if (r.type === "tool-result" && !open.delete(String(r.toolCallId))) p.push(`message ${i}: tool-result ${String(r.toolCallId)} answers no open call`);
      return;
    }
    close(i);
    open = new Set(parts(m).filter((x) => x.type === "tool-call" && !x.providerExecuted).map((x) => String(x.toolCallId)));
    owner = i;
  });
  return p;
}

export function validity(dialect: DialectName, messages: unknown[]): string[] {
  if (dialect === "anthropic") return anthropicValidity(messages as AnthropicMessage[]);
  if (dialect === "ai-sdk") return aiSdkValidity(messages as ModelMessage[]);
  if (dialect === "openai-responses") return responsesValidity(messages as ResponsesItem[]);
  return openAIValidity(messages as ChatMessage[]);
}

/** OpenAI validity: results follow their call's group, calls are answered (a trailing group may be in flight). */
export function openAIValidity(messages: ChatMessage[]): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  let groupAt = -1;
  const unanswered = (at: number) => {
    if (open.size && groupAt >= 0) problems.push(`calls ${[...open].join(",")} of message ${groupAt} have no result (before ${at})`);
  };
  messages.forEach((m, i) => {
    if (m.role === "tool") {
      if (!m.tool_call_id || !open.delete(m.tool_call_id)) problems.push(`tool result ${i} (${m.tool_call_id}) answers no open call`);
      return;
    }
    unanswered(i);
    open = new Set((m.tool_calls ?? []).map((c) => c.id));
    groupAt = m.tool_calls?.length ? i : -1;
  });
  // A trailing group is in flight: allowed.
  return problems;
}


/** The output type that answers each call type of the Responses API. */
const ANSWERS: Record<string, string> = {
  function_call: "function_call_output",
  custom_tool_call: "custom_tool_call_output",
  local_shell_call: "local_shell_call_output",
  shell_call: "shell_call_output",
  apply_patch_call: "apply_patch_call_output",
  computer_call: "computer_call_output",
};

/**
 * OpenAI Responses input: every call is answered exactly once, later, by the output type its call
 * takes (calls left open at the very end are in flight); every output answers an earlier call by
 * call_id; a reasoning item is followed by an item of its own turn (not a user message, an output or
 * the end).
 */
export function responsesValidity(items: ResponsesItem[]): string[] {
  const p: string[] = [];
  const open = new Map<string, { type: string; at: number }>();
  const answered = new Set<string>();
  const list = items as Record<string, unknown>[];
  let lastResult = -1;
  list.forEach((m, i) => {
    const type = String(m.type ?? "message");
    // A call without call_id pairs by its id; an output with no id at all pairs with nothing (opaque).
    if (Object.hasOwn(ANSWERS, type)) open.set(String(m.call_id ?? m.id), { type, at: i });
    else if (Object.values(ANSWERS).includes(type) && (m.call_id ?? m.id) != null) {
      const id = String(m.call_id ?? m.id); // a local shell output may carry only id
      const call = open.get(id);
      if (!call) p.push(`item ${i}: ${type} ${id} answers no earlier open call${answered.has(id) ? " (answered twice)" : ""}`);
      else if (ANSWERS[call.type] !== type && !(call.type === "local_shell_call" && type === "function_call_output")) p.push(`item ${i}: ${type} answers a ${call.type}`);
      open.delete(id);
      answered.add(id);
      lastResult = i;
    }
    if (type === "reasoning") {
      const next = list[i + 1];
      const nextType = String(next?.type ?? "message");
      if (!next) p.push(`item ${i}: reasoning at the end`);
      else if (nextType === "message" && next.role !== "assistant" && next.role !== undefined) p.push(`item ${i}: reasoning followed by a ${String(next.role)} message`);
      else if (Object.values(ANSWERS).includes(nextType)) p.push(`item ${i}: reasoning followed by an output`);
    }
  });
  // Calls left open before the last output, or before a later user message, were never answered.
  for (const [id, c] of open) {
    const laterUser = list.slice(c.at + 1).some((m) => String(m.type ?? "message") === "message" && m.role === "user");
    if (c.at < lastResult || laterUser) p.push(`item ${c.at}: ${c.type} ${id} is never answered`);
  }
  return p;
}

/**
 * Strict chat templates (Mistral, Devstral) check user/assistant alternation on the turns they keep:
 * system messages, tool results and any message carrying tool calls are skipped. The roles of what
 * such a template sees, with each message's index in `messages`.
 */
export function templateTurns(messages: ChatMessage[]): { role: string; at: number }[] {
  const out: { role: string; at: number }[] = [];
  messages.forEach((m, at) => {
    if ((m.role === "user" || m.role === "assistant") && !m.tool_calls?.length) out.push({ role: m.role, at });
  });
  return out;
}

/**
 * The template view's alternation problems compaction created: two turns of one role next to each
 * other in the output's template view that were not already next to each other in the input's. An
 * output message is traced to its input message by identity, then by its tool call ids, then (a
 * rewrite without a handoff: a stubbed image) as the next input message of its role; one carrying the
 * handoff is new, unless merged into `mergedInto` (the plan's tail start when its seam is "merge").
 */
export function templateValidity(input: ChatMessage[], output: ChatMessage[], mergedInto = -1, handoffPrefix = "[CONTEXT HANDOFF"): string[] {
  const ids = (m: ChatMessage) => [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id ? [m.tool_call_id] : [])].join(",");
  const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
  let last = -1;
  const origin = output.map((m) => {
    let at = input.indexOf(m);
    const t = text(m);
    const from = (f: (x: ChatMessage) => boolean) => input.findIndex((x, i) => i > last && f(x));
    if (at < 0 && t.includes(handoffPrefix)) {
      // A handoff merged into a message (plan.seam "merge": the first tail message) stands in its place.
      if (mergedInto > last && input[mergedInto]?.role === m.role) return (last = mergedInto);
      return -1;
    }
    if (at < 0) at = ids(m) ? from((x) => ids(x) === ids(m)) : from((x) => x.role === m.role && !ids(x));
    if (at >= 0) last = at;
    return at;
  });
  const before = templateTurns(input);
  const adjacent = new Set(before.map((t, k) => (k > 0 && before[k - 1].role === t.role ? `${before[k - 1].at}:${t.at}` : "")));
  const after = templateTurns(output);
  const p: string[] = [];
  after.forEach((t, k) => {
    if (k === 0 || after[k - 1].role !== t.role) return;
    const a = origin[after[k - 1].at];
    const b = origin[t.at];
    if (a < 0 || b < 0 || !adjacent.has(`${a}:${b}`)) p.push(`template view: messages ${after[k - 1].at} and ${t.at} are both ${t.role}`);
  });
  return p;
}
