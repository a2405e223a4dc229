// Stand-ins kept by message object (src/prune/index.ts): a pass given the same message objects again
// (an SDK compacting the history it keeps) reads its one-liners and shrunk arguments from the last
// pass, and must write exactly what a pass on a copy writes: after a message is changed in place, for
// another call, and under other known secrets too.
import { describe, expect, it } from "vitest";
import { compact, type ChatMessage, type CompactOptions } from "../src/index.js";
import { trajectories } from "./support/fixtures.js";

/** What a pass writes, less its timing. */
async function written(messages: ChatMessage[], o: CompactOptions<ChatMessage>) {
  const r = await compact(messages, o);
  return JSON.stringify([r.messages, { ...r.report, durationMs: 0 }, r.archive, r.state]);
}

const fixtures = trajectories().filter((t) => t.messages.length > 60);

describe("stand-ins kept by message object", () => {
  it("a second pass on the same objects writes what a pass on a copy writes, on every long fixture", async () => {
    for (const t of fixtures) {
      for (const contextWindow of [32_000, 128_000]) {
        const m = t.messages as ChatMessage[];
        const first = await written(m, { contextWindow });
        for (let k = 0; k < 2; k++) expect(await written(m, { contextWindow })).toBe(first); // kept, then read
        expect(await written(structuredClone(m), { contextWindow })).toBe(first);
      }
    }
  });

  it("an output or its call changed in place is written again", async () => {
    const t = fixtures.sort((a, b) => b.messages.length - a.messages.length)[0];
    const m = structuredClone(t.messages) as ChatMessage[];
    const o = { contextWindow: 128_000 };
    await compact(m, o);
    const before = await compact(m, o); // kept from the second pass on
    const i = before.report.pruned.find((p) => p.kind === "tool_output")!.index;
    const line = String(before.messages[i].content);
    m[i].content = `${String(m[i].content)}\nfatal: changed in place`;
    const changed = await compact(m, o);
    expect(String(changed.messages[i].content)).not.toBe(line);
    expect(await written(m, o)).toBe(await written(structuredClone(m), o));
    // the call that produced it, its command changed in place
    const id = m[i].tool_call_id;
    const holder = m.find((x) => x.tool_calls?.some((c) => c.id === id))!;
    const c = holder.tool_calls!.find((x) => x.id === id)!;
    c.function.arguments = JSON.stringify({ command: "echo changed in place" });
    await compact(m, o);
    const again = await compact(m, o);
    expect(String(again.messages[i].content)).toContain("changed in place");
    expect(await written(m, o)).toBe(await written(structuredClone(m), o));
  });

  it("known secrets given to a later pass are masked in what an earlier pass kept", async () => {
    const t = fixtures.sort((a, b) => b.messages.length - a.messages.length)[0];
    const m = structuredClone(t.messages) as ChatMessage[];
    const o = { contextWindow: 128_000 };
    await compact(m, o);
    const plain = await compact(m, o);
    const p = plain.report.pruned.find((x) => x.kind === "tool_output" && /; "[^"]{12,}"$/.test(String(plain.messages[x.index].content)))!;
    const quoted = /; "([^"]{12,})"$/.exec(String(plain.messages[p.index].content))![1];
    const secret = quoted.slice(0, 12);
    const masked = await compact(m, { ...o, secrets: [secret] });
    expect(String(masked.messages[p.index].content)).not.toContain(secret);
    expect(await written(m, { ...o, secrets: [secret] })).toBe(await written(structuredClone(m), { ...o, secrets: [secret] }));
  });
});
