// The scripted upstream refuses what the providers refuse, in their error shapes: without that, the
// agents suite's "no request refused" would prove nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstream, type Upstream } from "./upstream.js";

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(() => up.close());

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${up.origin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

const READ = { name: "Read", description: "read", input_schema: { type: "object", properties: { file_path: { type: "string" } } } };
const user = (content: unknown) => ({ role: "user", content });

/** One tool turn with thinking, as this upstream answered it: the assistant message to send back. */
async function anthropicTurn(): Promise<any> {
  const r = await post("/v1/messages", { model: "m", max_tokens: 100, thinking: { type: "enabled", budget_tokens: 50 }, tools: [READ], messages: [user("go")] });
  expect(r.status).toBe(200);
  return { role: "assistant", content: r.body.content };
}

describe("the scripted upstream, Anthropic Messages", () => {
  it("accepts a well-formed tool turn with its thinking block sent back untouched", async () => {
    up.begin();
    const a = await anthropicTurn();
    const id = a.content[1].id;
    const r = await post("/v1/messages", { model: "m", max_tokens: 100, thinking: { type: "enabled", budget_tokens: 50 }, tools: [READ], messages: [user("go"), a, user([{ type: "tool_result", tool_use_id: id, content: "x" }])] });
    expect(r.status).toBe(200);
  });

  const cases: [string, (a: any) => unknown[], RegExp][] = [
    ["a tool_use with no tool_result after it", (a) => [user("go"), a, user("next")], /without `tool_result`/],
    ["a tool_result with no tool_use before it", (a) => [user("go"), { role: "assistant", content: [{ type: "text", text: "hi" }] }, user([{ type: "tool_result", tool_use_id: a.content[1].id, content: "x" }])], /unexpected `tool_use_id`/],
    ["an edited thinking block", (a) => [user("go"), { ...a, content: [{ ...a.content[0], thinking: a.content[0].thinking + " " }, a.content[1]] }, user([{ type: "tool_result", tool_use_id: a.content[1].id, content: "x" }])], /signature/],
    ["the last assistant turn not starting with its thinking", (a) => [user("go"), { ...a, content: [a.content[1], a.content[0]] }, user([{ type: "tool_result", tool_use_id: a.content[1].id, content: "x" }])], /must start with a thinking block/],
    ["an empty text block", () => [user([{ type: "text", text: "" }])], /non-empty/],
    ["two user messages in a row", () => [user("a"), user("b")], /alternate/],
    ["five cache_control breakpoints", () => [user([1, 2, 3, 4, 5].map((n) => ({ type: "text", text: `t${n}`, cache_control: { type: "ephemeral" } })))], /maximum of 4 blocks with cache_control/],
  ];
  for (const [what, messages, error] of cases) {
    it(`refuses ${what}, in Anthropic's error shape`, async () => {
      up.begin();
      const a = await anthropicTurn();
      const r = await post("/v1/messages", { model: "m", max_tokens: 100, thinking: { type: "enabled", budget_tokens: 50 }, tools: [READ], messages: messages(a) });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
      expect(r.body.error.message).toMatch(error);
    });
  }

  it("refuses a prompt over its window", async () => {
    up.begin({ window: 1000 });
    const r = await post("/v1/messages", { model: "m", max_tokens: 10, messages: [user("x".repeat(8000))] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/prompt is too long: \d+ tokens > 1000 maximum/);
  });
});

describe("the scripted upstream, OpenAI Chat Completions", () => {
  const FN = { type: "function", function: { name: "read", parameters: { type: "object", properties: { filePath: { type: "string" } } } } };
  const call = { id: "call_1", type: "function", function: { name: "read", arguments: "{}" } };
  it("refuses a tool message answering no call, and a call left unanswered, in OpenAI's shape", async () => {
    up.begin();
    const orphan = await post("/v1/chat/completions", { model: "m", tools: [FN], messages: [user("go"), { role: "tool", tool_call_id: "call_9", content: "x" }] });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error).toMatchObject({ type: "invalid_request_error" });
    expect(orphan.body.error.message).toMatch(/must be a response to a preceeding message with 'tool_calls'/);
    const open = await post("/v1/chat/completions", { model: "m", tools: [FN], messages: [user("go"), { role: "assistant", content: null, tool_calls: [call] }, user("next")] });
    expect(open.status).toBe(400);
    expect(open.body.error.message).toMatch(/call_1/);
    const ok = await post("/v1/chat/completions", { model: "m", tools: [FN], messages: [user("go"), { role: "assistant", content: null, tool_calls: [call] }, { role: "tool", tool_call_id: "call_1", content: "x" }] });
    expect(ok.status).toBe(200);
    expect(ok.body.choices[0].message.tool_calls[0].function.name).toBe("read");
  });
});

describe("the scripted upstream, OpenAI Responses", () => {
  const FN = { type: "function", name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } } } };
  it("refuses an output for an unknown call_id, and reasoning whose encrypted_content changed", async () => {
    up.begin();
    const first = await post("/v1/responses", { model: "gpt-5", tools: [FN], include: ["reasoning.encrypted_content"], input: [user("go")] });
    expect(first.status).toBe(200);
    const [reasoning, fc] = first.body.output;
    expect(reasoning.type).toBe("reasoning");
    expect(fc.type).toBe("function_call");
    const back = (r: any, callId = fc.call_id) => [user("go"), r, fc, { type: "function_call_output", call_id: callId, output: "x" }];
    expect((await post("/v1/responses", { model: "gpt-5", tools: [FN], input: back(reasoning) })).status).toBe(200);
    const orphan = await post("/v1/responses", { model: "gpt-5", tools: [FN], input: back(reasoning, "call_unknown") });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error.message).toMatch(/call_unknown/);
    const tampered = await post("/v1/responses", { model: "gpt-5", tools: [FN], input: back({ ...reasoning, encrypted_content: reasoning.encrypted_content.slice(1) }) });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error.message).toMatch(/could not be verified/);
  });
});
