// What the handoff says, read as the agent that continues from it: the user's own words (never the
// blocks a harness writes into the user's turn), every error still unresolved at the end of the span,
// attachments named. On the real Claude Code sessions of test/fixtures, in the shapes Claude Code sends.
import { describe, expect, it } from "vitest";
import { aiSdkMessages, anthropicMessages, compact, type AnthropicMessage, type ChatMessage, type ModelMessage, type Summarizer } from "../src/index.js";
import { attachmentsOf } from "../src/summarize/attachments.js";
import { ledgers, userWords } from "../src/summarize/ledgers.js";
import type { HandoffTurn } from "../src/types.js";
import { unresolvedErrorLines, unresolvedKept, unresolvedOverFixtures } from "../bench/unresolved.js";
import { trajectories, trajectory } from "./support/fixtures.js";

const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => ("text" in p ? p.text : "")).join("\n"));
function sections(checkpoint: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of checkpoint.split(/\n\n(?=## )/)) if (part.startsWith("## ")) out.set(part.slice(3, part.indexOf("\n")), part.slice(part.indexOf("\n") + 1));
  return out;
}
const fold = (s: string) => s.replace(/\s+/g, " ").trim();

/** Claude Code's harness blocks as the fixtures hold them (the test's own list, not the code's). */
const HARNESS = /<system-reminder>|<\/system-reminder>|<task-notification>|<local-command-|<command-(?:name|message|args)>|Caveat: The messages below were generated|\[Request interrupted by user|Read the output file to retrieve the result/;
const REMINDER =
  "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nCodebase and user instructions are shown below. IMPORTANT: These instructions OVERRIDE any default behavior.\n</system-reminder>";
const TODO_REMINDER = "<system-reminder>\nThe TodoWrite tool hasn't been used recently. If you're working on tasks that would benefit from tracking progress, consider using the TodoWrite tool.\n</system-reminder>";

/**
 * A fixture as Claude Code puts it on the wire: a `<system-reminder>` text part first in messages[0],
 * reminders as text parts before the text of other user turns, and a last user turn that is only a reminder.
 */
function claudeCodeShaped(messages: ChatMessage[]): ChatMessage[] {
  const out = messages.map((m, i): ChatMessage => {
    if (m.role !== "user" || typeof m.content !== "string") return m;
    if (i === 0) return { ...m, content: [{ type: "text", text: REMINDER }, { type: "text", text: m.content }] };
    return i % 3 ? m : { ...m, content: [{ type: "text", text: TODO_REMINDER }, { type: "text", text: m.content }] };
  });
  return [...out, { role: "user", content: [{ type: "text", text: TODO_REMINDER }] }];
}

/** The latest thing the user wrote, by the test's own reading: tags and harness lines out, Claude Code's continuation aside. */
function latestUserWords(messages: ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== "user") continue;
    const t = text(messages[i]);
    if (t.startsWith("This session is being continued")) continue;
    const words = t
      .replace(/<command-args>([\s\S]*?)<\/command-args>/g, " $1 ")
      .replace(/<([\w-]+)>[\s\S]*?<\/\1>/g, "")
      .split("\n")
      .filter((l) => !/^\s*(?:\[Request interrupted by user|Caveat: The messages below|Read the output file to retrieve)/.test(l))
      .join("\n")
      .trim();
    if (words) return words;
  }
  return undefined;
}

describe("userWords: the user's own words in a user turn", () => {
  const cc = (name: string) => trajectory(name).messages;

  it("takes out Claude Code's notices, echoes and local command output, as the fixtures hold them", () => {
    const heavy = cc("claude-code-spotter__tool_heavy");
    for (const i of [5, 6, 7, 8, 16]) expect(userWords(text(heavy[i])), text(heavy[i])).toBe(""); // interrupt, caveat, bare /mcp, its stdout
    expect(userWords(text(heavy[9]))).toBe(text(heavy[9]).trim());
    expect(userWords(text(cc("claude-code-spotter__fa812bfe-b295")[106]))).toBe(""); // a task notification and its pointer line
    expect(userWords(text(cc("claude-code-spotter__258c7280")[77]))).toBe(""); // "[Request interrupted by user for tool use]"
    for (const m of cc("claude-code-spotter__fa812bfe__agent-acompact").slice(0, 13)) expect(userWords(text(m))).toBe(""); // hook reminders
  });

  it("keeps a slash command by its arguments, the command named", () => {
    expect(userWords(text(cc("claude-code-spotter__subagent")[0]))).toBe(
      "/handgemacht:create-beads websearch to learn how to fastest setup credo, dialyzer, mix_audit (basically all supported by https://github.com/bradleygolden/claude-marketplace-elixir)\n\nMaybe there are igniter scripts?",
    );
    const compactCommand = "<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args>and continue with the remaining tasks</command-args>";
    expect(userWords(compactCommand)).toBe("/compact and continue with the remaining tasks");
  });

  it("finds the request after a reminder part and before a trailing one, whole messages and parts alike", () => {
    expect(userWords(`${REMINDER}\nFix the flaky login test`)).toBe("Fix the flaky login test");
    expect(userWords(`Fix the flaky login test\n${TODO_REMINDER}`)).toBe("Fix the flaky login test");
    expect(userWords("Use <div> tags, not <span>, in the header")).toBe("Use <div> tags, not <span>, in the header"); // tags of the user's own are words
  });

  it("make the requests ledger, slash-command arguments included", () => {
    let n = 0;
    const turn = (t: string): HandoffTurn => ({ index: n++, role: "user", text: t, toolCalls: [] });
    const l = ledgers([
      turn(`${REMINDER}\nAdd the export button; never touch the schema`),
      turn("<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>"),
      turn("<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args>and continue with the remaining tasks</command-args>"),
      turn("<local-command-stdout>Compacted.</local-command-stdout>"),
      turn(TODO_REMINDER),
    ]);
    expect(l.requests).toEqual([
      ["Add the export button; never touch the schema", 0],
      ["/compact and continue with the remaining tasks", 2],
    ]);
    expect(l.constraints.map(([s]) => s)).toEqual(["Add the export button; never touch the schema"]);
  });
});

describe("the checkpoint of every Claude Code fixture, in Claude Code's wire shape, at 16k and 32k", () => {
  for (const t of trajectories().filter((x) => x.name.startsWith("claude-code-spotter__"))) {
    for (const contextWindow of [16_000, 32_000]) {
      it(`${t.name.slice(21, 50)} at ${contextWindow / 1000}k: the Active task and the requests are the user's words, the latest of them first`, async () => {
        const messages = claudeCodeShaped(t.messages);
        const want = latestUserWords(messages)!;
        expect(want).toBeTruthy();
        // The pass the transcript calls for, and one forced to summarize (prune alone never accepted).
        for (const options of [{ contextWindow }, { contextWindow, force: true, runway: contextWindow }]) {
          const r = await compact(messages, options);
          if (r.report.mode !== "summary") continue;
          const s = sections(r.state.previousSummary!);
          const task = s.get("Active task")!;
          const requests = s.get("User requests") ?? "";
          expect(task).not.toMatch(HARNESS);
          expect(requests).not.toMatch(HARNESS);
          expect(fold(task.replace(/^> /gm, ""))).toContain(fold(want).slice(0, 60));
        }
      });
    }
  }

  it("quotes the request in the middle when every later user turn is a harness block, and the model check appends it", async () => {
    const messages = claudeCodeShaped(trajectory("claude-code-spotter__tool_heavy").messages);
    const model: Summarizer = Object.assign(async () => "## Active task\n- keep going", { label: "model" });
    // At 2k the request stays in the middle (at 4k the tail reaches back to it, as strict templates' alternation asks).
    const r = await compact(messages, { contextWindow: 2_000, summarizer: model, force: true });
    expect(r.report.mode).toBe("summary");
    expect(r.report.summary?.check?.latestRequest).toBe(false);
    expect(r.state.previousSummary).toContain("## Active task\n> scrolling back in xterm.js still does not work");
    let prompt = "";
    const spy: Summarizer = Object.assign(async (req: { messages: ChatMessage[] }) => ((prompt = text(req.messages[1])), "## Active task\n> x"), { label: "spy" });
    await compact(messages, { contextWindow: 2_000, summarizer: spy, force: true });
    expect(/<latest-request>\n([\s\S]*?)\n<\/latest-request>/.exec(prompt)?.[1]).toBe("scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions");
  });

  it("reads Anthropic text blocks the same way: the reminder block first in messages[0], the request last", async () => {
    const messages: AnthropicMessage[] = [
      { role: "user", content: [{ type: "text", text: REMINDER }, { type: "text", text: "Make the nightly export idempotent" }] },
      ...Array.from({ length: 10 }, (_, i): AnthropicMessage[] => [
        { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `cat part${i}.log` } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `line ${"x".repeat(3000)}` }, { type: "text", text: TODO_REMINDER }] },
      ]).flat(),
      { role: "assistant", content: [{ type: "text", text: "Read them all." }] },
      { role: "user", content: [{ type: "text", text: TODO_REMINDER }] },
    ];
    const r = await compact(messages, { dialect: anthropicMessages, contextWindow: 4_000, force: true, headMessages: 0 });
    expect(r.report.mode).toBe("summary");
    const s = sections(r.state.previousSummary!);
    expect(s.get("Active task")).toBe("> Make the nightly export idempotent");
    expect(r.state.previousSummary).not.toMatch(HARNESS);
  });
});

describe("unresolved errors: every error line of what still fails at the end of the span", () => {
  it("the fixture sessions, cut every 30 messages, at 16k and 32k: every line kept (bench section `unresolved`)", async () => {
    const { total, missed } = await unresolvedOverFixtures();
    expect(missed).toEqual([]);
    // Before: 6/14 and 3/11 (the ledger settled `mix credo a b c` when `mix credo a` passed, and kept one error a step).
    expect(total.get(16_000)).toEqual([14, 14]);
    expect(total.get(32_000)).toEqual([11, 11]);
  });

  /** Eight test runs still failing with four error lines each, among builds that failed then passed and looks that passed. */
  function failing(): ChatMessage[] {
    const m: ChatMessage[] = [{ role: "user", content: "Get every package green" }];
    let id = 0;
    const run = (command: string, output: string) => {
      const c = `c${id++}`;
      m.push({ role: "assistant", content: `Running ${command}. ${"notes ".repeat(300)}`, tool_calls: [{ id: c, type: "function", function: { name: "Bash", arguments: JSON.stringify({ command }) } }] });
      m.push({ role: "tool", tool_call_id: c, content: output });
    };
    for (let p = 0; p < 8; p++) {
      run(`npm run build -w packages/p${p}`, `Exit code 1\n${"tsc output ".repeat(50)}\n${"x".repeat(200)}`);
      run(`npm run build -w packages/p${p}`, `built\n${"dist/chunk.js 12 kB\n".repeat(200)}`); // fixed
      const lines = Array.from({ length: 4 }, (_, k) => `src/p${p}/file${k}.ts(${k + 1},3): error TS2322: Type 'string' is not assignable to type 'number' in p${p}.${k}`);
      run(`npx vitest run packages/p${p}/test/p${p}.test.ts`, `Exit code 1\n${lines.join("\n")}\n${"stack ".repeat(100)}`);
      run(`git status --short packages/p${p}`, ` M packages/p${p}/src/index.ts`);
    }
    m.push({ role: "user", content: "keep going" }, { role: "assistant", content: "On it." });
    return m;
  }

  it("writes every one, shortened, before any resolved history, at 16k and 32k", async () => {
    const messages = failing();
    for (const contextWindow of [16_000, 32_000]) {
      const r = await unresolvedKept(messages, contextWindow);
      expect(r.mode).toBe("summary");
      expect(r.lines).toBeGreaterThanOrEqual(24); // the last few runs stay verbatim in the tail
      expect(r.missed).toEqual([]);
      const c = await compact(messages, { contextWindow, force: true, runway: contextWindow });
      const summary = c.state.previousSummary!;
      expect(summary.indexOf("## Blocked")).toBeLessThan(summary.indexOf("## Completed actions"));
      expect(summary).not.toMatch(/## Blocked[\s\S]*more not shown[\s\S]*## Completed/);
    }
    expect([...unresolvedErrorLines(messages).keys()]).toHaveLength(8);
  });
});

describe("attachments are named, not dropped", () => {
  const png = "data:image/png;base64,iVBORw0KGgo=";
  /** A model summarizer that records the prompt it is given. */
  const spy = () => {
    const seen = { prompt: "" };
    const model: Summarizer = Object.assign(async (req: { messages: ChatMessage[] }) => ((seen.prompt = text(req.messages[1])), "## Active task\n> x"), { label: "spy" });
    return { seen, model };
  };
  const filler = (n: number): ChatMessage[] => Array.from({ length: n }, (_, i): ChatMessage => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i} ${"words ".repeat(200)}` }));

  it("OpenAI Chat: image and file parts by mime type and name, in the model's material and the deterministic checkpoint", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Review the UI" },
      { role: "assistant", content: "Send them." },
      {
        role: "user",
        content: [
          { type: "text", text: "Here is the bug" },
          { type: "image_url", image_url: { url: png } },
          { type: "image_url", image_url: { url: "https://example.com/shots/screenshot-login.png?token=abc" } },
          { type: "file", file: { filename: "spec.pdf", file_data: "data:application/pdf;base64,JVBERi0=" } },
        ] as ChatMessage["content"],
      },
      ...filler(12),
      { role: "user", content: "and now?" },
    ];
    const { seen, model } = spy();
    await compact(messages, { contextWindow: 4_000, force: true, summarizer: model, headMessages: 2 });
    expect(seen.prompt).toContain("Here is the bug\n[image/png]\n[image screenshot-login.png]\n[application/pdf spec.pdf]");
    const r = await compact(messages, { contextWindow: 4_000, force: true, headMessages: 2 });
    expect(sections(r.state.previousSummary!).get("Attachments")).toBe("- image/png #2\n- image screenshot-login.png #2\n- application/pdf spec.pdf #2");
  });

  it("Anthropic image and document blocks, in a message and in a tool result", async () => {
    const messages: AnthropicMessage[] = [
      { role: "user", content: "Check the chart" },
      { role: "assistant", content: [{ type: "tool_use", id: "s1", name: "screenshot", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "s1", content: [{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } }] }] },
      { role: "assistant", content: "Got it." },
      { role: "user", content: [{ type: "document", title: "q3-report.pdf", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } }, { type: "text", text: "and the report" }] },
      ...(filler(12) as AnthropicMessage[]),
      { role: "user", content: "so?" },
    ];
    const r = await compact(messages, { dialect: anthropicMessages, contextWindow: 4_000, force: true, headMessages: 1 });
    expect(sections(r.state.previousSummary!).get("Attachments")).toBe("- image/jpeg #2\n- application/pdf q3-report.pdf #4");
  });

  it("takes no stub pruning left for an image for the user's words", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Fix the header layout" },
      { role: "assistant", content: "Looking." },
      { role: "user", content: [{ type: "image_url", image_url: { url: png } }] as ChatMessage["content"] },
      ...filler(12),
      { role: "assistant", content: "Done?" },
      { role: "user", content: [{ type: "text", text: TODO_REMINDER }] },
    ];
    const r = await compact(messages, { contextWindow: 4_000, force: true, headMessages: 2 });
    const s = sections(r.state.previousSummary!);
    expect(r.state.previousSummary).not.toContain("omitted during compaction");
    expect(s.get("Attachments")).toBe("- image/png #2");
    expect(s.get("User requests")).not.toMatch(/#2$/m);
  });

  it("reads the parts of any dialect, tool results included, and names nothing it cannot see", () => {
    // OpenAI Responses input items, an AI SDK tool result, an OpenAI audio part, a file by id only.
    expect(
      attachmentsOf({
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "see" },
          { type: "input_image", image_url: png },
          { type: "input_file", filename: "notes.txt", file_data: "data:text/plain;base64,aGk=" },
        ],
      }),
    ).toEqual(["image/png", "text/plain notes.txt"]);
    expect(attachmentsOf({ role: "tool", content: [{ type: "tool-result", toolCallId: "1", toolName: "shot", output: { type: "content", value: [{ type: "media", data: "iVBO", mediaType: "image/webp" }] } }] })).toEqual(["image/webp"]);
    expect(attachmentsOf({ role: "user", content: [{ type: "input_audio", input_audio: { data: "UklG", format: "wav" } }, { type: "file", file: { file_id: "file-abc" } }] })).toEqual(["audio/wav", "file"]);
    expect(attachmentsOf({ role: "user", content: "no parts" })).toEqual([]);
  });

  it("AI SDK file and image parts", async () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "Summarize these" },
      { role: "assistant", content: "Sure." },
      {
        role: "user",
        content: [
          { type: "file", data: "JVBERi0=", mediaType: "application/pdf", filename: "contract.pdf" },
          { type: "image", image: png },
        ],
      },
      ...(filler(12) as ModelMessage[]),
      { role: "user", content: "well?" },
    ];
    const r = await compact(messages, { dialect: aiSdkMessages, contextWindow: 4_000, force: true, headMessages: 2 });
    expect(sections(r.state.previousSummary!).get("Attachments")).toBe("- application/pdf contract.pdf #2\n- image/png #2");
  });
});
