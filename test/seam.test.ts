// Issue 25, items 3 and 4: how the handoff joins head and tail, as the wire and strict chat templates see it.
import { describe, expect, it } from "vitest";
import { HANDOFF_PREFIX, compact, plan, type ChatMessage } from "../src/index.js";
import { openAIValidity, templateValidity } from "./support/validity.js";

const long = "lorem ipsum dolor sit amet ".repeat(400);
const call = (id: string, say: string | null = null): ChatMessage => ({ role: "assistant", content: say, tool_calls: [{ id, type: "function", function: { name: "Read", arguments: "{}" } }] });
const result = (id: string, content = long): ChatMessage => ({ role: "tool", tool_call_id: id, content });
const textOf = (m: ChatMessage) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => ("text" in p ? String(p.text) : "")).join(""));

describe("the seam as strict chat templates see it (Mistral, Devstral: tool flow skipped)", () => {
  it("after a head [user, call, result] the handoff is not a second user turn (Hermes' summary-role alternation)", async () => {
    const input: ChatMessage[] = [
      { role: "user", content: "fix the failing test" }, call("a"), result("a", "short"),
      { role: "assistant", content: long }, { role: "user", content: "more" }, { role: "assistant", content: long },
      { role: "assistant", content: "ok then" }, { role: "user", content: "go on" }, { role: "assistant", content: "sure" },
    ];
    const p = plan(input, { contextWindow: 4000, force: true });
    const r = await compact(input, { contextWindow: 4000, force: true });
    expect(r.report.mode).toBe("summary");
    expect(openAIValidity(r.messages)).toEqual([]);
    expect(templateValidity(input, r.messages, p.seam === "merge" ? p.tail.start : -1)).toEqual([]);
    // The template's turns: user, (call), (result), then an assistant turn carrying the handoff.
    const shown = r.messages.filter((m) => (m.role === "user" || m.role === "assistant") && !m.tool_calls);
    shown.forEach((m, k) => k && expect(m.role).not.toBe(shown[k - 1].role));
    expect(r.report.warnings.join("\n")).not.toContain("strict chat templates");
  });

  it("starts the tail a group earlier when no role of the handoff keeps both views alternating", async () => {
    // Head ends with an assistant turn; the tail would open with a call whose loop ends in a user turn:
    // a user handoff is a second user turn to the template, an assistant one a second assistant on the wire.
    const input: ChatMessage[] = [
      { role: "user", content: "start" }, { role: "assistant", content: "plan" }, { role: "user", content: long },
      { role: "assistant", content: long }, { role: "user", content: "and now?" }, call("b"), result("b", "ok"), { role: "user", content: "continue" },
    ];
    const opts = { contextWindow: 3000, headMessages: 2, tailTokens: 10, force: true };
    const p = plan(input, opts);
    const r = await compact(input, opts);
    expect(r.report.mode).toBe("summary");
    expect(templateValidity(input, r.messages, p.seam === "merge" ? p.tail.start : -1)).toEqual([]);
    expect(openAIValidity(r.messages)).toEqual([]);
  });
});

describe("zero-user guard (Hermes): the output keeps a user message with text", () => {
  const image = { type: "image_url" as const, image_url: { url: "https://example.com/a.png" } };
  const loop = (): ChatMessage[] => [
    { role: "user", content: [image] },
    ...["a", "b", "c", "d", "e"].flatMap((id) => [call(id), result(id)]),
  ];

  it.each([1, 3])("an image-only request with headMessages %i: the handoff is a user message, not merged into a call", async (headMessages) => {
    const input = loop();
    const r = await compact(input, { contextWindow: 8000, headMessages });
    expect(r.report.mode).toBe("summary");
    const users = r.messages.filter((m) => m.role === "user" && textOf(m).trim() !== "");
    expect(users.length).toBeGreaterThan(0);
    expect(textOf(users[0])).toContain(HANDOFF_PREFIX);
    expect(r.messages).toContain(input[0]); // the request itself stays, as it was
    expect(openAIValidity(r.messages)).toEqual([]);
    expect(r.messages.some((m) => m.tool_calls && textOf(m).includes(HANDOFF_PREFIX))).toBe(false);
  });
});

describe("moving the tail never swallows a pinned request", () => {
  it("a pinned latest request stays between head and tail when the tail starts earlier (property-test counterexample)", async () => {
    const x = "x".repeat(20_000);
    const input: ChatMessage[] = [
      { role: "user", content: x }, { role: "user", content: x }, call("c"), result("c", ""),
      { role: "user", content: `${HANDOFF_PREFIX}\nolder turns\n\n## Goal\n- \n\n--- END OF CONTEXT HANDOFF — answer the latest user message, not this summary ---` },
    ];
    const p = plan(input, { contextWindow: 10_218, headMessages: 0 });
    for (const i of p.pinned) expect(i >= p.middle.start && i < p.middle.end).toBe(true);
    const r = await compact(input, { contextWindow: 10_218, headMessages: 0 });
    expect(r.messages).toContain(input[p.latestUserIndex]);
  });
});
