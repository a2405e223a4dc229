// The plumbing of redaction, attacked: secrets `redact` catches when it sees the whole text they live
// in, sent down every path where a string leaves a pass (messages, report, events, summarizer
// requests) cut, split or taken out of that text first. Each case first checks that `redact` of the
// whole text does catch the secret, so a failure here is the plumbing's, never the catalogue's.
import { describe, expect, it, vi } from "vitest";
import { compact, openAICompatible, type ChatMessage, type CompactionEvent, type SummarizeRequest, type Summarizer } from "../src/index.js";
import { prunedOutputLine } from "../src/prune/stand-ins.js";
import { redact, redactor as core, streamKit } from "../src/redact/index.js";
import { windowed } from "../src/redact/window.js";
import { redactedStream } from "../src/redact/stream.js";
import { fakeFetch } from "./support/sse.js";
import { completed } from "../src/redact/more.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(core);

/** Redaction with its window functions, as pruning receives it. */
const redactor = windowed(core);

const words = (chars: number) => "word ".repeat(Math.ceil(chars / 5));

/**
 * Pieces of `secret` found in `text`: any 10 characters past its first `from` (a vendor prefix may
 * stay), or for a short secret any of its characters past the first 4 with at least 6 in a row.
 */
function pieces(text: string, secret: string, from = 6): string[] {
  const start = Math.min(from, secret.length - 10 < 4 ? 4 : from);
  const n = Math.min(10, secret.length - start);
  const found: string[] = [];
  for (let i = start; i + n <= secret.length; i++) if (text.includes(secret.slice(i, i + n))) found.push(secret.slice(i, i + n));
  return found;
}

/** `secret` is one `redact` removes from `whole`, and does not from `part` alone: the attack is on the plumbing. */
function expectContextual(whole: string, part: string, secret: string, from?: number): void {
  expect(pieces(redact(whole), secret, from), "redact of the whole text catches it").toEqual([]);
  expect(pieces(redact(part), secret, from), "redact of the part alone does not").not.toEqual([]);
}

/** Every message of `output` compaction wrote (not passed through by identity), as JSON. */
const written = (output: ChatMessage[], input: ChatMessage[]) => JSON.stringify(output.filter((m) => !input.includes(m)));

const toolTurn = (id: string, name: string, args: string, output: string): ChatMessage[] => [
  { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: args } }] },
  { role: "tool", tool_call_id: id, content: output },
  { role: "assistant", content: "Looked at it." },
];

/** The head: a system prompt and the first turns, kept verbatim. */
const head = (): ChatMessage[] => [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: "Start the work." },
  { role: "assistant", content: "Started." },
  ...Array.from({ length: 4 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `early ${i} ${words(200)}` })),
];

/** Turns in the middle of a transcript that pruning alone brings under its threshold: a pass prunes their outputs. */
const prunable = (middle: ChatMessage[]): ChatMessage[] => [
  ...head(),
  ...middle,
  ...toolTurn("big", "Read", JSON.stringify({ file_path: "/srv/app/big.log" }), words(40_000)),
  ...Array.from({ length: 6 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `later ${i} ${words(300)}` })),
  { role: "user", content: "What is left?" },
];

/** The same turns in a transcript too long for pruning alone: the middle is summarized. */
const summarized = (middle: ChatMessage[]): ChatMessage[] => [
  ...head(),
  ...middle,
  ...Array.from({ length: 14 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `later ${i} ${words(2500)}` })),
  { role: "user", content: "What is left?" },
];

/** A model summarizer that records its request and answers with `reply`, in deltas of `size` characters. */
function model(reply: string, size = reply.length, seen: SummarizeRequest[] = []): Summarizer {
  return Object.assign(
    async function* (request: SummarizeRequest) {
      seen.push(request);
      for (let i = 0; i < reply.length; i += size) yield reply.slice(i, i + size);
    },
    { label: "model" },
  );
}

// ---- the secrets, each caught by `redact` only with the text around it ------------------------------

const KEY_LINES = [
  "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
  "QyNTUxOQAAACBq9fQ8v3nX2mYlK7pR4sT6wE1uI0oA9dF3gH5jK8lZ2xCvBnM7qW4eR1tY6",
  "uI9oP0aS3dF5gH7jK9lZ1xC3vB5nM7qW9eR2tY4uI6oP8aS0dF2gH4jK6lZ8xC0vB2nM4",
];
const VALUE = "Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C";
/** base64 of a short password: only a Secret manifest's `kind` marks it. */
const DATA = "aHVudGVyMg==";
const MYSQL_PASSWORD = "Hunter2xQ9vL7mZ";

/** Tool outputs whose quoted line (the first, or the first with an error word) holds a secret only the whole output shows. */
const OUTPUTS: [name: string, output: string, secret: string, line: string][] = [
  // `tail -n 4 ~/.ssh/id_ed25519`: the BEGIN is cut away, the END says what the lines before it are
  ["an orphan key body (the END after it)", `${KEY_LINES.join("\n")}\n-----END OPENSSH PRIVATE KEY-----\n${"\n".repeat(3)}${words(400)}`, KEY_LINES[0], KEY_LINES[0]],
  ["a name on one line, its value with an error word on the next", `config:\npassword:\n  ${VALUE} login failed\n${"log line\n".repeat(40)}`, VALUE, `  ${VALUE} login failed`],
  ["Secret data on a line with an error word, the kind after it", `apiVersion: v1\ndata:\n  smtp-error-user: ${DATA}\nkind: Secret\n${"metadata:\n  name: mail\n".repeat(12)}`, DATA, `  smtp-error-user: ${DATA}`],
];

describe("a pruned output's one-liner quotes its line from the whole output redacted", () => {
  it.each(OUTPUTS)("%s: in the pruned transcript", async (_, output, secret, line) => {
    expectContextual(output, line, secret);
    const input = prunable(toolTurn("c1", "Bash", JSON.stringify({ command: "./run.sh" }), output));
    const r = await compact(input, { contextWindow: 8_000 });
    expect(r.report.mode).toBe("prune");
    const out = written(r.messages, input);
    expect(out, "the output was pruned to a one-liner").toContain("[output pruned #8] Bash");
    expect(pieces(out, secret)).toEqual([]);
  });

  it.each(OUTPUTS)("%s: in a model summarizer's request", async (_, output, secret) => {
    const seen: SummarizeRequest[] = [];
    const input = summarized(toolTurn("c1", "Bash", JSON.stringify({ command: "./run.sh" }), output));
    const r = await compact(input, { contextWindow: 8_000, summarizer: model("## Active task\n- go on", undefined, seen) });
    expect(r.report.mode).toBe("summary");
    const request = JSON.stringify(seen[0].messages);
    expect(request, "the one-liner went out").toContain("[output pruned #8] Bash");
    expect(pieces(request, secret)).toEqual([]);
  });
});

describe("calls are described and shrunk from their whole arguments redacted", () => {
  // The Secret's kind is another argument: only the whole arguments say what the data line is.
  const apply = JSON.stringify({ kind: "Secret", command: `kubectl apply -f - <<EOF\napiVersion: v1\ndata:\n  username: ${DATA}\nEOF` });
  const manifest = JSON.stringify({ kind: "Secret", manifest: `apiVersion: v1\ndata:\n  username: ${DATA}\n${"  # note\n".repeat(60)}` });

  it("a described call (the one-liner's target) quotes no argument value its siblings mark as secret", async () => {
    expectContextual(apply, JSON.parse(apply).command, DATA);
    const input = prunable(toolTurn("c1", "Bash", apply, `secret/db configured\n${"log line\n".repeat(40)}`));
    const r = await compact(input, { contextWindow: 8_000 });
    expect(r.report.mode).toBe("prune");
    const out = written(r.messages, input);
    expect(out).toContain('Bash command=\\"kubectl apply');
    expect(pieces(out, DATA.padEnd(16, "#"))).toEqual([]);
    expect(out.includes(DATA)).toBe(false);
  });

  it("shrunk arguments keep no piece of a leaf that the whole arguments redact", async () => {
    expectContextual(manifest, JSON.parse(manifest).manifest, DATA);
    const input = prunable(toolTurn("c1", "Write", manifest, "written"));
    const r = await compact(input, { contextWindow: 8_000 });
    expect(r.report.mode).toBe("prune");
    const out = written(r.messages, input);
    expect(out, "the arguments were shrunk").toContain("...[truncated");
    expect(out.includes(DATA)).toBe(false);
  });
});

describe("streamed summary deltas never show what the final summary redacts", () => {
  // A command continued over lines: the program that makes `-p…` a password stands ~270 characters
  // before the line that carries it.
  const arg = (n: number) => `--opt${n}=${"v".repeat(54)}`;
  const command = `mysql \\\n  ${arg(1)} ${arg(2)} \\\n  ${arg(3)} ${arg(4)} \\\n  -p${MYSQL_PASSWORD} -e "select 1"`;
  const reply = `## Active task\n- check the replica\n\n## Critical values\n\`\`\`\n${command}\n\`\`\`\n- replica at db-2\n`;

  it.each([1, 3, 4, 7])("a shape whose left context is on an earlier line, in deltas of %i characters", async (size) => {
    expectContextual(reply, `  -p${MYSQL_PASSWORD} -e "select 1"`, MYSQL_PASSWORD);
    const deltas: string[] = [];
    const input = summarized([{ role: "user", content: "Check the replica." }]);
    const r = await compact(input, { contextWindow: 8_000, summarizer: model(reply, size), onEvent: (e) => e.type === "summary-delta" && deltas.push(e.text) });
    expect(r.report.mode).toBe("summary");
    expect(r.state.previousSummary, "the final summary redacts it").not.toContain(MYSQL_PASSWORD);
    expect(deltas.join("")).toContain("mysql \\");
    expect(pieces(deltas.join(""), MYSQL_PASSWORD)).toEqual([]);
    expect(r.state.previousSummary!.startsWith(deltas.join("").trimEnd())).toBe(true);
  });

  // The farthest a password flag reaches: eight arguments of 256 characters before it (an OCI registry
  // user is namespace/domain/e-mail), each on a continued line: ~2,100 characters after its program.
  const long = (n: number) => `--opt${n}=${"v".repeat(249)}`;
  const farthest = `mysql \\\n${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `  ${long(n)} \\\n`).join("")}  -p${MYSQL_PASSWORD}\n`;
  const farReply = `## Active task\n- check the replica\n\n## Critical values\n\`\`\`\n${farthest}\`\`\`\n- replica at db-2\n`;

  it.each([3, 40])("a password flag eight long arguments after its program, in deltas of %i characters", async (size) => {
    expectContextual(farReply, `  -p${MYSQL_PASSWORD}`, MYSQL_PASSWORD);
    const deltas: string[] = [];
    // a middle long enough that the summary's budget holds the whole reply
    const middle = Array.from({ length: 16 }, (_, i): ChatMessage => ({ role: i % 2 ? "assistant" : "user", content: `step ${i} ${words(6000)}` }));
    const r = await compact(summarized(middle), { contextWindow: 32_000, summarizer: model(farReply, size), onEvent: (e) => e.type === "summary-delta" && deltas.push(e.text) });
    expect(r.report.mode).toBe("summary");
    expect(r.state.previousSummary, "the final summary redacts it").not.toContain(MYSQL_PASSWORD);
    expect(deltas.join("")).toContain("mysql \\");
    expect(pieces(deltas.join(""), MYSQL_PASSWORD)).toEqual([]);
  });
});

describe("summarizer failures are redacted before any cut", () => {
  const AWS_SECRET = "q8Vd2LmXz4Rt7Yu1Io3Pa8Sd5Fg0Hj4Kl7Zx2Cw9";
  /** A provider's message with the name and first 15 characters of a secret before `cut`, the rest after it. */
  const straddling = (cut: number, lead = "") => {
    const name = "body="; // no credential's name: only the whole value's randomness marks it
    return `${lead}${"x".repeat(cut - lead.length - name.length - 15 - 1)} ${name}${AWS_SECRET} was sent in the request`;
  };

  /** Runs a pass whose only model fails as `answer` makes it, and collects every text that reports the failure. */
  async function failed(answer: () => Response): Promise<string> {
    const events: CompactionEvent[] = [];
    const summarizer = openAICompatible({ model: "m", fetch: fakeFetch(answer) });
    const r = await compact(summarized([{ role: "user", content: "Go on." }]), { contextWindow: 8_000, summarizer, onEvent: (e) => events.push(e) });
    expect(r.report.mode).toBe("fallback");
    expect(r.report.failures).toHaveLength(1);
    return JSON.stringify([r.report.failures, r.report.warnings, events.filter((e) => e.type === "summary-failed")]);
  }
  const sse = (...events: unknown[]) => new Response(events.map((e) => `data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });

  it("an HTTP error body", async () => {
    const body = straddling(300);
    expectContextual(body, body.slice(0, 300), AWS_SECRET, 0);
    const text = await failed(() => Response.json({ error: { message: body } }, { status: 400 }));
    expect(text).toContain("HTTP 400: xxx");
    expect(pieces(text, AWS_SECRET, 0)).toEqual([]);
  });

  it("a refusal", async () => {
    const refusal = straddling(200);
    const text = await failed(() => sse({ choices: [{ index: 0, delta: { refusal } }] }));
    expect(text).toContain("the model refused");
    expect(pieces(text, AWS_SECRET, 0)).toEqual([]);
  });

  it("an event that is not JSON", async () => {
    const data = straddling(120, "{");
    const text = await failed(() => sse(data));
    expect(text).toContain("unparsable event data");
    expect(pieces(text, AWS_SECRET, 0)).toEqual([]);
  });
});

describe("a lazily loaded module that cannot load says why, redacted", () => {
  // A chunk served from a signed URL: its token is in the loader's error.
  const TOKEN = "Zq8Vd2LmXz4Rt7Yu1Io3Pa8Sd5Fg0Hj4K";
  const input = summarized([{ role: "user", content: "Go on." }]);

  async function compactWithout(path: string) {
    vi.resetModules();
    // Whatever the loader reads of the module fails (a factory that throws would be wrapped by vitest's own message).
    const failure = new TypeError(`Failed to fetch dynamically imported module: https://cdn.example.com/assets/chunk-3f9a.js?expires=1767225600&token=${TOKEN}`);
    vi.doMock(path, () => new Proxy({}, { get: () => { throw failure; } }));
    try {
      return await (await import("../src/compact.js")).compact(input, { contextWindow: 8_000 });
    } finally {
      vi.doUnmock(path);
      vi.resetModules();
    }
  }

  it.each(["../src/summarize/stage.js", "../src/result.js"])("%s", async (path) => {
    expect(redact(`?token=${TOKEN}`)).not.toContain(TOKEN.slice(8));
    const r = await compactWithout(path);
    const text = JSON.stringify([r.report, r.messages]);
    expect(text).toContain("could not be loaded");
    expect(pieces(text, TOKEN)).toEqual([]);
  });
});

// A shape whose prefilter names what the text is about, not what its match holds: Oracle's
// user/password@ is a password only in a text that mentions sqlplus, Oracle or its port.
describe("a secret whose shape reads its context from anywhere in the text", () => {
  const ORACLE = "Tiger7hx2q";
  const connect = `scott/${ORACLE}@//db.example.com:1522/ORCL`;

  it("a pruned output's one-liner, the context 40 lines above the quoted error", () => {
    const output = `$ sqlplus /nolog @deploy.sql\n${Array.from({ length: 40 }, (_, i) => `step ${i}: loading module number ${i} of the schema`).join("\n")}\nERROR: could not connect ${connect}\n`;
    expect(redact(output)).not.toContain(ORACLE);
    expect(prunedOutputLine("Bash", output, 0, redactor)).not.toContain(ORACLE);
    expect(redactor.redactFrom(output, output.indexOf("ERROR"), output.length), "no window can tell: the whole is read").toBeUndefined();
  });

  it.each([
    ["before", `## Commands\n- ran sqlplus to apply the migration\n- it connected as ${connect} and failed\n- next step\n`],
    ["after", `## Commands\n- it connected as ${connect} and failed\n- next step\n- that was sqlplus, the migration runner\n`],
  ])("streamed summary deltas, the context %s the secret", (_, text) => {
    expect(redact(text)).not.toContain(ORACLE);
    for (const size of [1, 7, 40]) {
      let out = "";
      const s = redactedStream(streamKit, (t) => (out += t));
      for (let i = 0; i < text.length; i += size) s.push(text.slice(i, i + size));
      const { text: final } = s.end();
      expect(out, `deltas of ${size}`).not.toContain(ORACLE);
      expect(final).toBe(redact(text));
      expect(out).toBe(final);
    }
  });
});
