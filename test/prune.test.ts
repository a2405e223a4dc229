import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MessageView } from "../src/dialects/view.js";
import { compact, type ChatMessage } from "../src/index.js";
import { PRUNE_MIN_CHARS } from "../src/options.js";
import { newestCopies } from "../src/prune/index.js";
import { thousands } from "../src/prune/stand-ins.js";
import { assistant, call, filler, sys, user } from "./support/build.js";
import { formerThousands } from "./support/shrink-reference.js";

function agent(turns: number, output: (i: number) => string, name = "Bash"): ChatMessage[] {
  const m: ChatMessage[] = [sys(), user("Fix the build"), assistant("Looking.")];
  for (let i = 0; i < turns; i++) m.push(...call(name, name === "Read" ? { file_path: `/src/f${i}.ts` } : { command: `make step${i}` }, output(i)));
  m.push(user("and then?"), assistant("next"));
  return m;
}

const content = (m: ChatMessage) => String(m.content);

/** The parsed arguments of every call prune shrank. */
function shrunkArguments(r: { messages: ChatMessage[]; report: { pruned: { index: number; kind: string }[] } }): Record<string, string>[] {
  return r.report.pruned.filter((p) => p.kind === "arguments").map((p) => JSON.parse(r.messages[p.index].tool_calls![0].function.arguments));
}

describe("prune", () => {
  it("replaces old middle tool outputs with informative one-liners", async () => {
    const m = agent(40, (i) => `${filler(400)}\nError: step${i} failed\nexit code: 2`);
    const r = await compact(m, { contextWindow: 30_000 });
    expect(r.report.mode).toBe("prune");
    const stub = r.messages.find((x) => x.role === "tool" && content(x).startsWith("[output pruned #"))!;
    // It cites the message whose whole output the archive keeps.
    expect(content(stub)).toMatch(/^\[output pruned #\d+\] Bash command="make step\d+" → [\d,]+ chars, 3 lines, exit 2; "Error: step\d+ failed"$/);
    expect(r.report.pruned.every((p) => p.tokensAfter < p.tokensBefore)).toBe(true);
    expect(r.report.droppedMessages).toBe(0);
  });

  it("deduplicates identical outputs, keeping the newest", async () => {
    const same = filler(200);
    const m = agent(60, () => same, "Read");
    const r = await compact(m, { contextWindow: 16_000, tailTokens: 200 });
    const dups = r.report.pruned.filter((p) => p.kind === "duplicate");
    expect(dups.length).toBeGreaterThan(0);
    const last = r.messages.filter((x) => x.role === "tool").at(-1)!;
    expect(content(last)).toBe(same);
    expect(content(r.messages[dups[0].index])).toMatch(/^\[output pruned #\d+\] Read file_path="\/src\/f\d+\.ts" → identical to the output at #\d+$/);
  });

  it("cites the newest copy by its reference, which carries the pass from the second pass on", async () => {
    const same = filler(200);
    const m = agent(60, () => same, "Read");
    const r = await compact(m, { contextWindow: 16_000, tailTokens: 200, state: { version: 1, compactions: 1, strikes: 0, fallbackStreak: 0, cooldowns: {} } });
    const dups = r.report.pruned.filter((p) => p.kind === "duplicate");
    expect(dups.length).toBeGreaterThan(0);
    for (const d of dups) {
      const [, own, later] = /^\[output pruned (#1\.\d+)\] .* identical to the output at (#1\.\d+)$/.exec(content(r.messages[d.index]))!;
      expect(own).toBe(`#1.${d.index}`);
      // The newest copy is a later message of this pass, and the archive keeps the duplicate whole under its own reference.
      expect(Number(later.slice(3))).toBeGreaterThan(d.index);
      expect(r.archive![own]).toBeDefined();
    }
  });

  it("never touches protected tools", async () => {
    const m = agent(40, () => filler(400), "todo");
    const r = await compact(m, { contextWindow: 30_000, protectedTools: ["todo"] });
    expect(r.report.pruned.filter((p) => p.kind !== "arguments")).toEqual([]);
  });

  it("shrinks huge tool-call arguments and keeps them valid JSON", async () => {
    const m: ChatMessage[] = [sys(), user("write files"), assistant("ok")];
    for (let i = 0; i < 20; i++) m.push(...call("Write", { file_path: `/f${i}.ts`, content: filler(900) }, "written"));
    m.push(user("done?"), assistant("yes"));
    const shrunk = shrunkArguments(await compact(m, { contextWindow: 30_000 }));
    expect(shrunk.length).toBeGreaterThan(0);
    for (const args of shrunk) {
      expect(args.file_path).toMatch(/^\/f\d+\.ts$/);
      expect(args.content).toMatch(/\.\.\.\[truncated \d+ chars\]$/);
    }
  });

  it("redacts a long argument string whole, then cuts it between words, so half a token never stays behind", async () => {
    const token = "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe1234";
    const command = `${"echo step && ".repeat(12)}gh auth login --with-token ${token} && echo done ${filler(200)}`;
    expect(command.indexOf(token)).toBeLessThan(200); // the 200-character leaf cut falls inside the token
    expect(command.indexOf(token) + token.length).toBeGreaterThan(200);
    const m: ChatMessage[] = [sys(), user("deploy"), assistant("ok")];
    for (let i = 0; i < 20; i++) m.push(...call("Bash", { command, description: filler(100) }, "deployed"));
    m.push(user("done?"), assistant("yes"));
    // A window where pruning alone buys the runway (at 10k the estimate now asks for a summary).
    const shrunk = shrunkArguments(await compact(m, { contextWindow: 12_000 }));
    expect(shrunk.length).toBeGreaterThan(0);
    for (const args of shrunk) {
      expect(args.command).toMatch(/ \.\.\.\[truncated \d+ chars\]$/);
      for (let i = 4; i + 8 <= token.length; i++) expect(args.command).not.toContain(token.slice(i, i + 8));
    }
  });

  it("leaves truncated (invalid) JSON arguments alone instead of breaking them further", async () => {
    const bad = `{"command": "${"x".repeat(2000)}`;
    const m: ChatMessage[] = [sys(), user("go"), assistant("ok")];
    for (let i = 0; i < 20; i++) {
      m.push({ role: "assistant", content: null, tool_calls: [{ id: `b${i}`, type: "function", function: { name: "Bash", arguments: bad } }] });
      m.push({ role: "tool", tool_call_id: `b${i}`, content: filler(300) });
    }
    m.push(user("next"));
    const r = await compact(m, { contextWindow: 30_000 });
    for (const x of r.messages) for (const c of x.tool_calls ?? []) expect([bad]).toContain(c.function.arguments);
  });

  it("replaces image payloads in the middle with a text stub", async () => {
    const shot: ChatMessage = { role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(100_000)}` } }] };
    const m = [sys(), user("task"), assistant("ok"), ...Array.from({ length: 8 }, () => [shot, assistant("noted")]).flat(), user("what now?"), assistant("…")];
    const r = await compact(m, { contextWindow: 16_000 });
    expect(r.report.pruned.some((p) => p.kind === "image")).toBe(true);
    expect(JSON.stringify(r.messages)).toContain("[image_url omitted during compaction]");
  });

  it("accepts prune-only only when it buys the runway; otherwise summarizes the pruned middle", async () => {
    // Outputs that prune well: prune-only lands far below the threshold.
    const roomy = await compact(agent(40, () => filler(400)), { contextWindow: 30_000 });
    expect(roomy.report.mode).toBe("prune");
    expect(roomy.report.tokensAfter).toBeLessThanOrEqual(Math.floor(30_000 * 0.75 * 0.85));

    // Mostly prose in the middle: pruning saves a little, not the runway.
    const m: ChatMessage[] = [sys(), user("discuss")];
    for (let i = 0; i < 60; i++) m.push(user(filler(150)), assistant(filler(150)));
    m.push(...call("Bash", { command: "ls" }, filler(300)));
    const tight = await compact(m, { contextWindow: 20_000 });
    expect(tight.report.mode).toBe("summary");
  });
});

describe("the newest copy of an output", () => {
  /** As it was: a map by text (each output hashed). */
  function formerNewest(views: MessageView[]): Map<string, number> {
    const newest = new Map<string, number>();
    views.forEach((m, i) => {
      for (const r of m.results) if (r.text.length >= PRUNE_MIN_CHARS) newest.set(r.text, i);
    });
    return newest;
  }
  const viewOf = (texts: string[]) => ({ results: texts.map((text) => ({ text })) }) as unknown as MessageView;

  it("is found by length first as the map by text found it: copies, and texts of one length that differ (property)", () => {
    // texts of a few lengths around the threshold, many of one length, some equal
    const text = fc.tuple(fc.constantFrom(PRUNE_MIN_CHARS - 1, PRUNE_MIN_CHARS, PRUNE_MIN_CHARS + 7), fc.constantFrom("a", "b", "c"), fc.nat(3)).map(([n, c, k]) => `${c.repeat(k)}${"x".repeat(n - k)}`);
    fc.assert(
      fc.property(fc.array(fc.array(text, { maxLength: 3 }), { maxLength: 12 }), fc.array(text, { maxLength: 6 }), (messages, asked) => {
        const views = messages.map(viewOf);
        const [now, before] = [newestCopies(views), formerNewest(views)];
        for (const t of [...messages.flat(), ...asked]) expect(now(t)).toBe(before.get(t));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a one-liner's count of characters", () => {
  it("groups digits by thousands as the former pattern did (property)", () => {
    expect([0, 7, 999, 1000, 12345, 1000000].map(thousands)).toEqual(["0", "7", "999", "1,000", "12,345", "1,000,000"]);
    fc.assert(fc.property(fc.oneof(fc.nat(), fc.maxSafeNat()), (n) => void expect(thousands(n)).toBe(formerThousands(n))), { numRuns: 2000 });
  });
});
