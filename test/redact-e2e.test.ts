// End to end: secrets planted in the middle of a real transcript never reach a summarizer's request
// (captured through a fake fetch, no network) nor any message compaction writes; head and tail
// messages that stay verbatim are the very same objects, secrets and all.
import { describe, expect, it } from "vitest";
import { compact, deterministicSummarizer, openAICompatible, plan, redact, type ChatMessage, type HandoffMaterial, type SummarizeRequest, type Summarizer } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";
import { fakeFetch, sseBytes, sseResponse, type Captured } from "./support/sse.js";

const WINDOW = 16_000;
const KEY_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";

/** Secrets of several shapes, planted in a middle tool output, its call's arguments and a middle user message. */
const SECRETS = {
  aws: "AKIAQ3EGUV7XK2MZ4PLA",
  awsSecret: "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",
  github: "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe1234",
  urlPassword: "Pg5ecret99xQ",
  dbPassword: "Db9passW0rdZ",
  jwt: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJib2IiLCJpYXQiOjE1MTYyMzkwMjJ9.4Adcj3UFYzPUVaVF43FmMab6RlaQD8A9V8wFzzht-KQ",
  stripe: "sk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWx",
  slackHook: "aB3dE5fG7hI9jK1lM3nO5pQ7",
  key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----`,
};
/** What must not appear anywhere: each secret's value as it would sit inside a JSON string. */
const LEAKS = Object.entries(SECRETS).map(([name, s]) => [name, name === "key" ? KEY_BODY : s] as const);
/** A secret in the tail, which stays verbatim: compaction must not touch it. */
const TAIL_SECRET = "glpat-Tq7Lm2Nx9Rb4Vc8Kd3Hs";

/**
 * The fixture with secrets planted in a tool result right after its call, halfway through the middle
 * (with a user message after it) or, for the deterministic summary that lists the latest actions, at
 * the end of the middle.
 */
function planted(where: "halfway" | "late" = "halfway"): { input: ChatMessage[]; tailMessage: ChatMessage } {
  const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
  const p = plan(messages, { contextWindow: WINDOW });
  const isResult = (i: number) => messages[i].role === "tool" && !!messages[i - 1].tool_calls?.length;
  let at = where === "late" ? p.middle.end - 1 : (p.middle.start + p.middle.end) >> 1;
  while (!isResult(at)) at += where === "late" ? -1 : 1;
  const input = messages.map((m, i): ChatMessage => {
    // First, so that a pruned one-liner of this output quotes it too
    if (i === at) return { ...m, content: `export AWS_ACCESS_KEY_ID=${SECRETS.aws} AWS_SECRET_ACCESS_KEY=${SECRETS.awsSecret}\n${m.content}` };
    if (i === at - 1 && m.tool_calls) {
      const args = JSON.stringify({ command: `git push https://bob:${SECRETS.urlPassword}@github.com/x/y && gh auth login --with-token ${SECRETS.github}` });
      return { ...m, tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: args } })) };
    }
    return m;
  });
  const ask = [
    `use this session token: ${SECRETS.jwt}`,
    `and the Stripe key ${SECRETS.stripe} for the refund script;`,
    `DATABASE_URL=postgres://app:${SECRETS.dbPassword}@db.internal:5432/app`,
    `SLACK_WEBHOOK=https://hooks.slack.com/services/T024BE7LD/B01ABCDEF12/${SECRETS.slackHook}`,
    `the deploy key:\n${SECRETS.key}`,
  ].join("\n");
  if (where === "halfway") input.splice(at + 1, 0, { role: "user", content: ask }, { role: "assistant", content: "Noted." });
  // The last message stays verbatim in the tail, secret included.
  const last = input.length - 1;
  const tailMessage: ChatMessage = { ...input[last], content: `${input[last].content ?? ""}\n(token ${TAIL_SECRET})` };
  input[last] = tailMessage;
  return { input, tailMessage };
}

/** A summarizer as a user would write one over fetch: POST the prompt messages, return the reply's text. */
function fetchSummarizer(fetchImpl: typeof fetch): Summarizer {
  const summarize = async (request: SummarizeRequest) => {
    const response = await fetchImpl("https://summarizer.example/v1/summarize", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request.messages),
      signal: request.signal,
    });
    return response.text();
  };
  return Object.assign(summarize, { label: "fetch-summarizer", model: "summarizer-1" });
}

/** Every message compaction wrote (not passed through by identity), as JSON. */
function written(output: ChatMessage[], input: ChatMessage[]): string {
  return JSON.stringify(output.filter((m) => !input.includes(m)));
}

function expectNoLeak(text: string, where: string): void {
  for (const [name, secret] of LEAKS) expect(text.includes(secret), `${name} in ${where}`).toBe(false);
}

/** Pieces of planted secrets left in `text`: any 10 characters past a secret's first 8 (its vendor prefix may stay). */
function pieces(text: string): string[] {
  const found: string[] = [];
  for (const [name, secret] of LEAKS)
    for (let i = 8; i + 10 <= secret.length; i++) if (text.includes(secret.slice(i, i + 10))) found.push(`${name} from ${i}`);
  return found;
}

function expectVerbatimHeadAndTail(input: ChatMessage[], output: ChatMessage[]): void {
  const p = plan(input, { contextWindow: WINDOW });
  // Head messages are the same objects (a system message gains the system note: a new object).
  for (let i = 0; i < p.head.end; i++) if (input[i].role !== "system") expect(output[i]).toBe(input[i]);
  // Tail messages after the first (which may take the handoff merged in) are the same objects.
  for (const m of input.slice(p.tail.start + 1)) expect(output).toContain(m);
}

describe("redaction at every boundary of the summary path", () => {
  it("plants secrets where the middle will be summarized", () => {
    const { input } = planted();
    const p = plan(input, { contextWindow: WINDOW });
    const middle = JSON.stringify(input.slice(p.middle.start, p.middle.end));
    for (const [name, secret] of LEAKS) expect(middle.includes(secret), name).toBe(true);
    expect(JSON.stringify(input.slice(p.tail.start))).toContain(TAIL_SECRET);
  });

  it("a fetch-based summarizer's request carries no planted secret, nor does the handoff; head and tail stay the same objects", async () => {
    const { input, tailMessage } = planted();
    const seen: Captured[] = [];
    // The model's reply repeats secrets it should not have: the chain redacts what comes back too.
    const reply = `## Active task\nShip the refund script.\n\n## Values\n- ${SECRETS.aws}\n- ${SECRETS.stripe}\n- postgres://app:${SECRETS.dbPassword}@db.internal:5432/app`;
    const summarizer = fetchSummarizer(fakeFetch(() => new Response(reply), seen));
    const r = await compact(input, { contextWindow: WINDOW, summarizer, focus: `keep ${SECRETS.aws} and ${SECRETS.github} in mind` });

    expect(r.report.mode).toBe("summary");
    expect(r.report.summary?.summarizer).toBe("fetch-summarizer");
    expect(seen).toHaveLength(1);
    const body = JSON.stringify(seen[0].body);
    // The material did go out, with markers where the secrets were.
    const contexts = ["AWS_ACCESS_KEY_ID=", "https://bob:[REDACTED]@github.com", "use this session token: [REDACTED]", "hooks.slack.com/services/", "the deploy key:\\n[REDACTED PRIVATE KEY]"];
    for (const context of contexts) expect(body.includes(context), context).toBe(true);
    expectNoLeak(body, "the summarizer's request");

    const out = written(r.messages, input);
    expect(out.includes("Ship the refund script."), "the reply is in the handoff").toBe(true);
    expectNoLeak(out, "the handoff");
    expectVerbatimHeadAndTail(input, r.messages);
    expect(r.messages).toContain(tailMessage);
    expect(JSON.stringify(r.messages).includes(TAIL_SECRET), "the verbatim tail keeps its own text").toBe(true);
  });

  it("the OpenAI-compatible summarizer's request body carries no planted secret", async () => {
    const { input } = planted();
    const seen: Captured[] = [];
    const summarizer = openAICompatible({ model: "m", fetch: fakeFetch(() => sseResponse(sseBytes("openai-chat__text-plain.txt")), seen) });
    const r = await compact(input, { contextWindow: WINDOW, summarizer });
    // The recorded answer is no checkpoint: refused, the deterministic one stands in; what was sent is the point here.
    expect(r.report.summary?.source).toBe("deterministic");
    expect(r.report.failures[0]).toMatchObject({ summarizer: "openai:m", kind: "malformed" });
    expectNoLeak(JSON.stringify(seen[0].body), "the request body");
    expectNoLeak(written(r.messages, input), "the handoff");
    expectVerbatimHeadAndTail(input, r.messages);
  });

  it("the deterministic summary, given raw material, redacts each quote before cutting it", async () => {
    // Each secret sits where a quote of its source is cut (request 300, decision 240, command 90,
    // error line 160), and a key block's lines would be folded into one by a quote.
    const words = (chars: number) => "word ".repeat(chars / 5);
    const command = `${words(165)} --with-token ${SECRETS.github}`;
    const handoff: HandoffMaterial = {
      middleCount: 3,
      turns: [
        { index: 10, role: "user", text: `${words(680)}${SECRETS.github} and the deploy key:\n${SECRETS.key}`, toolCalls: [] },
        {
          index: 11,
          role: "assistant",
          text: `We keep it instead of rotating because ${words(200)}${SECRETS.stripe} still works.`,
          toolCalls: [{ name: "Bash", arguments: JSON.stringify({ command }) }],
        },
        { index: 12, role: "tool", text: `error: ${words(190)} AWS_SECRET_ACCESS_KEY=${SECRETS.awsSecret}`, toolCalls: [], call: { name: "Bash", arguments: JSON.stringify({ command }) } },
      ],
    };
    // The chain redacts every summary once more; a secret cut before that is past saving.
    const out = redact((await deterministicSummarizer()({ messages: [], maxOutputTokens: 4000, handoff })) as string);
    expect(out, "the user request is quoted").toMatch(/^- word word[^\n]* #10$/m);
    expect(out, "the decision is quoted").toContain("We keep it instead of rotating because word");
    expect(out, "the error line is quoted").toContain("error: word word");
    expect(out, "the command is quoted").toContain("`word word");
    expect(pieces(out)).toEqual([]);
  });

  it("a long turn is bounded at word boundaries, so a secret at a cut is sent whole (redacted) or not at all", async () => {
    // A 7,000-character turn keeps its first 4,363 and last 1,536 characters: a token straddles each
    // cut with ~20 characters on the kept side, fewer than any shape needs to recognise it.
    const words = (chars: number) => "word ".repeat(chars / 5);
    const long = `${words(4345)}${SECRETS.github} ${words(1100)}${SECRETS.stripe} ${words(1515)}`;
    const input: ChatMessage[] = [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "Start." },
      { role: "assistant", content: "Started." },
      { role: "user", content: "Go on." },
      { role: "assistant", content: "Going." },
      { role: "user", content: long },
      ...Array.from({ length: 12 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `turn ${i} ${words(2000)}` })),
      { role: "user", content: "What is left?" },
    ];
    const seen: Captured[] = [];
    const summarizer = fetchSummarizer(fakeFetch(() => new Response("## Active task\n- go on"), seen));
    const r = await compact(input, { contextWindow: 8_000, summarizer });
    expect(r.report.mode).toBe("summary");
    const body = JSON.stringify(seen[0].body);
    expect(body, "the long turn was bounded").toContain("chars elided");
    expect(pieces(body)).toEqual([]);
  });

  // Found by review: secrets whose shape depends on the text around them (a name on the line before,
  // a manifest elsewhere, a cut), each through the deterministic summary and a model's request.
  const around = (middle: ChatMessage[]): ChatMessage[] => {
    const words = (chars: number) => "word ".repeat(chars / 5);
    return [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "Start the work." },
      { role: "assistant", content: "Started." },
      ...Array.from({ length: 6 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `early ${i} ${words(200)}` })),
      ...middle,
      ...Array.from({ length: 14 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `later ${i} ${words(2500)}` })),
      { role: "user", content: "What is left?" },
    ];
  };
  const toolTurn = (args: object, output: string): ChatMessage[] => [
    { role: "assistant", content: null, tool_calls: [{ id: "r1", type: "function", function: { name: "Bash", arguments: JSON.stringify(args) } }] },
    { role: "tool", tool_call_id: "r1", content: output },
    { role: "assistant", content: "Looked at it." },
  ];
  const value = "Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C";
  const dsn = "aHR0cHM6Ly9rZXkxMjM0NUBzZW50cnkuaW8vNDI0Mg==";
  const keyLines = Array.from({ length: 8 }, (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC${i}x7Lm2Nx9Rb4Vc8Kd3Hs`);
  // A 7,000-character turn keeps its first 4,363 and last 1,536 characters: each `cut` puts the tail cut at `at`.
  const cut = (before: string, at: number) => {
    const text = `${"word ".repeat(1000)}${before}`;
    return `${text}${"word ".repeat(Math.ceil((5000 + at + 1536 - text.length) / 5))}`.slice(0, 5000 + at + 1536);
  };
  const CONTEXTUAL: [string, ChatMessage[], string[]][] = [
    ["a URL password with a parenthesis", [{ role: "user", content: "clone https://deploy:Xk9mPq2Lw7Rt8Hs3Vd)v4Zq@git.example.com/team/repo.git" }], ["Xk9mPq2Lw7Rt8Hs3Vd)v4Zq"]],
    ["a name on one line, its value and an error word on the next", toolTurn({ command: "./login.sh" }, `config:\npassword:\n  ${value} login failed`), [value]],
    ["a path-shaped value after a secret name", [{ role: "user", content: "set API_TOKEN=Ab3dEf6hIj/Kl9nOp2rSt.Uv5 in the env" }], ["Ab3dEf6hIj/Kl9nOp2rSt.Uv5"]],
    ["Secret data on a line with an error word", toolTurn({ command: "kubectl get secret app -o yaml" }, `apiVersion: v1\ndata:\n  error-reporting-dsn: ${dsn}\nkind: Secret`), [dsn]],
    ["Secret data in a command, the kind in another argument", toolTurn({ kind: "Secret", command: `kubectl apply -f - <<EOF\ndata:\n  DATABASE_URL: ${dsn}\nEOF` }, "secret/db created"), [dsn]],
    ["a tail cut inside the secret's name", [{ role: "user", content: cut(`DB_PASSWORD: ${value} because staging needs it. `, 3) }], [value]],
    [
      "a token at the cut of a pruned output's quoted line",
      toolTurn({ command: "./deploy.sh" }, `Error: push failed ${"word ".repeat(24)}${SECRETS.github} rejected\n${"log line\n".repeat(40)}`),
      [SECRETS.github],
    ],
    [
      "a whole secret just before the ellipsis of a clipped line",
      toolTurn({ command: "./sync.sh" }, `error: ${"word ".repeat(21)}JIRA_API_TOKEN=HXe8DGg1iJd2AopzyxkFB7F2 rejected by the server\n${"log line\n".repeat(40)}`),
      ["HXe8DGg1iJd2AopzyxkFB7F2"],
    ],
    ["a private key across the tail cut", [{ role: "user", content: `${"word ".repeat(1000)}-----BEGIN PRIVATE KEY-----\n${keyLines.join("\n")}\n-----END PRIVATE KEY-----\n${"word ".repeat(260)}` }], keyLines.map((l) => l.slice(40))],
  ];
  it.each(CONTEXTUAL)("%s: no piece reaches a model's request, the handoff or the streamed deltas", async (_, middle, secrets) => {
    const input = around(middle);
    const seen: SummarizeRequest[] = [];
    const model = Object.assign(async (request: SummarizeRequest) => (seen.push(request), "## Active task\n- go on"), { label: "model" });
    const found = (text: string) => secrets.filter((s) => text.includes(s.slice(0, 12)) || text.includes(s.slice(-12)));
    for (const summarizer of [undefined, model]) {
      const deltas: string[] = [];
      const r = await compact(input, { contextWindow: 8_000, summarizer, onEvent: (e) => e.type === "summary-delta" && deltas.push(e.text) });
      expect(r.report.mode).toBe("summary");
      expect(found(written(r.messages, input)), "the handoff").toEqual([]);
      expect(found(deltas.join("")), "the deltas").toEqual([]);
    }
    expect(seen).toHaveLength(1);
    expect(found(JSON.stringify(seen[0])), "the model's request").toEqual([]);
  });

  it("a summarizer that only takes the deterministic label is given redacted material", async () => {
    const { input } = planted();
    const seen: SummarizeRequest[] = [];
    const imposter = Object.assign(
      async (request: SummarizeRequest) => {
        seen.push(request);
        return "## Active task\n- checkpoint";
      },
      { label: "deterministic" },
    );
    await compact(input, { contextWindow: WINDOW, summarizer: imposter });
    expect(seen).toHaveLength(1);
    expect(JSON.stringify(seen[0].handoff)).toContain("[REDACTED");
    expectNoLeak(JSON.stringify(seen[0]), "its request");
  });

  it("the deterministic summary and the fallback marker carry none either", async () => {
    const { input } = planted("late");
    const det = await compact(input, { contextWindow: WINDOW });
    expect(det.report.mode).toBe("summary");
    expect(det.report.summary?.source).toBe("deterministic");
    // It lists the latest actions: the planted command is there, its secrets are not.
    expect(written(det.messages, input).includes("git push https://bob:[REDACTED]@github.com"), "the planted command").toBe(true);
    const broken = Object.assign(
      async () => {
        throw new Error(`upstream said: bad key ${SECRETS.github}`);
      },
      { label: "deterministic" },
    );
    // The marker quotes no material, only why every summarizer failed; it is redacted all the same.
    const marker = await compact(input, { contextWindow: WINDOW, summarizer: broken });
    expect(marker.report.mode).toBe("fallback");
    for (const r of [det, marker]) {
      expectNoLeak(written(r.messages, input), `the ${r.report.mode} handoff`);
      expectVerbatimHeadAndTail(input, r.messages);
    }
  });
});
