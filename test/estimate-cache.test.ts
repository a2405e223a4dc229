// Issue 29: each message is counted once across passes (cached by message object, as head and tail
// are the same objects between passes), and a count depends on the counter, the calibration and the
// image price: a cached count never answers for another. Within a pass, a message it rewrites is
// counted by the texts it changed (src/estimate/rewritten.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact, estimateTokens, heuristicTokens, openAIChat, plan, type ChatMessage, type CompactOptions } from "../src/index.js";
import { messageTokens } from "../src/estimate/index.js";
import { rewrittenTokens } from "../src/estimate/rewritten.js";
import { resolveSettings } from "../src/options.js";
import { initialState } from "../src/state.js";
import { trajectory } from "./support/fixtures.js";

/** A counter that records every text it is asked to count. */
function recording() {
  const seen: string[] = [];
  const count = (t: string) => (seen.push(t), heuristicTokens(t));
  return { seen, count, chars: () => seen.reduce((n, t) => n + t.length, 0) };
}

const messages = () => structuredClone(trajectory("claude-code-spotter__4d5611e5-241a").messages);

describe("counts kept by message object across passes", () => {
  it("a second plan of the same objects counts only their short messages again, and returns the same counts", () => {
    const m = messages();
    const r = recording();
    const first = plan(m, { contextWindow: 32_000, countTokens: r.count });
    const counted = r.chars();
    expect(counted).toBeGreaterThan(100_000);
    const second = plan(m, { contextWindow: 32_000, countTokens: r.count });
    expect(r.chars() - counted).toBeLessThan(counted / 10); // messages under ~250 characters: a few % of the text
    expect(second.tokens).toEqual(first.tokens);
  });

  it("a second compaction of the same objects counts only what the pass wrote, and reports the same", async () => {
    const m = messages();
    const r = recording();
    const first = await compact(m, { contextWindow: 32_000, countTokens: r.count });
    const firstChars = r.chars();
    const second = await compact(m, { contextWindow: 32_000, countTokens: r.count });
    expect(r.chars() - firstChars).toBeLessThan(firstChars / 5);
    expect({ ...second.report, durationMs: 0 }).toEqual({ ...first.report, durationMs: 0 });
    expect(second.messages).toEqual(first.messages);
  });

  // Long enough to be kept (a short message is counted again rather than kept).
  const long = "a request that names several files: src/a.ts, src/b.ts and test/c.test.ts. ".repeat(40);

  it("a message changed in place is counted again", () => {
    const m: ChatMessage[] = [{ role: "user", content: long }];
    const before = plan(m, { contextWindow: 32_000 }).tokens.perMessage[0];
    m[0].content = `${long} and one more file: docs/API.md`;
    const after = plan(m, { contextWindow: 32_000 }).tokens.perMessage[0];
    expect(after).toBe(estimateTokens(structuredClone(m)));
    expect(after).toBeGreaterThan(before);
  });

  it("counts after any edits in place equal the counts of a fresh copy (an edit that keeps every length too)", () => {
    const m = messages();
    plan(m, { contextWindow: 32_000 }); // every long message kept
    const long = m.flatMap((x, i) => (JSON.stringify(x).length > 600 ? [i] : []));
    const edit = fc.record({ at: fc.constantFrom(...long), pos: fc.nat(), char: fc.constantFrom("a", "Z", "7", " ", "\n", "中") });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
        for (const { at, pos, char } of edits) {
          const x = m[at];
          if (typeof x.content === "string" && x.content) {
            const k = pos % x.content.length; // the same length, one character changed
            x.content = x.content.slice(0, k) + char + x.content.slice(k + 1);
          } else if (x.tool_calls?.length) {
            const f = x.tool_calls[0].function;
            f.arguments = `${f.arguments} `;
          }
        }
        expect(plan(m, { contextWindow: 32_000 }).tokens).toEqual(plan(structuredClone(m), { contextWindow: 32_000 }).tokens);
      }),
      { numRuns: 100 },
    );
  });

  it("a calibration that moves (usage observed after each answer) counts nothing again, and counts as a fresh plan does", () => {
    const m = messages();
    const r = recording();
    const at = (ratio: number) => ({ contextWindow: 32_000, countTokens: r.count, state: { ...initialState(), calibration: { ratio, samples: 3 } } });
    plan(m, at(1.1));
    const counted = r.chars();
    const moved = plan(m, at(1.234));
    expect(r.chars() - counted).toBeLessThan(counted / 10); // the short messages, never kept
    expect(moved.tokens).toEqual(plan(structuredClone(m), at(1.234)).tokens);
    expect(moved.tokens.total).toBeGreaterThan(plan(structuredClone(m), at(1.1)).tokens.total);
  });

  it("a count made with one counter, calibration or image price never answers for another", () => {
    const m: ChatMessage[] = [{ role: "user", content: [{ type: "text", text: long }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] }];
    const fresh = (o: object) => estimateTokens(structuredClone(m), o);
    const cases = [{}, { countTokens: (t: string) => t.length }, { imageTokens: 10 }, { state: { ...initialState(), calibration: { ratio: 1.5, samples: 3 } } }];
    for (const a of cases) {
      estimateTokens(m, a); // cached under a
      for (const b of cases) expect(estimateTokens(m, b)).toBe(fresh(b));
    }
  });
});

describe("a message a pass rewrites is counted again by the texts it changed only (issue 29 item 2)", () => {
  /** The texts of messages as the estimate counts them: each text, call name, arguments and tool output. */
  const textsOf = (ms: ChatMessage[]) =>
    ms.flatMap((m) => [typeof m.content === "string" ? m.content : "", ...(m.tool_calls ?? []).flatMap((c) => [c.function.name, c.function.arguments])]).filter(Boolean);
  const tally = (xs: string[]) => xs.reduce((n, x) => n.set(x, (n.get(x) ?? 0) + 1), new Map<string, number>());

  it("a pass counts no text of its input more often than the input holds it (the text beside shrunk arguments is not counted again)", async () => {
    const m = messages();
    const r = recording();
    const result = await compact(m, { contextWindow: 32_000, countTokens: r.count });
    expect(result.report.pruned?.length ?? 0).toBeGreaterThan(0);
    const held = tally(textsOf(m));
    const again = [...tally(r.seen)].filter(([x, n]) => held.has(x) && n > held.get(x)!);
    expect(again.map(([x]) => x.slice(0, 60))).toEqual([]);
  });

  const long = "an answer that names the files it will read next: src/a.ts, src/b.ts, test/c.test.ts. ".repeat(20);
  // A counter that answers fractions: a count read instead of counted must be summed as it was.
  const settings = resolveSettings({ contextWindow: 100_000, countTokens: (t: string) => t.length / 3 + (t.length % 7) / 10 } as CompactOptions<unknown>);
  const words = fc.string({ minLength: 0, maxLength: 300 });
  const message = fc.record({
    content: words,
    calls: fc.array(fc.record({ name: fc.constantFrom("Read", "Bash", "Edit"), args: words }), { maxLength: 4 }),
  });

  it("counts a rewrite as a fresh count of it does, counting only the texts it changed (property)", () => {
    fc.assert(
      fc.property(message, fc.array(fc.option(words), { maxLength: 4 }), fc.boolean(), ({ content, calls }, edits, stubbed) => {
        const before: ChatMessage = {
          role: "assistant",
          content: `${long}${content}`, // long enough to be kept (a short message is counted again whole)
          tool_calls: calls.map((c, i) => ({ id: `c${i}`, type: "function", function: { name: c.name, arguments: c.args } })),
        };
        messageTokens(openAIChat.view(before), settings, before); // the plan's count, kept
        // Arguments replaced (some by an equal string that is another object), as prune shrinks them; or the text changed.
        const args = new Map(edits.flatMap((e, i) => (e === null || i >= calls.length ? [] : [[i, e === "" ? [...calls[i].args].join("") : e] as [number, string]])));
        let after = openAIChat.withArguments(before, args);
        if (stubbed) after = { ...after, content: `${before.content} [image omitted]` };
        const asked: string[] = [];
        const fresh = messageTokens(openAIChat.view(after), settings);
        const watched = { ...settings, basis: { ...settings.basis, count: (t: string) => (asked.push(t), settings.basis.count(t)) } };
        expect(rewrittenTokens(openAIChat.view(after), watched, before)).toBe(fresh);
        const had = textsOf([before]);
        expect(asked.filter((t) => had.includes(t))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
