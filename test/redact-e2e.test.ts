// End to end: secrets planted in the middle never reach a summarizer's request, nor the output.
import { describe, expect, it } from "vitest";
import { compact, openAICompatible, plan, type ChatMessage } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";
import { fakeFetch, sseBytes, sseResponse, type Captured } from "./support/sse.js";

const SECRETS = {
  aws: "AKIAQ3EGUV7XK2MZ4PLA",
  github: "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe1234",
  password: "Pg5ecret99xQ",
  jwt: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJib2IiLCJpYXQiOjE1MTYyMzkwMjJ9.4Adcj3UFYzPUVaVF43FmMab6RlaQD8A9V8wFzzht-KQ",
  key: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----",
};

function planted(): { input: ChatMessage[]; middle: number } {
  const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
  const p = plan(messages, { contextWindow: 16_000 });
  // A tool result right after its call, halfway through the middle.
  let at = (p.middle.start + p.middle.end) >> 1;
  while (!(messages[at].role === "tool" && messages[at - 1].tool_calls?.length)) at++;
  const input = messages.map((m, i) => {
    if (i === at && m.role === "tool") return { ...m, content: `${m.content}\nexport AWS_ACCESS_KEY_ID=${SECRETS.aws}\n${SECRETS.key}` };
    if (i === at - 1 && m.tool_calls) {
      return { ...m, tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: JSON.stringify({ command: `git push https://bob:${SECRETS.password}@github.com/x/y`, token: SECRETS.github }) } })) };
    }
    return m;
  });
  input.splice(at + 1, 0, { role: "user", content: `use this session token: ${SECRETS.jwt}` }, { role: "assistant", content: "Noted." });
  return { input, middle: at };
}

describe("redaction at every boundary of the summary path", () => {
  it("keeps planted secrets out of the summarizer's request and the handoff, and leaves head and tail untouched", async () => {
    const { input } = planted();
    for (const [name, s] of Object.entries(SECRETS)) expect(JSON.stringify(input).includes(JSON.stringify(s).slice(1, -1).slice(0, 29)), name).toBe(true);
    const seen: Captured[] = [];
    const summarizer = openAICompatible({ model: "m", fetch: fakeFetch(() => sseResponse(sseBytes("openai-chat__text-plain.txt")), seen) });
    const p = plan(input, { contextWindow: 16_000 });
    const r = await compact(input, { contextWindow: 16_000, summarizer, focus: `keep ${SECRETS.aws} in mind` });
    expect(r.report.mode).toBe("summary");
    const body = JSON.stringify(seen[0].body);
    for (const [name, s] of Object.entries(SECRETS)) expect(body.includes(name === "key" ? "b3BlbnNzaC1rZXktdjEAAAAABG5v" : s), name).toBe(false);
    const written = JSON.stringify(r.messages.filter((m) => !input.includes(m)));
    for (const s of [SECRETS.aws, SECRETS.github, SECRETS.password, SECRETS.jwt, "b3BlbnNzaC1rZXktdjEAAAAABG5v"]) expect(written.includes(s), s).toBe(false);
    for (let i = 0; i < p.head.end; i++) if (i > 0) expect(r.messages[i]).toBe(input[i]);
    for (const m of input.slice(p.tail.start + 1)) expect(r.messages).toContain(m);
  });

  it("the deterministic summary and the fallback marker are redacted too", async () => {
    const { input } = planted();
    const det = await compact(input, { contextWindow: 16_000 });
    expect(det.report.summary?.source).toBe("deterministic");
    const broken = Object.assign(async () => {
      throw new Error(`upstream said: bad key ${SECRETS.github}`);
    }, { label: "deterministic" });
    const marker = await compact(input, { contextWindow: 16_000, summarizer: broken });
    for (const r of [det, marker]) {
      const written = JSON.stringify(r.messages.filter((m) => !input.includes(m)));
      for (const s of [SECRETS.aws, SECRETS.github, SECRETS.password, SECRETS.jwt]) expect(written.includes(s), s).toBe(false);
    }
  });
});
