// A prune-only pass keeps the prompt cache: nothing before the first pruned output changes, the
// system message included. Only a handoff adds the system note.
import { describe, expect, it } from "vitest";
import { SYSTEM_NOTE, anthropicMessages, compact, previewPrune, type AnthropicMessage, type ChatMessage } from "../src/index.js";
import { fromOpenAI } from "../src/convert.js";
import { staleLogSession } from "./support/build.js";


describe("a prune-only pass", () => {
  it("keeps the system message and every message before the first pruned one as the same objects", async () => {
    const input = staleLogSession();
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
    const { messages, system } = fromOpenAI(staleLogSession(), "anthropic");
    const r = await compact(messages as AnthropicMessage[], { contextWindow: 16_000, dialect: anthropicMessages, system });
    expect(r.report.mode).toBe("prune");
    expect(r.system).toBe(system);
    expect(r.report.systemChanged).toBe(false);
  });

  it("a pass that writes a handoff adds the note once", async () => {
    const r = await compact(staleLogSession(), { contextWindow: 16_000, force: true, runway: 100_000 });
    expect(r.report.mode).toBe("summary");
    expect(JSON.stringify(r.messages[0]).split(SYSTEM_NOTE.slice(0, 40))).toHaveLength(2);
  });
});
