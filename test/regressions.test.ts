// The failures the seeds describe, each pinned by a test.
import { describe, expect, it } from "vitest";
import {
  HANDOFF_END,
  HANDOFF_PREFIX,
  SYSTEM_NOTE,
  compact,
  createCompactor,
  estimateTokens,
  type AnthropicMessage,
  type ChatMessage,
  type CompactorState,
  type Summarizer,
} from "../src/index.js";
import { anthropicMessages, plan } from "../src/index.js";
import { violations } from "./support/invariants.js";
import { openAIValidity } from "./support/validity.js";
import { trajectory } from "./support/fixtures.js";
import { assistant, call, filler, sys, user } from "./support/build.js";

const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

describe("seed regressions", () => {
  it("the latest request is never pulled into the summary", async () => {
    // fa812bfe: the last real request (index 108) is followed by ~90k tokens of tool work, then by
    // Claude Code's own handoff (index 288), which quotes it and is the latest user message.
    const t = trajectory("claude-code-spotter__fa812bfe-");
    for (const contextWindow of [16_000, 32_000, 128_000]) {
      const r = await compact(t.messages, { contextWindow });
      expect(text(t.messages[108])).toBe("continue until all are done");
      const ask = t.messages[288];
      expect(text(ask)).toContain("continue until all are done");
      expect(r.messages).toContain(ask);
      expect(r.report.tokensAfter).toBeLessThan(r.report.tokensBefore);
      if (contextWindow <= 32_000) expect(r.report.tokensAfter).toBeLessThan(contextWindow * 0.75);
    }
  });

  it("orphan tool results in the input are dropped (and reported), never sent on", async () => {
    const m: ChatMessage[] = [sys(), user("go"), { role: "tool", tool_call_id: "ghost", content: "stale" }];
    for (let i = 0; i < 30; i++) m.push(...call("Bash", { command: `s${i}` }, filler(300)));
    m.push({ role: "tool", tool_call_id: "ghost2", content: "stale too" }, user("next"), assistant("ok"));
    const r = await compact(m, { contextWindow: 16_000 });
    expect(openAIValidity(r.messages)).toEqual([]);
    expect(r.report.sanitized.removedOrphanResults.length).toBeGreaterThan(0);
    expect(r.report.warnings.join("\n")).toMatch(/removed tool results without a matching call/);
  });

  it("truncated tool-call JSON in the input does not break compaction", async () => {
    const m: ChatMessage[] = [sys(), user("go")];
    for (let i = 0; i < 30; i++) {
      m.push({ role: "assistant", content: null, tool_calls: [{ id: `t${i}`, type: "function", function: { name: "Edit", arguments: `{"file_path": "/a.ts", "old": "${filler(200)}` } }] });
      m.push({ role: "tool", tool_call_id: `t${i}`, content: filler(200) });
    }
    m.push(user("status?"));
    const r = await compact(m, { contextWindow: 16_000 });
    expect(r.report.mode).not.toBe("noop");
    expect(openAIValidity(r.messages)).toEqual([]);
  });

  it("a 1 MB base64 screenshot costs the fixed image estimate, not 250k tokens", () => {
    const shot: ChatMessage = { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${"Q".repeat(1 << 20)}` } }] };
    expect(estimateTokens(shot)).toBeLessThan(2_000);
  });

  it("a summary is updated, never summarized as an ordinary turn", async () => {
    const requests: string[] = [];
    const model: Summarizer = async (req) => {
      const prompt = text(req.messages[1]);
      requests.push(prompt);
      return `## Active task\n- pass ${requests.length}\n## Goal\n- GOAL-${requests.length}`;
    };
    model.label = "model";
    let messages: ChatMessage[] = [sys(), user("Build the thing")];
    let state: CompactorState | undefined;
    for (let pass = 0; pass < 3; pass++) {
      for (let i = 0; i < 40; i++) messages = [...messages, assistant(filler(200)), ...call("Bash", { command: `p${pass}s${i}` }, "ok")];
      messages = [...messages, user(`request ${pass}`), assistant("ok")];
      const r = await compact(messages, { contextWindow: 16_000, summarizer: model, state });
      expect(r.report.mode).toBe("summary");
      messages = r.messages;
      state = r.state;
      expect(messages.filter((m) => text(m).startsWith(HANDOFF_PREFIX))).toHaveLength(1);
      expect(text(messages[0]).split(SYSTEM_NOTE)).toHaveLength(2); // the note is appended once
    }
    // Passes 2 and 3 update the previous checkpoint; the old handoff is not a turn in the transcript part.
    expect(requests[1]).toContain("<previous-checkpoint>\n## Active task\n- pass 1");
    const turns = requests[1].slice(requests[1].indexOf("<turns"), requests[1].indexOf("</turns>"));
    expect(turns).not.toContain(HANDOFF_PREFIX);
    expect(turns).not.toContain("GOAL-1");
    expect(requests[2]).toContain("GOAL-2");
  });

  it("compaction that cannot make progress backs off instead of looping", async () => {
    // Everything sits in the head and a huge tail: each pass saves almost nothing.
    const m: ChatMessage[] = [sys(), user(filler(3000)), assistant("ok"), user("go"), assistant(filler(100)), user(filler(100)), assistant(filler(100)), user(filler(6000)), assistant(filler(3000)), user(filler(3000))];
    const c = createCompactor({ contextWindow: 16_000 });
    let current = m;
    const modes: string[] = [];
    for (let pass = 0; pass < 5; pass++) {
      if (!c.shouldCompact(current)) break;
      const r = await c.compact(current);
      modes.push(r.report.mode);
      current = r.messages;
    }
    expect(modes.length).toBeLessThanOrEqual(2);
    expect(c.state.strikes).toBeGreaterThanOrEqual(2);
    expect(c.shouldCompact(current)).toBe(false);
    const forced = await c.compact(current, { force: true });
    expect(forced.report.reason).toMatch(/forced/);
  });

  it("an earlier handoff in the tail joins the middle: one checkpoint out, not two (Anthropic, merge seam)", async () => {
    // From the invariant checker: an earlier handoff merged into [tool_result, handoff, image] fell in
    // the tail, was pruned there, and the pass wrote a second handoff beside it.
    const old = `${HANDOFF_PREFIX}\nolder turns\n\n## Goal\n- \n\n${HANDOFF_END}`;
    const use = (id: string, input: Record<string, unknown>): AnthropicMessage => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input }] });
    const result = (id: string, content: string) => ({ type: "tool_result" as const, tool_use_id: id, content });
    const input: AnthropicMessage[] = [
      { role: "user", content: "(conversation continued)" },
      use("call_3uz", { arguments: '{"command": "ls -la", "trunc' }),
      { role: "user", content: [result("call_3uz", "duplicate output\n".repeat(20))] },
      use("call_3vb", { command: "make" }),
      {
        role: "user",
        content: [
          result("call_3vb", "build step ok\n".repeat(286) + "more output\n".repeat(334)),
          { type: "text", text: old },
          { type: "text", text: "" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo".repeat(40) } },
        ],
      },
      use("call_3w5", { file_path: "/src/a.ts", content: "log line with some output\n".repeat(11) }),
    ];
    const o = { contextWindow: 800, dialect: anthropicMessages };
    const snapshot = JSON.stringify(input);
    const p = plan(input, o);
    const r = await compact(input, o);
    expect(violations({ input, snapshot, plan: p, result: r, dialect: "anthropic" })).toEqual([]);
    expect(p.tail.start).toBeGreaterThan(p.previousHandoffIndex);
    expect(r.messages.filter((m) => JSON.stringify(m).includes(HANDOFF_PREFIX.slice(1, -1)))).toHaveLength(1);
  });
});
