// A prune-only pass keeps the prompt cache: nothing before the first pruned output changes, the
// system message included. Only a handoff adds the system note.
import { describe, expect, it } from "vitest";
import { SYSTEM_NOTE, anthropicMessages, compact, previewPrune, type AnthropicMessage, type ChatMessage } from "../src/index.js";
import { fromOpenAI } from "../src/convert.js";
import { assistant, call, sys, user } from "./support/build.js";

/** A session whose middle is mostly one large, stale tool output: pruning it alone buys the runway. */
function session(): ChatMessage[] {
  const m: ChatMessage[] = [sys("You are a careful engineer."), user("Fix the flaky test in parser.spec.ts"), assistant("Looking.")];
  m.push(user("The CI log is in fixtures/big.log"), assistant("Reading it."));
  m.push(...call("Read", { path: "fixtures/big.log" }, "x".repeat(2_000) + " log line\n".repeat(8_000)));
  for (let i = 0; i < 6; i++) m.push(user(`step ${i}: keep going`), assistant(`done step ${i}`));
  return m;
}

describe("a prune-only pass", () => {
  it("keeps the system message and every message before the first pruned one as the same objects", async () => {
    const input = session();
    const options = { contextWindow: 16_000 };
    expect(previewPrune(input, options).accepted).toBe(true);
    const r = await compact(input, options);
    expect(r.report.mode).toBe("prune");
    expect(r.messages[0]).toBe(input[0]);
    expect(JSON.stringify(r.messages)).not.toContain(SYSTEM_NOTE);
    const firstPruned = r.report.pruned[0].index;
    expect(r.report.firstChangedIndex).toBe(firstPruned);
    for (let i = 0; i < firstPruned; i++) expect(r.messages[i]).toBe(input[i]);
  });

  it("leaves a separate system prompt (Anthropic) unchanged too", async () => {
    const { messages, system } = fromOpenAI(session(), "anthropic");
    const r = await compact(messages as AnthropicMessage[], { contextWindow: 16_000, dialect: anthropicMessages, system });
    expect(r.report.mode).toBe("prune");
    expect(r.system).toBe(system);
    expect(r.report.systemChanged).toBe(false);
  });

  it("a pass that writes a handoff adds the note once", async () => {
    const r = await compact(session(), { contextWindow: 16_000, force: true, runway: 100_000 });
    expect(r.report.mode).toBe("summary");
    expect(JSON.stringify(r.messages[0]).split(SYSTEM_NOTE.slice(0, 40))).toHaveLength(2);
  });
});
