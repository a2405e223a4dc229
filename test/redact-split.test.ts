// A token split in two (issue 26: "a token split by a zero-width space, or across two messages"): what
// reaches a summarizer's request and the archive when one message's text ends with a token's start and
// the next begins with its rest, and when a zero-width character stands inside a token.
import { describe, expect, it } from "vitest";
import { compact, redact, type ChatMessage, type Summarizer, type SummarizeRequest } from "../src/index.js";
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
