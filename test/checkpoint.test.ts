// The deterministic checkpoint read as the agent that continues from it: true at the end of the span,
// traceable to its source. Regression tests for the defects of issue 19, on the fixture sessions.
import { describe, expect, it } from "vitest";
import { HANDOFF_PREFIX, compact, plan, type ChatMessage, type Summarizer } from "../src/index.js";
import { failingBuild as failing } from "./support/build.js";
import { ledgers } from "../src/summarize/ledgers.js";
import type { HandoffTurn } from "../src/types.js";
import { trajectory } from "./support/fixtures.js";

const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
function sections(checkpoint: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of checkpoint.split(/\n\n(?=## )/)) {
    const nl = part.indexOf("\n");
    if (part.startsWith("## ")) out.set(part.slice(3, nl), part.slice(nl + 1));
  }
  return out;
}

async function checkpointOf(name: string, contextWindow: number) {
  const { messages } = trajectory(name);
  const r = await compact(messages, { contextWindow });
  const handoff = text(r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX))!);
  return { messages, r, handoff, summary: r.state.previousSummary!, s: sections(r.state.previousSummary!) };
}

describe("the deterministic checkpoint of the 293-message Claude Code session at a 32k window", async () => {
  const { handoff, summary, s } = await checkpointOf("claude-code-spotter__4d5611e5-241a", 32_000);

  it("covers the whole middle: the three finished subtasks are among the completed actions", () => {
    const done = s.get("Completed actions")!;
    for (const sub of ["spotter-dov.1", "spotter-dov.2", "spotter-dov.3"]) expect(done).toMatch(new RegExp(`bd close ${sub.replace(".", "\\.")} .* #\\d+`));
    expect(done).toContain("`git push 2>&1` → exit 128 #283"); // the exit status of the whole output, before pruning
  });

  it("shows no error a later run settled as blocked: the dialyzer failure is told on its command's line", () => {
    expect(s.get("Blocked") ?? "").not.toMatch(/DIALYZER|Pre-commit|no upstream branch/);
    expect(s.get("Completed actions")).toMatch(/^- `git commit [^\n]* → failed #265 \("[^\n]*DIALYZER[^\n]*"\), then passed #281$/m);
  });

  it("takes decisions from sentences that state a choice, not any sentence with \"because\"", () => {
    expect(summary).not.toContain("The aliases are unused because the code still uses the full module paths.");
    for (const line of (s.get("Key decisions") ?? "").split("\n")) expect(line).not.toMatch(/^- [^\n]*\bbecause\b(?![^\n]*\b(?:instead of|rather than|decided|going with|I'll use)\b)/);
  });

  it("lists each file once, relative to the working directory", () => {
    const files = s.get("Relevant files")!;
    expect(files).toMatch(/^- \(paths under \/home\/USER\/projects\/spotter-worktrees\/spotter-dov\/\)/);
    expect(files.match(/slice_builder\.ex/g)).toHaveLength(1);
    expect(files).toMatch(/- lib\/spotter\/services\/waiting_summary\/: (?:[^\n]*, )?slice_builder\.ex edited #\d+/);
    expect(files).not.toContain("/home/USER/projects/spotter-worktrees/spotter-dov/lib");
  });

  it("does not take a task notification for the active task", () => {
    expect(s.get("Active task")).toBe("> continue");
    expect(summary).not.toContain("<task-notification>");
  });

  it("fits its budget without a mid-item cut, and every ledger line cites its source", () => {
    expect(summary.length).toBeLessThanOrEqual(5600); // 1,600 tokens at 3.5 characters
    expect(handoff).not.toContain("checkpoint cut");
    for (const name of ["User requests", "Completed actions", "Active state", "Blocked", "Key decisions", "Relevant files"]) {
      for (const line of (s.get(name) ?? "").split("\n").filter(Boolean)) {
        if (/^- (?:… \d+ more not shown|\(paths under )/.test(line)) continue;
        expect(line, name).toMatch(/#\d+\)?$|^- #\d+ /);
      }
    }
  });
});

describe("the second Claude Code session", () => {
  it("moves a failing test run that later passed to Completed actions, and no Blocked command later succeeded", async () => {
    const { messages, s } = await checkpointOf("claude-code-spotter__fa812bfe-b295", 32_000);
    for (const line of (s.get("Blocked") ?? "").split("\n").filter((l) => l.startsWith("- `"))) {
      const [, command, at] = /^- `([^`]+?)(?: …)?`.* #(\d+)$/.exec(line)!;
      const ids = new Set(messages.slice(Number(at) + 1).flatMap((m) => m.tool_calls ?? []).filter((c) => JSON.parse(c.function.arguments).command?.startsWith(command)).map((c) => c.id));
      const passed = messages.filter((m) => m.role === "tool" && ids.has(m.tool_call_id!) && !/^Exit code [1-9]/.test(text(m)));
      expect(passed, line).toEqual([]);
    }
    expect(s.get("Completed actions")).toMatch(/^- `mix test test\/spotter\/transcripts\/jobs\/sync_transcripts_test\.exs 2>&1` ×2 #183; failed #177 \("Assertion with == failed"\), then passed #183$/m);
    // Not /home/USER/project, a directory named only in test code: a prefix by path segments.
    expect(s.get("Relevant files")).toMatch(/^- \(paths under \/home\/USER\/projects\/spotter-worktrees\/spotter-a0y\/\)/);
  });
});

describe("the handoff of the span Claude Code compacted, at 16k and 32k windows", () => {
  const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);
  /** Files the calls read or wrote, by basename. */
  const files = (ms: ChatMessage[]) => new Set(ms.flatMap((m) => m.tool_calls ?? []).map((c) => JSON.parse(c.function.arguments).file_path).filter((p): p is string => typeof p === "string").map(base));
  for (const [main, theirs] of [
    ["claude-code-spotter__4d5611e5-241a", "claude-code-spotter__4d5611e5__agent-acompact"],
    ["claude-code-spotter__fa812bfe-b295", "claude-code-spotter__fa812bfe__agent-acompact"],
  ]) {
    const { messages } = trajectory(main);
    const span = messages.slice(0, messages.findIndex((m) => m.role === "user" && text(m).startsWith("This session is being continued")));
    for (const contextWindow of [16_000, 32_000]) {
      // A runway as large as the window: prune alone is never accepted, the handoff is what is tested.
      const options = { contextWindow, force: true, runway: contextWindow };
      const run = async () => {
        const r = await compact(span, options);
        const { middle } = plan(span, options);
        return { r, middle: span.slice(middle.start, middle.end), head: span.slice(0, middle.start), summary: r.state.previousSummary! };
      };

      it(`${main.slice(20, 28)} at ${contextWindow / 1000}k: keeps more of the files the middle read or wrote than Claude Code's own summary of the span`, async () => {
        const { middle, summary } = await run();
        const summaryOf = text(trajectory(theirs).messages.at(-1)!);
        const share = (set: Set<string>, t: string) => [...set].filter((f) => t.includes(f)).length / set.size;
        expect(share(files(middle), summary)).toBeGreaterThan(share(files(span), summaryOf));
      });

      it(`${main.slice(20, 28)} at ${contextWindow / 1000}k: one line a directory, each file once, within the summary budget as the estimate counts it`, async () => {
        const { r, summary, head } = await run();
        const lines = sections(summary).get("Relevant files")!.split("\n").filter((l) => /^- [^(…]/.test(l));
        const dirs = lines.map((l) => l.slice(2, l.indexOf(": ")));
        expect(new Set(dirs).size).toBe(dirs.length);
        const names = lines.flatMap((l, k) => l.slice(l.indexOf(": ") + 2).split(", ").map((e) => dirs[k] + e.split(" ")[0]));
        expect(new Set(names).size).toBe(names.length);
        for (const l of lines) expect(l).toMatch(/^- \S+\/: \S+ (?:(?:read|written|edited|deleted|named) )+#\d+(?:, \S+ (?:(?:read|written|edited|deleted|named) )+#\d+)*$/);
        expect(r.report.summary!.tokens).toBeLessThanOrEqual(Math.max(1000, contextWindow * 0.05)); // the budget's ceiling
        // The first request is kept verbatim in the head: not repeated as the Goal.
        expect(text(head[0])).toMatch(/^Work on bead spotter-/);
        expect(summary).not.toContain("## Goal");
      });
    }
  }
});

describe("when room is short", () => {
  it("every request is written, by its first characters, before any is written whole", async () => {
    const m: ChatMessage[] = [{ role: "system", content: "sys" }, { role: "user", content: "start" }, { role: "assistant", content: "ok" }];
    for (let i = 0; i < 30; i++) {
      m.push({ role: "user", content: `Request ${i}: change widget ${i} so that it renders ${"lorem ipsum dolor ".repeat(20)}` });
      m.push({ role: "assistant", content: "sure", tool_calls: [{ id: `c${i}`, type: "function", function: { name: "Edit", arguments: JSON.stringify({ file_path: `/repo/src/w${i}.ts`, old_string: "x".repeat(500), new_string: "y" }) } }] });
      m.push({ role: "tool", tool_call_id: `c${i}`, content: `ok ${"z".repeat(2000)}` });
    }
    m.push({ role: "user", content: "finally, ship it" }, { role: "assistant", content: "ok" });
    const options = { contextWindow: 16_000, force: true, runway: 16_000 };
    const { middle } = plan(m, options);
    const asked = m.slice(middle.start, middle.end).filter((x) => x.role === "user").map((x) => text(x).slice(0, 30));
    const r = await compact(m, options);
    const requests = sections(r.state.previousSummary!).get("User requests")!;
    // Most of them: the old checkpoint, writing each whole (300 characters), kept the latest 7 of 28.
    expect(asked.filter((a) => requests.includes(a)).length).toBeGreaterThan(asked.length * 0.8);
    for (const line of requests.split("\n")) expect(line).toMatch(/^- (?:Request \d+: [^\n]* #\d+|… \d+ more not shown)$/);
  });

  it("the latest unresolved error is written, by its first line, when its lines together do not fit", async () => {
    const { messages } = trajectory("swe-agent__fc_install__marshmallow");
    const r = await compact(messages, { contextWindow: 16_000, force: true, runway: 16_000 });
    const blocked = sections(r.state.previousSummary!).get("Blocked")!;
    expect(blocked.split("\n")[0]).toMatch(/^- .+: ".+ #\d+$/);
  });
});

describe("ledgers", () => {
  let n = 0;
  const turn = (role: HandoffTurn["role"], t: string, extra: Partial<HandoffTurn> = {}): HandoffTurn => ({ index: n++, role, text: t, toolCalls: [], ...extra });
  const run = (command: string, output: string) => turn("tool", output, { call: { name: "Bash", arguments: JSON.stringify({ command }) } });
  const file = (name: string, path: string, output = "ok") => turn("tool", output, { call: { name, arguments: JSON.stringify({ file_path: path }) } });

  it("are built from real requests only, in order", () => {
    const l = ledgers([
      turn("user", "Fix the login bug"),
      turn("user", "<task-notification>\n<status>completed</status>\n</task-notification>"),
      turn("user", "<system-reminder>todo list is empty</system-reminder>"),
      turn("user", "[Request interrupted by user for tool use]"),
      turn("user", "then add a test, and never touch the schema"),
    ]);
    expect(l.requests.map(([t]) => t)).toEqual(["Fix the login bug", "then add a test, and never touch the schema"]);
    expect(l.constraints.map(([t]) => t)).toEqual(["then add a test, and never touch the schema"]);
  });

  it("settle an error when the same command, step or file later succeeds, and keep the one still failing", () => {
    n = 0;
    const l = ledgers([
      run("npm test", "Exit code 1\nFAIL src/a.test.ts\nError: expected 1 to be 2"),
      run("cd /repo && npm test -- --run", "Tests 3 passed"),
      run("cargo build", "error[E0308]: mismatched types"),
      file("Edit", "/repo/src/a.ts", "<tool_use_error>String to replace not found in file.</tool_use_error>"),
      file("Edit", "/repo/src/a.ts", "The file /repo/src/a.ts has been updated."),
      run("make lint", "Exit code 2\nlint failed"),
      run("make lint", "Exit code 2\nlint failed again"),
    ]);
    const errors = [...l.errors.values()];
    expect(errors.filter((e) => e.resolvedAt !== undefined).map((e) => [e.what, e.at, e.resolvedAt])).toEqual([
      ["`npm test`", 0, 1],
      ["/repo/src/a.ts", 3, 4],
    ]);
    expect(errors.filter((e) => e.resolvedAt === undefined).map((e) => [e.what, e.lines[0], e.at])).toEqual([
      ["`cargo build`", "error[E0308]: mismatched types", 2],
      ["`make lint`", "lint failed again", 6],
    ]);
    expect(l.commands.get("make lint")).toMatchObject({ runs: 2, status: "exit 2", at: [5, 6] });
  });

  it("list each file once, relative to the working directory, with what was done to it", () => {
    n = 0;
    const l = ledgers([
      file("Read", "/home/me/app/src/db.ts"),
      file("Edit", "/home/me/app/src/db.ts"),
      file("Write", "/home/me/app/src/new.ts"),
      turn("assistant", "Updated src/db.ts and ./src/new.ts; see also docs/notes.md."),
      file("Edit", "/home/me/app/src/db.ts"),
    ]);
    expect(l.root).toBe("/home/me/app");
    expect([...l.files.values()].map((f) => [f.path, Object.fromEntries(f.ops), f.at])).toEqual([
      ["src/db.ts", { read: 1, edited: 2 }, [0, 1, 3, 4]],
      ["src/new.ts", { written: 1 }, [2, 3]],
      ["docs/notes.md", { mentioned: 1 }, [3]],
    ]);
  });

  it("keep a settled error when the same step fails again later", () => {
    n = 0;
    const l = ledgers([
      run("git add a.ex", "Exit code 128\nfatal: pathspec 'a.ex' did not match any files"),
      run("git add lib/a.ex", "ok"),
      run("git add c.ex && git commit -m wip", "Exit code 1\nPre-commit validation failed"),
      run("git commit -m wip", "ok"),
    ]);
    expect([...l.errors.values()].map((e) => [e.what, e.lines[0], e.at, e.resolvedAt])).toEqual([
      ["`git add a.ex`", "fatal: pathspec 'a.ex' did not match any files", 0, 1],
      ["`git add c.ex && git commit -m wip`", "Pre-commit validation failed", 2, 3],
    ]);
  });

  it("settle a failure only by a later run that covers it: the same step on no file in particular, or on every file it named", () => {
    n = 0;
    const l = ledgers([
      run("mix test test/a_test.exs", "Exit code 2\n1) test a (ATest)\nAssertion with == failed\n1 test, 1 failure"),
      run("mix test test/b_test.exs", "2 tests, 0 failures"), // another file: a_test.exs still fails
      run("mix credo --strict lib/a.ex lib/b.ex", "Exit code 2\n[F] lib/b.ex:3 error: Nested too deep"),
      run("mix credo --strict lib/a.ex", "found no issues"), // one of the two files
      run("mix compile && mix test test/c_test.exs:12", "Exit code 2\n** (CompileError) lib/c.ex:1: undefined function x/0"),
      run("mix compile", "Compiling 1 file (.ex)"), // judged as its test: the compile passing settles nothing
      run("mix credo --strict 2>&1", "found no issues"), // every file: settles credo
    ]);
    const open = [...l.errors.values()].filter((e) => e.resolvedAt === undefined);
    expect(open.map((e) => [e.what, e.at])).toEqual([
      ["`mix test test/a_test.exs`", 0],
      ["`mix compile && mix test test/c_test.exs:12`", 4],
    ]);
    expect(open[0].lines).toEqual(["Assertion with == failed", "1 test, 1 failure"]);
    expect(l.errors.size).toBe(3);
  });

  it("settle a failure on several files once later runs of the same step have done each of them", () => {
    n = 0;
    const l = ledgers([
      run("git add a.ex b.ex priv/static/app.css", "Exit code 1\nThe following paths are ignored by one of your .gitignore files:\npriv/static"),
      run("git add a.ex b.ex", ""),
      run("git status --short", " M x"),
    ]);
    expect([...l.errors.values()].map((e) => [e.at, e.resolvedAt, e.step.files])).toEqual([[0, undefined, ["priv/static/app.css"]]]);
    n = 0;
    const later = ledgers([run("git add a.ex b.ex priv/static/app.css", "Exit code 1\nignored paths: error"), run("git add a.ex b.ex", ""), run("git add -f priv/static/app.css", "")]);
    expect([...later.errors.values()].map((e) => [e.at, e.resolvedAt])).toEqual([[0, 2]]);
    n = 0;
    const elsewhere = ledgers([
      run("git add _build/dev/priv/repo/a.exs _build/dev/priv/snapshots/", "Exit code 128\nfatal: pathspec '_build/dev/priv/repo/a.exs' is beyond a symbolic link"),
      run("git add priv/repo/a.exs priv/snapshots/repo/m.json && git commit -m wip", "[main 1a2b3c] wip"),
    ]);
    expect([...elsewhere.errors.values()].map((e) => [e.at, e.resolvedAt])).toEqual([[0, 1]]); // the same files, from the source tree
  });

  it("take a relative path that ends an absolute one for that file, even when both are only named", () => {
    n = 0;
    const l = ledgers([turn("assistant", "The bug is in /repo/pkg/handlers/numpy_handler.py, not in /repo/pkg/overlays/numpy_handler.py."), turn("assistant", "Editing pkg/handlers/numpy_handler.py now.")]);
    expect([...l.files.keys()]).toEqual(["/repo/pkg/handlers/numpy_handler.py", "/repo/pkg/overlays/numpy_handler.py"]);
    expect(l.files.get("/repo/pkg/handlers/numpy_handler.py")!.at).toEqual([0, 1]);
  });

  it("take decisions from sentences that state a choice, and the latest plan the agent wrote", () => {
    n = 0;
    const l = ledgers([
      turn("assistant", "The test fails because the mock is stale. I'll use the real client instead of the mock. Should we go with Redis?"),
      turn("assistant", "", { toolCalls: [{ name: "TodoWrite", arguments: JSON.stringify({ todos: [{ content: "fix mock", status: "completed" }, { content: "add test", status: "in_progress" }] }) }] }),
      turn("assistant", "Plan:\n- [x] fix mock\n- [ ] add test\n- [ ] ship"),
    ]);
    expect(l.decisions.map(([t]) => t)).toEqual(["I'll use the real client instead of the mock."]);
    expect(l.plan).toEqual({ items: [["x", "fix mock"], [" ", "add test"], [" ", "ship"]], at: 2 });
  });
});

describe("the model path", () => {
  const session = () => trajectory("claude-code-spotter__fa812bfe-b295").messages.slice(0, 288);

  it("sends the ledgers beside the turns", async () => {
    let prompt = "";
    const model: Summarizer = async (req) => ((prompt = text(req.messages[1])), "## Active task\n> continue until all are done");
    model.label = "model";
    await compact(session(), { contextWindow: 16_000, summarizer: model, force: true });
    const ledgers = /<ledgers>\n([\s\S]*)\n<\/ledgers>/.exec(prompt)?.[1] ?? "";
    expect(ledgers).toContain("## Relevant files");
    expect(ledgers).toMatch(/`mix test test\/spotter\/transcripts\/jobs\/sync_transcripts_test\.exs 2>&1` ×2 #\d+; failed #177 \("Assertion with == failed"\), then passed #\d+/);
  });

  it("keeps a summary that carries the latest request and every unresolved error, and says so", async () => {
    // Still failing when the span ends: `mix credo` on three files (only one of them passed it before
    // #288). The `git add` of two paths under _build/ (#190) is settled: #193 added the same files.
    const blocked = `## Blocked\n- mix credo --strict on three files: "Exit code 2"`;
    const model: Summarizer = async () => `## Active task\n> continue until all are done\n\n${blocked}`;
    model.label = "model";
    const r = await compact(session(), { contextWindow: 16_000, summarizer: model, force: true });
    expect(r.report.summary?.check).toEqual({ latestRequest: true, unresolvedErrors: 1, errorsKept: 1, ledgersAppended: false });
    expect(r.state.previousSummary).toBe(`## Active task\n> continue until all are done\n\n${blocked}`);
  });

  it("appends the unresolved error lines a summary that says nothing is blocked has lost", async () => {
    const model: Summarizer = async () => "## Active task\n> continue until all are done\n\n## Blocked\n- none";
    model.label = "model";
    const r = await compact(session(), { contextWindow: 16_000, summarizer: model, force: true });
    expect(r.report.summary?.check).toEqual({ latestRequest: true, unresolvedErrors: 1, errorsKept: 0, ledgersAppended: true });
    expect(r.state.previousSummary).toMatch(/\n## Blocked\n- `mix credo --strict lib\/spotter\/services\/active_session_registry\.ex [^\n]*`: "Exit code 2" #72$/);
  });

  it("appends only the unresolved error lines a summary lost, not the whole ledgers, and reports it", async () => {
    const model: Summarizer = async () => "## Active task\n- build things";
    model.label = "model";
    const r = await compact(failing("Ship it on the green build"), { contextWindow: 4_000, summarizer: model, force: true });
    expect(r.report.summary?.source).toBe("model");
    // The latest request is kept verbatim in the tail: a summary that paraphrases it has not lost it.
    expect(r.report.summary?.check).toMatchObject({ latestRequest: true, errorsKept: 0, ledgersAppended: true });
    const { unresolvedErrors } = r.report.summary!.check!;
    expect(unresolvedErrors).toBeGreaterThan(0);
    expect(r.report.warnings).toContain("the model's summary missed the latest request or an unresolved error: the missing ledger lines were appended to it");
    const summary = r.state.previousSummary!;
    expect(summary).toMatch(/^## Active task\n- build things\n\n---\nWhat the summary above missed, from the ledgers of the same turns:\n\n## Blocked\n/);
    expect(summary.match(/^- `make build-\d+`: "src\/x\.c:\d+: error: expected ';' before '}'" #\d+$/gm)).toHaveLength(unresolvedErrors);
    expect(summary).not.toContain("## Completed actions");
  });

  it("appends the latest real request when the transcript no longer carries it verbatim (the last user turn is an agent notice)", async () => {
    const notice = "<task-notification>\n<status>completed</status>\n</task-notification>";
    const input = failing(notice);
    input.splice(20, 0, { role: "user", content: "Then make the linker happy too" }, { role: "assistant", content: "Will do." });
    const errors = "`make build-0`: \"src/x.c:0: error: expected ';' before '}'\"";
    const model: Summarizer = async () => `## Active task\n- build things\n\n## Blocked\n- ${errors}`;
    model.label = "model";
    const r = await compact(input, { contextWindow: 4_000, summarizer: model, force: true });
    expect(r.report.summary?.check?.latestRequest).toBe(false);
    expect(r.state.previousSummary).toContain("\n\n## Active task\n> Then make the linker happy too");
  });

  it("appends nothing to a summary that paraphrases the latest request but keeps every unresolved error", async () => {
    const input = failing("Ship it on the green build");
    const { middle } = plan(input, { contextWindow: 4_000, force: true });
    const lines = input.slice(middle.start, middle.end).filter((m) => m.role === "tool").map((m) => `- ${text(m).split("\n")[1]}`);
    const model: Summarizer = async () => `## Active task\n- ship once green\n\n## Blocked\n${lines.join("\n")}`;
    model.label = "model";
    const r = await compact(input, { contextWindow: 4_000, summarizer: model, force: true });
    expect(r.report.summary?.check).toMatchObject({ latestRequest: true, ledgersAppended: false });
    expect(r.state.previousSummary).not.toContain("---");
  });
});
