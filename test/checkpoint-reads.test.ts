// Issue 29 item 2: the deterministic checkpoint redacts only what it may quote, each as its whole
// source redacts it. A failed run's error lines are read (its whole output redacted) when quoted; an
// agent's words that give nothing (no decision, plan box, path or URL, and not its last) are not
// redacted at all, but still read for a secret split across their seam. Nothing masked is unmasked.
import { describe, expect, it } from "vitest";
import { compact, type ChatMessage, type SummarizeRequest } from "../src/index.js";
import { deterministicCheckpoint } from "../src/summarizers/deterministic.js";
import { readsWords } from "../src/summarize/ledgers.js";
import { redactor } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import type { HandoffMaterial } from "../src/summarize/types.js";
import { assistant, call, filler, sys, user } from "./support/build.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(redactor);

/** A value no shape recognises alone: only the credential's name on the line above says what it is. */
const HIDDEN = "hunter2-Qx9vL7mZ4";
const GITHUB = "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe1234";

describe("what the deterministic checkpoint redacts", () => {
  it("the context alone reveals the secret: the premise of the cases below", () => {
    expect(redactor.redact(`  ${HIDDEN} denied`)).toContain(HIDDEN);
    expect(redactor.redact(`password:\n  ${HIDDEN} denied`)).not.toContain(HIDDEN);
  });

  it("a command the checkpoint quotes is redacted as its call's whole arguments redact it (a sibling argument says Oracle: scott/<password>@host)", async () => {
    const input: ChatMessage[] = [sys(), user("Fix the build"), assistant("Looking.")];
    for (let i = 0; i < 40; i++) {
      const args = { description: `oracle ${i}`, command: `connect scott/Tiger2024x${i}@dbhost/ORCL && run step${i} ${filler(300)}` };
      input.push(...call("Bash", args, `${filler(400)}\nError: failed at step${i}\nexit code: 2`));
    }
    input.push(user("and then?"), assistant("next"));
    const r = await compact(input, { contextWindow: 16_000 });
    expect(r.report.summary?.source).toBe("deterministic");
    const handoff = String(r.messages.find((m) => String(m.content).includes("## Blocked"))?.content);
    expect(handoff).toContain("connect scott/");
    expect(handoff).not.toContain("Tiger2024x");
  });

  it.each([0, 600])("a model's checkpoint completed from the ledgers quotes a failed command as its call's whole arguments redact it (%i characters of notes beside)", async (notes) => {
    const args = JSON.stringify({ command: "run-migrations scott/Tiger2024x@dbhost/ORCL", description: "apply the oracle schema", notes: "n ".repeat(notes) });
    const input: ChatMessage[] = [sys()];
    for (let i = 0; i < 12; i++) {
      input.push(user(`step ${i} ${filler(1000)}`));
      if (i === 4) input.push(...call("Bash", JSON.parse(args), "ERROR: ORA-01017: invalid username/password; logon denied\nexit code 1"));
      input.push(assistant(`ok ${i} ${filler(1000)}`));
    }
    input.push(user("go on"));
    const r = await compact(input, { contextWindow: 16_000, summarizer: async () => "## Active task\n- go on" });
    expect(r.report.summary?.check?.ledgersAppended).toBe(true);
    const out = JSON.stringify(r.messages.filter((m) => !input.includes(m)));
    expect(out).toContain("run-migrations");
    expect(out).not.toContain("Tiger2024x");
  });

  it("a failed run's error line is quoted as its whole output redacts it, for ours and in a model's material", async () => {
    const input: ChatMessage[] = [
      sys(),
      user("deploy the service"),
      ...Array.from({ length: 3 }, (_, i) => [assistant(`first ${i} ${filler(300)}`), user(`then ${i}`)]).flat(),
      ...call("Bash", { command: "deploy --env prod" }, `Exit code 1\nconnecting\npassword:\n  ${HIDDEN} denied\n${filler(40)}`),
      ...Array.from({ length: 12 }, (_, i) => [assistant(`step ${i} ${filler(600)}`), user(`go on ${i}`)]).flat(),
      user("what now?"),
    ];
    const r = await compact(input, { contextWindow: 4000, force: true });
    expect(r.report.mode).toBe("summary");
    const summary = JSON.stringify(r.messages);
    expect(summary).toContain("## Blocked");
    expect(summary).toContain("[REDACTED] denied");
    expect(summary).not.toContain(HIDDEN);

    let seen: SummarizeRequest | undefined;
    const model = Object.assign(async (req: SummarizeRequest) => ((seen = req), "## Active task\n> go on"), { label: "model" });
    await compact(input, { contextWindow: 4000, force: true, summarizer: model });
    const failed = seen!.handoff!.turns.find((t) => t.failed);
    expect(failed?.errorLines).toEqual(["[REDACTED] denied"]);
    expect(JSON.stringify(seen!.messages)).not.toContain(HIDDEN);
  });

  it("an agent's decision is quoted as its whole words redact it; words that give nothing are not quoted", () => {
    const m: HandoffMaterial = {
      middleCount: 4,
      turns: [
        { index: 1, role: "user", text: "set up the database", toolCalls: [] },
        { index: 2, role: "assistant", text: `password:\n  ${HIDDEN} - so we decided to keep the old user`, toolCalls: [] },
        { index: 3, role: "assistant", text: `looking at ${GITHUB} now`, toolCalls: [] },
        { index: 4, role: "assistant", text: "all set", toolCalls: [] },
      ],
    };
    expect(readsWords(m.turns[1].text)).toBe(true);
    expect(readsWords(m.turns[2].text)).toBe(false);
    const text = deterministicCheckpoint(m, redactor);
    expect(text).toContain("[REDACTED] - so we decided to keep the old user");
    expect(text).not.toContain(HIDDEN);
    expect(text).not.toContain("looking at");
    expect(text).not.toContain(GITHUB.slice(4, 12));
  });

  it("the agent's last words are quoted, redacted, though they give the ledgers nothing", () => {
    const m: HandoffMaterial = {
      middleCount: 2,
      turns: [
        { index: 1, role: "user", text: "rotate the token", toolCalls: [] },
        { index: 2, role: "assistant", text: `rotated: the new one is ${GITHUB}`, toolCalls: [] },
      ],
    };
    expect(readsWords(m.turns[1].text)).toBe(false);
    const text = deterministicCheckpoint(m, redactor);
    expect(text).toContain("rotated: the new one is");
    expect(text).not.toContain(GITHUB.slice(4, 12));
  });

  it("a token split between a request and the agent's unread words: the request's part stays masked", () => {
    const m: HandoffMaterial = {
      middleCount: 3,
      turns: [
        { index: 1, role: "user", text: `use ${GITHUB.slice(0, 17)}`, toolCalls: [] },
        { index: 2, role: "assistant", text: `${GITHUB.slice(17)} is set, pushing`, toolCalls: [] },
        { index: 3, role: "assistant", text: "done", toolCalls: [] },
      ],
    };
    expect(readsWords(m.turns[1].text)).toBe(false);
    const text = deterministicCheckpoint(m, redactor);
    expect(text).toContain("use ");
    expect(text).not.toContain(GITHUB.slice(4, 12));
    expect(text).not.toContain(GITHUB.slice(17, 25));
  });

  it("what the ledgers may take from an agent's words is found in the raw words: a mask adds none", () => {
    for (const said of ["we decided to keep it", "the fix is a retry", "- [x] parser", "see https://example.com/a", "edit src/a.ts next", "I'll use\npnpm"]) expect(readsWords(said), said).toBe(true);
    for (const said of ["all set", "looking into it", `token ${GITHUB}`, "[REDACTED]", "[REDACTED PRIVATE KEY]", "ghp_…[REDACTED]"]) expect(readsWords(said), said).toBe(false);
  });
});

describe("an agent's long words with a call", () => {
  it("are redacted whole before the material's cut, as words without a call are", async () => {
    // the cut of the material's bound (4,363 characters kept from the start) falls inside the token
    const before = `${filler(2000)}`.slice(0, 4320);
    const said = `${before}\nso we decided to use ${GITHUB} for the push\n${filler(600)}`;
    const input: ChatMessage[] = [
      sys(),
      user("push the branch"),
      ...Array.from({ length: 3 }, (_, i) => [assistant(`first ${i} ${filler(300)}`), user(`then ${i}`)]).flat(),
      { role: "assistant", content: said, tool_calls: [{ id: "c1", type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: "git push" }) } }] },
      { role: "tool", tool_call_id: "c1", content: "Everything up-to-date" },
      ...Array.from({ length: 12 }, (_, i) => [assistant(`step ${i} ${filler(600)}`), user(`go on ${i}`)]).flat(),
      user("what now?"),
    ];
    const r = await compact(input, { contextWindow: 4000, force: true });
    expect(r.report.mode).toBe("summary");
    const summary = JSON.stringify(r.messages.filter((m) => typeof m.content === "string" && m.content.includes("## ")));
    expect(summary).toContain("so we decided to use");
    expect(summary).not.toContain(GITHUB.slice(4, 12));
  });
});
