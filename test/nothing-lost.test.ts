// Issue 25 items 1, 2, 8, 12 and issue 24 item 4: plan and compact agree, the head has a size rule,
// an oversized unread tool result is shrunk, a tool_use stays with its result, and the latest user
// message stays a verbatim message. Each reproduction first, as the issues reported it.
import { describe, expect, it } from "vitest";
import { anthropicMessages, compact, createCompactor, plan, recall, type AnthropicMessage, type ChatMessage } from "../src/index.js";
import { fromOpenAI } from "../src/convert.js";
import { trajectory } from "./support/fixtures.js";
import { assistant, call, filler, sys, user } from "./support/build.js";
import { violations } from "./support/invariants.js";

const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

describe("plan().shouldCompact agrees with what compact does", () => {
  it("is false when nothing can be compacted: three messages over the threshold, all in the tail", async () => {
    const m = [user(`read this ${filler(900)}`), assistant(`sure ${filler(900)}`), user(`and this ${filler(900)}`)];
    const options = { contextWindow: 3_000 };
    const p = plan(m, options);
    expect(p.tokens.total).toBeGreaterThan(p.tokens.threshold);
    expect(p.shouldCompact).toBe(false);
    expect(p.reason).toMatch(/nothing can be compacted/);
    const r = await compact(m, options);
    expect(r.report.mode).toBe("noop");
    expect(r.messages).toBe(m);
    expect(createCompactor(options).shouldCompact(m)).toBe(false); // what the AI SDK hooks and the worker poll
  });

  it("is true when only the tail's own read tool outputs can be pruned, and compact prunes them", async () => {
    const m = [user("task"), ...call("Read", { file_path: "/a.ts" }, filler(2_000)), assistant("read it"), user("now fix it")];
    const options = { contextWindow: 3_000, headMessages: 1 };
    const p = plan(m, options);
    expect(p.middle.end).toBe(p.middle.start);
    expect(p.shouldCompact).toBe(true);
    const r = await compact(m, options);
    expect(r.report.mode).toBe("prune");
    expect(r.report.pruned.map((x) => x.index)).toEqual([2]);
  });
});

describe("the head has a size rule", () => {
  // opencode's "compacts old completed tool output": an agent whose first act reads a large file.
  const m = [user("summarise big.txt"), ...call("Read", { file_path: "/big.txt" }, "x".repeat(200_000)), assistant("It is big."), user("and then?"), user("hello?")];

  it("a 200,000-character result among the first headMessages is compacted, not a noop forever", async () => {
    const options = { contextWindow: 100_000 };
    const p = plan(m, options);
    expect(p.shouldCompact).toBe(true);
    expect(p.head.end).toBeLessThanOrEqual(1);
    const r = await compact(m, options);
    expect(r.report.mode).not.toBe("noop");
    expect(r.report.tokensAfter).toBeLessThanOrEqual(p.tokens.threshold);
    expect(violations({ input: m, snapshot: JSON.stringify(m), plan: p, result: r })).toEqual([]);
    expect(r.messages).toContain(m[0]);
    expect(r.messages.at(-1)).toBe(m.at(-1));
    // The whole output is in the archive, under the reference the output cites.
    const ref = JSON.stringify(r.messages).match(/#\d+/)![0];
    expect(recall(r.archive!, ref)).toContain("x".repeat(1000));
  });

  it("small early results stay in the head as before", () => {
    const small = [sys(), user("task"), ...call("Read", { file_path: "/a.ts" }, "short"), assistant("done"), user("next")];
    expect(plan(small, { contextWindow: 100_000 }).head).toEqual({ start: 0, end: 4 });
  });
});

describe("a newest tool result that alone overflows the window", () => {
  const errorLine = "error TS2345: Argument of type 'string' is not assignable (src/app.ts:12)";
  const output = [
    "$ npm run build",
    ...Array.from({ length: 5_000 }, (_, i) => (i === 2_500 ? errorLine : `line ${i} ${"compiled module ok ".repeat(2)}`)),
    "exit code: 2",
  ].join("\n");
  const m = [sys(), user("build it and tell me what fails"), ...call("Bash", { command: "npm run build" }, output)];

  it("is shrunk to fit: head and tail kept, error and exit lines kept, the whole archived and cited, reported", async () => {
    expect(output.length).toBeGreaterThan(240_000);
    const options = { contextWindow: 60_000 };
    const p = plan(m, options);
    expect(p.tokens.total).toBeGreaterThan(60_000);
    expect(p.shouldCompact).toBe(true);
    const r = await compact(m, options);
    expect(r.report.mode).not.toBe("noop");
    expect(r.report.tokensAfter).toBeLessThanOrEqual(p.tokens.threshold);
    expect(violations({ input: m, snapshot: JSON.stringify(m), plan: p, result: r })).toEqual([]);
    const shrunk = text(r.messages.at(-1)!);
    expect(r.messages.at(-1)!.tool_call_id).toBe(m.at(-1)!.tool_call_id);
    expect(shrunk.startsWith("$ npm run build\nline 0")).toBe(true);
    expect(shrunk).toContain(errorLine);
    expect(shrunk).toContain("exit code: 2");
    expect(shrunk).toMatch(/\[output shrunk #3: kept the first \d+ and the last \d+ of \d+ characters/);
    expect(recall(r.archive!, "#3", { limit: 1_000_000 })).toContain(output);
    expect(r.report.pruned).toEqual([expect.objectContaining({ index: 3, kind: "shrunk" })]);
    expect(r.report.warnings.join("\n")).toMatch(/shrunk the newest tool result at index 3/);
    expect(r.messages[1]).toBe(m[1]);
  });

  it("is left whole while the request fits the window", async () => {
    const fits = [sys(), user("build it"), ...call("Bash", { command: "npm run build" }, output.slice(0, 60_000))];
    const r = await compact(fits, { contextWindow: 20_000 });
    expect(r.report.pruned.filter((x) => x.kind === "shrunk")).toEqual([]);
  });
});

// Claude Code's usual shape: the latest user message carries the last tool_result and the user's text.
function claudeCode(after: number): AnthropicMessage[] {
  const m: AnthropicMessage[] = [{ role: "user", content: "Fix the failing build" }];
  let id = 0;
  const use = (cmd: string, say = ""): AnthropicMessage => ({ role: "assistant", content: [...(say ? [{ type: "text", text: say }] : []), { type: "tool_use", id: `toolu_${id++}`, name: "Bash", input: { command: cmd } }] });
  const result = (out: string, extra?: string): AnthropicMessage => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: `toolu_${id - 1}`, content: out }, ...(extra ? [{ type: "text", text: extra }] : [])],
  });
  for (let i = 0; i < 12; i++) m.push(use(`step ${i}`, `thinking aloud ${filler(300)}`), result(filler(100)));
  m.push(use("npm test"), result(`FAIL ${filler(300)}`, "also update the docs when the tests pass"));
  for (let i = 0; i < after; i++) m.push(use(`fix ${i}`), result(filler(after > 6 ? 700 : 150)));
  m.push({ role: "assistant", content: [{ type: "text", text: "Working on it." }] });
  return m;
}

describe("Anthropic: a tool_use stays with its result in the latest user message", () => {
  it.each([
    ["in the tail", 3],
    ["pinned", 12],
  ])("the call moves with its result (%s): forwarded, never stripped as an orphan", async (_, after) => {
    const m = claudeCode(after);
    const latest = m.length - 2 - 2 * after;
    const options = { contextWindow: 8_000, dialect: anthropicMessages, tailTokens: 200 };
    const p = plan(m, options);
    expect(p.latestUserIndex).toBe(latest);
    const r = await compact(m, options);
    expect(r.report.mode).not.toBe("noop");
    expect(r.report.sanitized.removedOrphanResults).toEqual([]);
    // The latest user message as it was, right after its call (a handoff may be merged into the call's message).
    const at = r.messages.indexOf(m[latest]);
    expect(at).toBeGreaterThan(0);
    const id = (m[latest].content as { tool_use_id?: string }[])[0].tool_use_id;
    expect(r.messages[at - 1].content).toContainEqual(expect.objectContaining({ type: "tool_use", id }));
    expect(violations({ input: m, snapshot: JSON.stringify(m), plan: p, result: r, dialect: "anthropic" })).toEqual([]);
  });
});

describe("Anthropic: a request that carries tool results, too early for the tail, is pinned with its call", () => {
  // Claude Code's session 4d5611e5 at 32k: its latest user message (36, [tool_result, text]) stays the
  // latest for ~85 messages. Pinned alone it would orphan its result; held by the tail, the tail is
  // everything after it and passes can only prune it, ending just under the threshold.
  const messages = fromOpenAI(trajectory("claude-code-spotter__4d5611e5-241a").messages, "anthropic").messages as AnthropicMessage[];
  const ends = messages.flatMap((m, i) => (i > 0 && m.role === "assistant" ? [i] : [])); // the client's requests
  const options = { contextWindow: 32_000, dialect: anthropicMessages, system: "You are a coding agent. Today is Monday." };

  it.each(ends.filter((n) => n >= 101 && n <= 121))("the pair stays together verbatim and the tail is budget-sized (first %i messages)", async (n) => {
    const m = messages.slice(0, n);
    const p = plan(m, options);
    const lu = p.latestUserIndex;
    expect(lu).toBe(36);
    expect(p.pinned.slice(0, 2)).toEqual([lu - 1, lu]);
    const tail = p.tokens.perMessage.slice(p.tail.start).reduce((a, b) => a + b, 0);
    expect(tail).toBeLessThanOrEqual(p.tokens.threshold * 0.5);
    const r = await compact(m, options);
    expect(r.report.warnings.join("\n")).not.toMatch(/tail alone/);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(p.pruneTarget);
    expect(r.messages[r.messages.indexOf(m[lu]) - 1]).toBe(m[lu - 1]);
    expect(violations({ input: m, snapshot: JSON.stringify(m), plan: p, result: r, dialect: "anthropic" })).toEqual([]);
  });

  it("a pass leaves a runway: the client's next request is not a new pass (first 117 messages)", async () => {
    const r = await compact(messages.slice(0, 117), options);
    expect(r.report.mode).not.toBe("noop");
    const next = ends.find((e) => e > 117)!;
    expect(plan([...r.messages, ...messages.slice(117, next)], options).shouldCompact).toBe(false);
  });

  // Both layouts alternate: after a head ending in a user message the call follows it and the handoff
  // comes after the request; after one ending in an assistant message the handoff (a user message)
  // comes first, then call, request and a tail that starts with the model's turn.
  it.each([
    ["a user message", 1, ["user", "assistant", "user"]],
    ["an assistant message", 2, ["user", "assistant", "user", "assistant", "user"]],
  ])("after a head ending in %s", async (_, headMessages, opening) => {
    const m = claudeCode(12);
    if (headMessages === 2) m.splice(1, 0, { role: "assistant", content: "Looking." }, { role: "user", content: "go on" });
    const options = { contextWindow: 8_000, dialect: anthropicMessages, tailTokens: 200, headMessages };
    const p = plan(m, options);
    const lu = p.latestUserIndex;
    expect(p.pinned).toEqual([lu - 1, lu]);
    expect(p.handoffBeforePinned).toBe(headMessages === 2);
    const r = await compact(m, options);
    expect(r.report.mode).toBe("summary");
    const roles = r.messages.map((x) => x.role);
    expect(roles.slice(0, opening.length)).toEqual(opening);
    roles.forEach((role, i) => i > 0 && expect(role).not.toBe(roles[i - 1]));
    const at = r.messages.indexOf(m[lu]);
    expect(r.messages[at - 1]).toBe(m[lu - 1]);
    expect(r.messages[at + 1].role).toBe("assistant");
    expect(violations({ input: m, snapshot: JSON.stringify(m), plan: p, result: r, dialect: "anthropic" })).toEqual([]);
  });
});

describe("what sanitizing removes is archived and cited", () => {
  it("an orphan tool result (its call long gone) is removed, archived under its reference and cited in the warning", async () => {
    const m: ChatMessage[] = [sys(), user("go"), { role: "tool", tool_call_id: "ghost", content: `stale output ${filler(50)}` }];
    for (let i = 0; i < 30; i++) m.push(...call("Bash", { command: `s${i}` }, filler(300)));
    m.push(user("what now?"));
    const r = await compact(m, { contextWindow: 8_000 });
    expect(r.report.sanitized.removedOrphanResults).toEqual([2]);
    expect(r.report.warnings.join("\n")).toMatch(/input indices 2 \(archived as #2\)/);
    expect(recall(r.archive!, "#2")).toContain("stale output");
  });
});

describe("the latest user message stays a verbatim message", () => {
  it("is never wrapped in a merged handoff (head ending in an assistant message, a one-group middle)", async () => {
    const m = [sys(), user("task"), assistant("ok"), assistant(`analysis ${filler(3_000)}`), user("the latest request"), assistant("a"), assistant("b")];
    const options = { contextWindow: 4_000, headMessages: 2, tailTokens: 10 };
    const p = plan(m, options);
    const r = await compact(m, options);
    expect(r.report.mode).toBe("summary");
    expect(r.messages).toContain(m[4]);
    expect(violations({ input: m, snapshot: JSON.stringify(m), plan: p, result: r })).toEqual([]);
  });

  it("even when it is itself an earlier handoff (Claude Code's continuation message, fa812bfe at 32k)", async () => {
    const { messages } = trajectory("claude-code-spotter__fa812bfe-");
    const last = messages.map((x) => x.role).lastIndexOf("user");
    expect(text(messages[last])).toMatch(/^This session is being continued/);
    const options = { contextWindow: 32_000, maxOutputTokens: 2_000 };
    const p = plan(messages, options);
    expect(p.latestUserIndex).toBe(last);
    const r = await compact(messages, options);
    expect(r.report.mode).not.toBe("noop");
    expect(r.messages).toContain(messages[last]);
  });
});

describe("an image only a stub could replace is no reason to compact", () => {
  it("images charged at a token or two: shouldCompact false, a noop, and no stub that costs more than the image", async () => {
    const img = { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } };
    const m: ChatMessage[] = [
      { role: "user", content: "x ".repeat(460) },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "Screenshot", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "shot" }, img] as never },
      { role: "assistant", content: "I see it." },
      { role: "user", content: [{ type: "text", text: "and now?" }, img] as never },
      { role: "assistant", content: "Fine." },
    ];
    const cheap = { contextWindow: 600, imageTokens: 1, headMessages: 1 };
    const p = plan(m, cheap);
    expect(p.tokens.total).toBeGreaterThan(p.tokens.threshold);
    expect(p.middle.end).toBe(p.middle.start);
    expect(p.shouldCompact).toBe(false);
    expect((await compact(m, { ...cheap, force: true })).report.pruned).toEqual([]);
    // Charged as images usually are, the same screenshot is pruned.
    expect((await compact(m, { ...cheap, imageTokens: 1600 })).report.pruned.map((x) => x.index)).toContain(2);
  });
});

