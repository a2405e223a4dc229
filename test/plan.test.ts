import { describe, expect, it } from "vitest";
import { HANDOFF_END, HANDOFF_PREFIX, plan, type ChatMessage } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";
import { assistant, call, filler, sys, user } from "./support/build.js";

function long(turns: number): ChatMessage[] {
  const m: ChatMessage[] = [sys(), user("Fix the failing test in src/app.ts")];
  for (let i = 0; i < turns; i++) m.push(...call("Bash", { command: `npm test -- ${i}` }, filler(300)));
  m.push(user("now also update the docs"), assistant("ok"));
  return m;
}

describe("plan", () => {
  it("applies the threshold to the window minus reserved output", () => {
    const p = plan([user("hi")], { contextWindow: 10_000, maxOutputTokens: 2_000 });
    expect(p.tokens.threshold).toBe(6_000);
    expect(p.shouldCompact).toBe(false);
    expect(p.reason).toMatch(/under the threshold of 6000/);
  });

  it("keeps the system prompt and headMessages in the head, moved past tool results", () => {
    const m = [sys(), user("task"), ...call("Read", { file_path: "/a.ts" }, "short"), assistant("done")];
    expect(plan(m, { contextWindow: 100_000, headMessages: 2 }).head).toEqual({ start: 0, end: 4 });
    expect(plan(m, { contextWindow: 100_000, headMessages: 3 }).head).toEqual({ start: 0, end: 4 });
  });

  it("ends the head before a large batch of results instead of taking it along", () => {
    const m = [sys(), user("task"), ...call("Read", { file_path: "/a.ts" }, filler(3000)), assistant("done"), ...long(5).slice(2)];
    const p = plan(m, { contextWindow: 8_000, headMessages: 2 });
    expect(p.head.end).toBe(2);
  });

  it("walks the tail back by its budget, at least three messages, never splitting a tool group", () => {
    const m = long(30);
    const p = plan(m, { contextWindow: 20_000 });
    expect(p.shouldCompact).toBe(true);
    expect(m[p.tail.start].role).not.toBe("tool");
    expect(p.tail.end - p.tail.start).toBeGreaterThanOrEqual(3);
    let tail = 0;
    for (let i = p.tail.start; i < p.tail.end; i++) tail += p.tokens.perMessage[i];
    expect(tail).toBeLessThanOrEqual(Math.ceil(p.tokens.threshold * 0.2 * 1.5) + 500);
    expect(p.head.end).toBe(p.middle.start);
    expect(p.middle.end).toBe(p.tail.start);
  });

  it("keeps one oversized recent message whole in the tail", () => {
    const m = [...long(10), ...call("Bash", { command: "cat big.log" }, filler(8000))];
    const p = plan(m, { contextWindow: 16_000 });
    expect(p.tail.start).toBeLessThanOrEqual(m.length - 2);
  });

  it("puts the latest real user message in the tail", () => {
    const m = long(30);
    m.push(...call("Bash", { command: "ls" }, "x"));
    const p = plan(m, { contextWindow: 40_000 });
    expect(p.latestUserIndex).toBe(m.length - 4);
    expect(p.tail.start).toBeLessThanOrEqual(p.latestUserIndex);
  });

  it("pins an early latest request when everything after it would not fit a tail", () => {
    const m: ChatMessage[] = [sys(), user("first"), assistant("ok"), assistant("…"), user("the real task")];
    for (let i = 0; i < 40; i++) m.push(...call("Bash", { command: `step ${i}` }, filler(300)));
    const p = plan(m, { contextWindow: 16_000 });
    expect(p.latestUserIndex).toBe(4);
    expect(p.pinned).toEqual([4]);
    expect(p.tail.start).toBeGreaterThan(4);
  });

  it("recognises an earlier handoff — ours or another agent's — as state, not a user turn", () => {
    const ours = user(`${HANDOFF_PREFIX}\n3 earlier messages…\n\n## Goal\n- x\n\n${HANDOFF_END}`);
    const m = [sys(), user("task"), assistant("a"), user("b"), ours, ...long(3).slice(2)];
    const p = plan(m, { contextWindow: 100_000 });
    expect(p.previousHandoffIndex).toBe(4);
    expect(p.latestUserIndex).not.toBe(4);

    // Another agent's handoff that came last is the latest user message (it says to go on), kept as a message.
    const cc = trajectory("claude-code-spotter__fa812bfe-");
    const q = plan(cc.messages, { contextWindow: 200_000 });
    expect(String(cc.messages[q.latestUserIndex].content)).toMatch(/^This session is being continued/);
    expect(q.previousHandoffIndex).toBe(-1);
    const followed = [...cc.messages.slice(0, 300), user("now push it"), assistant("ok")];
    const f = plan(followed, { contextWindow: 200_000 });
    expect(f.previousHandoffIndex).toBe(q.latestUserIndex);
    expect(f.latestUserIndex).toBe(300);
  });

  it("ends the head before an earlier handoff that falls inside it", () => {
    const ours = user(`${HANDOFF_PREFIX}\nx\n\n${HANDOFF_END}`);
    const p = plan([sys(), user("task"), ours, ...long(3).slice(1)], { contextWindow: 100_000, headMessages: 3 });
    expect(p.head.end).toBe(2);
  });

  it("says why it does not compact", () => {
    expect(plan(long(2), { contextWindow: 1_000_000 }).reason).toMatch(/under the threshold/);
    expect(plan(long(30), { contextWindow: 20_000 }).reason).toMatch(/exceed the threshold/);
    expect(plan(long(30), { contextWindow: 1_000_000, force: true }).reason).toMatch(/forced/);
  });

  it("chooses the handoff role that keeps user and assistant alternating, or merges", () => {
    const m = long(20);
    const p = plan(m, { contextWindow: 16_000, headMessages: 1 });
    expect(m[p.head.end - 1].role).toBe("user");
    expect(p.seam === "merge" || p.seam !== m[p.tail.start].role).toBe(true);
  });
});
