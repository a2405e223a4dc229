// Issue 24 item 2 / issue 25 "nothing lost": an earlier checkpoint another agent or the provider wrote
// (Claude Code's continuation message, an Anthropic `compaction` block, a Responses `compaction` item)
// that falls into the middle is carried by the deterministic checkpoint: its words quoted (redacted,
// bounded), said to be its words, cited by the reference `recall` reads the whole under.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anthropicMessages, compact, openAIResponses, recall, type AnthropicMessage, type ChatMessage, type ResponsesItem, type SummarizeRequest } from "../src/index.js";
import { deterministicCheckpoint } from "../src/summarizers/deterministic.js";
import { redactor } from "../src/redact/index.js";
import { FIXTURES, trajectory } from "./support/fixtures.js";
import { assistant, filler, user } from "./support/build.js";
import { completed } from "../src/redact/more.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(redactor);

/** The sections of a checkpoint by heading. */
function section(summary: string, name: string): string[] | undefined {
  const at = summary.indexOf(`## ${name}\n`);
  if (at < 0) return undefined;
  const body = summary.slice(at + name.length + 4);
  const end = body.search(/\n\n## /);
  return (end < 0 ? body : body.slice(0, end)).split("\n");
}

const fold = (s: string) => s.replace(/\s+/g, " ").trim();

/** Every quoted line is the earlier checkpoint's words (a cut line: its beginning), or says what was left out and where to read it. */
function untraceable(lines: string[], source: string, ref: string): string[] {
  const whole = fold(redactor.redact(source));
  return lines
    .filter((l) => l.startsWith("> "))
    .map((l) => l.slice(2))
    .filter((l) => !(l.startsWith("…[") && l.includes(ref)))
    .filter((l) => !whole.includes(fold(l.replace(/ …$/, ""))));
}

const GITHUB_TOKEN = "ghp_Xq7rT2mK9pL4vN8wB3zC6yH1jD5fG0sA2eR4";

describe("a foreign checkpoint in the middle is carried by the deterministic checkpoint", () => {
  it("Claude Code's continuation message (fa812bfe, a later request after it)", async () => {
    const { messages } = trajectory("claude-code-spotter__fa812bfe-");
    const at = 288;
    const earlier = messages[at].content as string;
    expect(earlier).toMatch(/^This session is being continued/);
    const m: ChatMessage[] = [...messages, user("now run the full test suite"), assistant("Running it.")];
    for (const contextWindow of [16_000, 32_000, 64_000]) {
      const r = await compact(m, { contextWindow });
      expect(r.report.mode, `${contextWindow}: ${r.report.warnings}`).toBe("summary");
      expect(r.messages).not.toContain(m[at]);
      const summary = r.state.previousSummary!;
      const lines = section(summary, "Earlier checkpoint");
      expect(lines, `${contextWindow}`).toBeDefined();
      // Said to be its words, cited; recall reads the whole.
      expect(lines![0]).toMatch(/#288\b.*words/);
      expect(recall(r.archive!, "#288")).toContain(earlier.slice(-2000));
      const quoted = lines!.filter((l) => l.startsWith("> "));
      expect(quoted.length).toBeGreaterThan(3);
      expect(untraceable(lines!, earlier, "#288")).toEqual([]);
      // What it recorded reaches the new checkpoint: its opening words at least.
      expect(quoted.join("\n")).toContain("The summary below covers the earlier portion of the conversation.");
      // Bounded within the summary budget: cut to fit at the smaller windows.
      if (contextWindow <= 32_000) expect(quoted.join("\n").length).toBeLessThan(earlier.length / 2);
    }
  });

  it("an Anthropic `compaction` block (its real shape), redacted", async () => {
    // The block as the API streamed it (test/fixtures/sse), with a secret planted in it.
    const sse = readFileSync(`${FIXTURES}sse/anthropic__vercel-compaction.txt`, "utf8");
    const delta = sse.split("\n").find((l) => l.includes('"compaction_delta"'))!;
    const content = `${JSON.parse(delta.slice(6)).delta.content as string}\n\nDeploy with GITHUB_TOKEN=${GITHUB_TOKEN}`;
    const m: AnthropicMessage[] = [
      { role: "user", content: "Summarize the key algorithms and data structures from the documentation." },
      { role: "assistant", content: [{ type: "compaction", content } as never, { type: "text", text: "Here are the key algorithms." }] },
      { role: "user", content: "Now look at the repository." },
    ];
    for (let i = 0; i < 20; i++) {
      m.push({ role: "assistant", content: [{ type: "text", text: `Reading f${i}: ${filler(300)}` }, { type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `cat src/f${i}.ts` } }] });
      m.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `${filler(1500)}` }] });
    }
    m.push({ role: "user", content: "Which file defines the queue?" });
    const r = await compact(m, { contextWindow: 16_000, dialect: anthropicMessages });
    expect(r.report.mode).toBe("summary");
    expect(r.messages).not.toContain(m[1]);
    expect(JSON.stringify(r.archive?.["#1"])).toContain("Dynamic Programming"); // archived whole, never edited
    const summary = r.state.previousSummary!;
    const lines = section(summary, "Earlier checkpoint")!;
    expect(lines[0]).toMatch(/#1\b.*words/);
    expect(lines.join("\n")).toContain("> ## Summary of Conversation");
    // The words of its message: the block's, then the text block after it.
    expect(untraceable(lines, `${content}\nHere are the key algorithms.`, "#1")).toEqual([]);
    expect(summary).not.toContain(GITHUB_TOKEN.slice(4));
  });

  it("a Responses `compaction` item: encrypted, only its existence is said", async () => {
    const items: Record<string, unknown>[] = [{ role: "developer", content: "You are a coding agent." }, { role: "user", content: "Fix the failing build." }];
    items.push({ type: "compaction", id: "cmp_1", encrypted_content: "gAAAAcmp".repeat(500) });
    for (let t = 0; t < 12; t++) {
      items.push({ type: "function_call", call_id: `a_${t}`, name: "shell", arguments: JSON.stringify({ command: ["cat", `src/a${t}.ts`] }) });
      items.push({ type: "function_call_output", call_id: `a_${t}`, output: `export const a${t} = 1;\n`.repeat(120) });
    }
    items.push({ role: "user", content: "Now run the tests." });
    const r = await compact(items as ResponsesItem[], { contextWindow: 6_000, dialect: openAIResponses, headMessages: 2 });
    expect(r.messages).not.toContain(items[2]);
    expect(r.archive?.["#2"]).toBeDefined();
    const lines = section(r.state.previousSummary!, "Earlier checkpoint")!;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/#2\b.*encrypted/);
    expect(r.state.previousSummary).not.toContain("gAAAA");
  });

  it("a model summarizer gets it once, as the previous checkpoint (the ledgers, computed from the turns, do not quote it)", async () => {
    const { messages } = trajectory("claude-code-spotter__fa812bfe-");
    const m: ChatMessage[] = [...messages, user("now run the full test suite"), assistant("Running it.")];
    let prompt = "";
    const summarizer = async (req: SummarizeRequest) => ((prompt = String(req.messages.at(-1)!.content)), "## Active task\n> now run the full test suite");
    await compact(m, { contextWindow: 32_000, summarizer });
    const previous = /<previous-checkpoint>\n([\s\S]*?)\n<\/previous-checkpoint>/.exec(prompt)?.[1];
    expect(previous).toMatch(/^This session is being continued/);
    expect(prompt.split("This session is being continued")).toHaveLength(2);
    expect(/<ledgers>[\s\S]*<\/ledgers>/.exec(prompt)?.[0]).not.toContain("## Earlier checkpoint");
  });

  it("a later pass over our own checkpoint keeps the earlier one it carried", () => {
    const first = deterministicCheckpoint(
      { turns: [{ index: 4, role: "user", text: "go on", toolCalls: [] }], middleCount: 4, previousSummary: "Here is a summary of the conversation to date:\nThe parser is fixed.", previousForeignAt: 2 },
      redactor,
    );
    const carried = section(first, "Earlier checkpoint")!;
    expect(carried).toContain("> The parser is fixed.");
    const second = deterministicCheckpoint({ turns: [{ index: 9, role: "user", text: "and the tests", toolCalls: [] }], middleCount: 3, previousSummary: first }, redactor);
    expect(section(second, "Earlier checkpoint")).toEqual(carried);
  });
});
