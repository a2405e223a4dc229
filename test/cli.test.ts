// The command line (tools/cli.ts) on the files agents actually keep: JSONL sessions (one message a
// line, or Claude Code's records wrapping one), files that start with a UTF-8 BOM, and mistakes
// (a directory, a bad line) told in one line with exit 1, never a stack trace.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { trajectory } from "./support/fixtures.js";
import { toResponses } from "./support/responses.js";
import { responsesValidity } from "./support/validity.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cc-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI from its source, as `npm run cli` does. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, "tools/cli.ts"), ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_lifecycle_event: "" } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
const BOM = "\uFEFF";
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

describe("the CLI reads the transcripts agents keep", () => {
  const reference = cli("plan", file("session.json", JSON.stringify(messages)), "--json", "--window", "32000");

  it("a JSON array (the reference the other forms must match)", () => {
    expect(reference.status, reference.stderr).toBe(0);
    expect(JSON.parse(reference.stdout).reason).toBeTruthy();
  });

  it("JSONL, one message a line, blank lines and CRLF too: the same plan as the array", () => {
    const r = cli("plan", file("session.jsonl", jsonl(messages).replace(/\n/g, "\r\n") + "\r\n"), "--json", "--window", "32000");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(reference.stdout);
  });

  it("a file that starts with a UTF-8 BOM, JSON or JSONL", () => {
    for (const [name, text] of [["bom.json", BOM + JSON.stringify({ messages })], ["bom.jsonl", BOM + jsonl(messages)]]) {
      const r = cli("plan", file(name, text), "--json", "--window", "32000");
      expect(r.status, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(reference.stdout);
    }
  });

  it("standard input with a BOM", () => {
    const r = spawnSync(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, "tools/cli.ts"), "plan", "-", "--json", "--window", "32000"], { cwd: dir, encoding: "utf8", input: BOM + jsonl(messages) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(reference.stdout);
  });

  it("Claude Code's session JSONL: user and assistant records unwrapped, one message's blocks (logged a line each) joined, other records skipped", () => {
    const session = [
      { type: "summary", summary: "Earlier work", leafUuid: "u0" },
      { type: "file-history-snapshot", messageId: "m0", snapshot: {} },
      { type: "user", uuid: "u1", sessionId: "s", message: { role: "user", content: "Read src/app.ts and fix the bug." } },
      { type: "assistant", uuid: "u2", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-opus-4-6", content: [{ type: "text", text: "Reading it." }], usage: { input_tokens: 10 } } },
      { type: "assistant", uuid: "u3", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-opus-4-6", content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "src/app.ts" } }] } },
      { type: "user", uuid: "u4", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x".repeat(60_000) }] }, toolUseResult: { type: "text" } },
      { type: "system", subtype: "compact_boundary", content: "Conversation compacted" },
      { type: "assistant", uuid: "u5", message: { id: "msg_2", type: "message", role: "assistant", content: [{ type: "text", text: "Fixed." }] } },
      { type: "user", uuid: "u6", message: { role: "user", content: "Thanks, now run the tests." } },
      // two parallel calls, the first one's result logged between them
      { type: "assistant", uuid: "u7", message: { id: "msg_3", type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_2", name: "Bash", input: { command: "npm test" } }] } },
      { type: "user", uuid: "u8", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "ok" }] } },
      { type: "assistant", uuid: "u9", message: { id: "msg_3", type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_3", name: "Bash", input: { command: "npm run lint" } }] } },
      { type: "user", uuid: "u10", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_3", content: "clean" }] } },
      { type: "assistant", uuid: "u11", message: { id: "msg_4", type: "message", role: "assistant", content: [{ type: "text", text: "All green." }] } },
      { type: "user", uuid: "u12", message: { role: "user", content: "Thanks, now run the tests." } },
    ];
    const r = cli("compact", file("claude.jsonl", jsonl(session)), "--json", "--window", "8000");
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // user, assistant (two lines, one message), tool result, assistant, user, assistant (both calls), two results, assistant, user
    expect(out.report.messagesBefore).toBe(10);
    expect(out.messages.find((m: { content: unknown }) => JSON.stringify(m.content).includes("toolu_2")).content.map((b: { id: string }) => b.id)).toEqual(["toolu_2", "toolu_3"]);
    expect(out.messages.at(-1)).toEqual({ role: "user", content: "Thanks, now run the tests." });
    expect(JSON.stringify(out.messages)).not.toContain('"usage"');
    expect(r.stderr).toMatch(/skipped 3 lines? that hold no message/);
    const human = cli("plan", "claude.jsonl");
    expect(human.stdout).toMatch(/10 messages, anthropic format/);
  });
});

describe("the CLI tells what is wrong in one line, exit 1, no stack trace", () => {
  const told = (r: ReturnType<typeof cli>, pattern: RegExp) => {
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  };

  it("a directory", () => {
    told(cli("plan", "."), /^context-compactor: \. is a directory/);
  });

  it("a JSONL line that is not JSON, by its line number", () => {
    told(cli("plan", file("bad.jsonl", `${JSON.stringify(messages[0])}\n${JSON.stringify(messages[1])}\n{"role": "user", "content": \n`)), /bad\.jsonl line 3 is not JSON/);
  });

  it("a JSONL line that is no object, by its line number", () => {
    told(cli("plan", file("num.jsonl", `${JSON.stringify(messages[0])}\n42\n`)), /num\.jsonl line 2: expected a message object/);
  });

  it("a broken JSON file keeps the JSON error", () => {
    told(cli("plan", file("broken.json", '[\n  {"role": "user", "content": "hi"},\n')), /broken\.json is not JSON/);
  });
});

describe("the CLI and an Anthropic request body", () => {
  it("{system, messages} with text blocks only is read as Anthropic, and the system prompt comes back", () => {
    const body = { system: "You are a coding agent.", messages: [{ role: "user", content: [{ type: "text", text: "Fix the build." }] }, { role: "assistant", content: "On it." }] };
    file("anthropic-request.json", JSON.stringify(body));
    expect(cli("plan", "anthropic-request.json").stdout).toMatch(/anthropic format/);
    const r = cli("compact", "anthropic-request.json", "--json", "--force");
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).system).toMatch(/^You are a coding agent\./);
  });
});

describe("the CLI and the OpenAI Responses API's input items", () => {
  const items = toResponses(messages);
  const reference = cli("plan", file("responses.json", JSON.stringify(items)), "--json", "--window", "32000");

  it("--dialect openai-responses, and the same plan when detected from the items", () => {
    const r = cli("plan", "responses.json", "--json", "--window", "32000", "--dialect", "openai-responses");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(reference.stdout);
    expect(JSON.parse(r.stdout).reason).toBeTruthy();
    expect(cli("plan", "responses.json").stdout).toMatch(/openai-responses format/);
  });

  it("JSONL of items: calls, outputs and reasoning (no role) are messages, not skipped lines", () => {
    const r = cli("plan", file("responses.jsonl", jsonl(items)), "--json", "--window", "32000");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/skipped/);
    expect(r.stdout).toBe(reference.stdout);
  });

  it("compacts them into valid items", () => {
    const r = cli("compact", "responses.json", "--json", "--window", "32000", "--dialect", "openai-responses");
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.report.mode).not.toBe("noop");
    expect(responsesValidity(out.messages)).toEqual([]);
  });

  it("the help and the option's error name it", () => {
    expect(cli("--help").stdout).toMatch(/--dialect NAME .*openai-responses/);
    expect(cli("plan", "responses.json", "--dialect", "responses").stderr).toMatch(/--dialect takes openai, anthropic, ai-sdk or openai-responses/);
  });
});
