// A token split in two (issue 26: "a token split by a zero-width space, or across two messages"): what
// reaches a summarizer's request and the archive when one message's text ends with a token's start and
// the next begins with its rest, and when a zero-width character stands inside a token.
import { describe, expect, it } from "vitest";
import { anthropicMessages, compact, redact, type ChatMessage, type Summarizer, type SummarizeRequest } from "../src/index.js";
import { maskSeams } from "../src/redact/seams.js";
import { fakeFetch, type Captured } from "./support/sse.js";

const GITHUB = "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe1234";
const STRIPE = "sk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWx";
const words = (chars: number) => "word ".repeat(chars / 5);

/** Pieces of `secret` of 8 characters past its public prefix (4) left in `text`. */
const pieces = (text: string, secret: string) =>
  Array.from({ length: secret.length - 11 }, (_, i) => secret.slice(i + 4, i + 12)).filter((p) => text.includes(p));

function fetchSummarizer(fetchImpl: typeof fetch): Summarizer {
  const summarize = async (request: SummarizeRequest) =>
    (await fetchImpl("https://summarizer.example/v1", { method: "POST", body: JSON.stringify(request.messages), signal: request.signal })).text();
  return Object.assign(summarize, { label: "fetch-summarizer", model: "summarizer-1" });
}

/** A transcript whose middle holds `first` at the end of one user message and `second` at the start of the next. */
function transcript(first: string, second: string): ChatMessage[] {
  return [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Start." },
    { role: "assistant", content: "Started." },
    ...Array.from({ length: 6 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `turn ${i} ${words(3000)}` })),
    { role: "user", content: `set the token to ${first}` },
    { role: "user", content: `${second} and push` },
    ...Array.from({ length: 10 }, (_, i): ChatMessage => ({ role: i % 2 ? "user" : "assistant", content: `later ${i} ${words(3000)}` })),
    { role: "user", content: "What is left?" },
  ];
}

async function compacted(input: ChatMessage[]) {
  const seen: Captured[] = [];
  const summarizer = fetchSummarizer(fakeFetch(() => new Response("## Active task\n- go on"), seen));
  const r = await compact(input, { contextWindow: 8_000, summarizer });
  expect(r.report.mode).toBe("summary");
  return { body: JSON.stringify(seen[0].body), archive: JSON.stringify(r.archive ?? {}), out: JSON.stringify(r.messages) };
}

describe("a token split in two", () => {
  it("a zero-width space or joiner inside a vendor token: masked whole, as if it were not there", () => {
    for (const zw of ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])
      for (const secret of [GITHUB, STRIPE])
        for (const at of [6, 12, 20, secret.length - 6]) {
          const line = `token: ${secret.slice(0, at)}${zw}${secret.slice(at)}`;
          const out = redact(line);
          expect(pieces(out.replaceAll(zw, ""), secret), `${JSON.stringify(line)} → ${JSON.stringify(out)}`).toEqual([]);
        }
  });

  it("a zero-width space inside a token never reaches a summarizer's request nor the archive", async () => {
    const { body, archive } = await compacted(transcript(`${GITHUB.slice(0, 18)}\u200b${GITHUB.slice(18)}`, "now"));
    for (const text of [body, archive]) expect(pieces(text.replaceAll("\\u200b", "").replaceAll("\u200b", ""), GITHUB)).toEqual([]);
  });

  // What holds (docs/NOTES.md, "A token split across two messages"): each message's text is redacted
  // alone, so a part is masked where it is recognisable alone (after a credential's name); the bare rest
  // at the start of the next message, and a vendor token cut short, are not (see the note for what it needs).
  it("a token split at a message boundary: a part after a credential's name reaches neither the request nor the archive", async () => {
    for (const at of [12, 16, 24]) {
      const { body, archive } = await compacted(transcript(`GITHUB_TOKEN=${GITHUB.slice(0, at)}`, GITHUB.slice(at)));
      for (const [where, text] of [["request", body], ["archive", archive]]) expect(text.includes(GITHUB.slice(0, at)), `${where}, cut at ${at}`).toBe(false);
      expect(body, "the message's words are sent").toMatch(/set the token to GITHUB_TOKEN=(?:ghp_…)?\[REDACTED\]/);
    }
  });

  it("the same token whole in one message is masked whole", async () => {
    const { body, archive } = await compacted(transcript(GITHUB, "now"));
    expect(pieces(body, GITHUB)).toEqual([]);
    expect(pieces(archive, GITHUB)).toEqual([]);
  });
});

// The attack (issue 26, "across two messages"): a token's first part ends one message's text and its
// rest begins the next; neither part may reach the summarizer's request, the archive, or the handoff,
// in either dialect (./../src/redact/seams.ts).
const ANTHROPIC_KEY = `sk-ant-api03-${"Qx7vB2mZ9kLp4Rt8".repeat(6)}-AbCd3fGh`;
const SPLITS: [what: string, first: string, second: string, secret: string, publicPrefix: number][] = [
  ["a GitHub token, bare", GITHUB.slice(0, 17), GITHUB.slice(17), GITHUB, 4],
  ["a GitHub token, bare, cut in its prefix", GITHUB.slice(0, 3), GITHUB.slice(3), GITHUB, 4],
  ["an Anthropic key, bare", ANTHROPIC_KEY.slice(0, 40), ANTHROPIC_KEY.slice(40), ANTHROPIC_KEY, 13],
  ["a credential-named password", "DB_PASSWORD=CorrectHorse", "BatteryStaple", "CorrectHorseBatteryStaple", 0],
];

/** Pieces of 8 characters of `secret` past its public prefix left in `text`. */
const leaks = (text: string, secret: string, prefix: number) =>
  Array.from({ length: Math.max(0, secret.length - prefix - 7) }, (_, i) => secret.slice(prefix + i, prefix + i + 8)).filter((p) => text.includes(p));

/** A transcript alternating roles whose middle holds `first` ending a user message and `second` starting the assistant's reply. */
function alternating(first: string, second: string): ChatMessage[] {
  const turn = (i: number, text: string): ChatMessage => ({ role: i % 2 ? "assistant" : "user", content: text });
  return [
    ...Array.from({ length: 6 }, (_, i) => turn(i, `turn ${i} ${words(3000)}`)),
    turn(0, `use ${first}`),
    turn(1, `${second} is set, pushing`),
    ...Array.from({ length: 10 }, (_, i) => turn(i, `later ${i} ${words(3000)}`)),
    turn(0, "What is left?"),
  ];
}

const toAnthropic = (messages: ChatMessage[]) => messages.map((m) => ({ role: m.role, content: [{ type: "text", text: m.content as string }] }));

async function split(first: string, second: string, dialect: "openai" | "anthropic", model: boolean) {
  const seen: Captured[] = [];
  const summarizer = model ? fetchSummarizer(fakeFetch(() => new Response("## Active task\n- go on"), seen)) : undefined;
  const messages = alternating(first, second);
  const input = dialect === "openai" ? [{ role: "system", content: "You are a coding agent." }, ...messages] : toAnthropic(messages);
  const options = { contextWindow: 8_000, summarizer, ...(dialect === "anthropic" ? { dialect: anthropicMessages, system: "You are a coding agent." } : {}) };
  const r = await compact(input as ChatMessage[], options as Parameters<typeof compact>[1]);
  expect(r.report.mode).toBe("summary");
  return { request: seen.length ? JSON.stringify(seen[0].body) : "", archive: JSON.stringify(r.archive ?? {}), handoff: JSON.stringify(r.messages) };
}

describe("a token split across two messages", () => {
  for (const dialect of ["openai", "anthropic"] as const)
    for (const [what, first, second, secret, prefix] of SPLITS)
      it(`${what} (${dialect}): neither part reaches the summarizer's request, the archive or the handoff`, async () => {
        for (const model of [true, false]) {
          const where = await split(first, second, dialect, model);
          for (const [name, text] of Object.entries(where)) expect(leaks(text, secret, prefix), `${name}${model ? "" : " (deterministic)"}`).toEqual([]);
          if (model) expect(where.request, "the words around the seam are sent").toMatch(/use .*\[REDACTED\].*is set, pushing/);
        }
      });

  it("two unrelated adjacent texts are left whole: a path then a word, a hash then a word, an id then a name", async () => {
    for (const [first, second] of [
      ["src/redact/index.ts", "Then"],
      ["commit 3f9a2b1c", "fixes"],
      ["req_01HZX8K2M4", "done"],
      ["v1.2.3", "released"],
    ]) {
      const { request } = await split(first, second, "openai", true);
      expect(request, `${first} | ${second}`).toContain(`use ${first}`);
      expect(request, `${first} | ${second}`).toContain(`${second} is set, pushing`);
    }
  });

  it("maskSeams: only a secret crossing the seam is masked, each side's part; a public vendor prefix at most stays", () => {
    const texts = [`token ${GITHUB.slice(0, 20)}`, `${GITHUB.slice(20)} ok`, "src/app.ts", "Then run"];
    const out = maskSeams(texts, texts.map(redact), redact);
    expect(out[0]).toMatch(/^token (?:ghp_…)?\[REDACTED\]$/);
    expect(out[1]).toBe("[REDACTED] ok");
    expect(out.slice(2)).toEqual(["src/app.ts", "Then run"]);
    expect(maskSeams(texts, texts, redact, () => false)).toEqual(texts);
    // a whole token ending a text, a word beginning the next: nothing of the token comes back
    const whole = [`use ${GITHUB}`, "and push"];
    expect(leaks(maskSeams(whole, whole.map(redact), redact).join(" "), GITHUB, 4)).toEqual([]);
  });
});
