// Issue 30 item 6: report.cache, the pass's effect on the provider's prompt cache, and what the next
// request will cost with cache pricing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fingerprint, hash53 } from "../src/fingerprint.js";
import { sentFingerprint } from "../src/report/cache.js";
import { ANTHROPIC_CACHE_RATES, OPENAI_CACHE_RATES, anthropicMessages, compact, plan, type AnthropicMessage, type ChatMessage, type CompactorState } from "../src/index.js";
import { fromOpenAI } from "../src/convert.js";
import { assistant, call, staleLogSession, user } from "./support/build.js";

const OPTIONS = { contextWindow: 16_000 };
const prefixTokens = (messages: ChatMessage[], n: number) => {
  const p = plan(messages, { ...OPTIONS, threshold: 1 });
  return p.fixedTokens + p.tokens.perMessage.slice(0, n).reduce((a, b) => a + b, 0);
};

describe("report.cache", () => {
  it("a first pass compares with its input: the prefix before the first change is kept, the rest written", async () => {
    const input = staleLogSession();
    const r = await compact(input, OPTIONS);
    expect(r.report.mode).toBe("prune");
    const c = r.report.cache!;
    expect(c.basis).toBe("input");
    expect(c.firstChangedIndex).toBe(r.report.firstChangedIndex);
    expect(c.keptMessages).toBe(r.report.firstChangedIndex);
    expect(c.keptTokens).toBe(prefixTokens(input, c.keptMessages));
    expect(c.rates).toEqual(OPENAI_CACHE_RATES);
    const { read, write } = OPENAI_CACHE_RATES;
    expect(c.nextRequestCost).toBe(Math.round(c.keptTokens * read + (r.report.tokensAfter - c.keptTokens) * write));
    // Sent as it was, the whole input would have been read from the cache.
    expect(c.uncompactedCost).toBe(Math.round(r.report.tokensBefore * read));
    expect(c.nextRequestPrice).toBeUndefined();
  });

  it("a later pass recognises the previous pass's output in its input (the state's fingerprint) and counts from it", async () => {
    const first = await compact(staleLogSession(), OPTIONS);
    expect(first.state.sent).toEqual({ messages: first.messages.length, fingerprint: expect.any(String) });
    const grown = [...first.messages];
    for (let i = 0; i < 3; i++) grown.push(...call("Read", { path: `src/f${i}.ts` }, `line ${i}\n`.repeat(1_500)), user(`next ${i}`), assistant(`ok ${i}`));
    const r = await compact(grown, { ...OPTIONS, state: first.state, force: true });
    const c = r.report.cache!;
    expect(c.basis).toBe("previous output");
    // What the provider cached is at most the previous output: messages after it were new anyway.
    const changed = r.report.firstChangedIndex === -1 ? r.messages.length : r.report.firstChangedIndex;
    expect(c.keptMessages).toBe(Math.min(changed, first.messages.length));
    expect(c.keptTokens).toBe(prefixTokens(grown, c.keptMessages));
    const { read, write } = OPENAI_CACHE_RATES;
    const cachedBefore = prefixTokens(grown, first.messages.length);
    expect(c.uncompactedCost).toBe(Math.round(cachedBefore * read + (r.report.tokensBefore - cachedBefore) * write));
  });

  it("an input that does not start with the previous output is compared with itself; a bad fingerprint is dropped", async () => {
    const first = await compact(staleLogSession(), OPTIONS);
    const other = staleLogSession().map((m) => (m.role === "user" ? { ...m, content: `${m.content}!` } : m));
    const r = await compact(other, { ...OPTIONS, state: first.state, force: true });
    expect(r.report.cache!.basis).toBe("input");
    const bad = { ...first.state, sent: { messages: -1, fingerprint: 3 } } as unknown as CompactorState;
    const b = await compact(staleLogSession(), { ...OPTIONS, state: bad });
    expect(b.report.warnings.some((w) => w.startsWith("state.sent:") && w.endsWith("(dropped)"))).toBe(true);
    expect(b.report.cache!.basis).toBe("input");
  });

  it("Anthropic's rates by default with its dialect; a changed system prompt keeps nothing cached", async () => {
    const { messages, system } = fromOpenAI(staleLogSession(), "anthropic");
    const prune = await compact(messages as AnthropicMessage[], { ...OPTIONS, dialect: anthropicMessages, system });
    expect(prune.report.cache!.rates).toEqual(ANTHROPIC_CACHE_RATES);
    expect(prune.report.cache!.keptMessages).toBeGreaterThan(0);
    const summary = await compact(messages as AnthropicMessage[], { ...OPTIONS, dialect: anthropicMessages, system, force: true, runway: 100_000 });
    expect(summary.report.systemChanged).toBe(true);
    expect(summary.report.cache!.keptMessages).toBe(0);
    expect(summary.report.cache!.keptTokens).toBe(0);
    expect(summary.report.cache!.nextRequestCost).toBe(Math.round(summary.report.tokensAfter * ANTHROPIC_CACHE_RATES.write));
  });

  it("rates are options, with a price per million tokens; bad rates are a clear error", async () => {
    const rates = { read: 0.5, write: 1, inputPerMTok: 2.5 };
    const r = await compact(staleLogSession(), { ...OPTIONS, cacheRates: rates });
    const c = r.report.cache!;
    expect(c.rates).toEqual(rates);
    expect(c.nextRequestPrice).toBeCloseTo((c.nextRequestCost * 2.5) / 1e6, 5);
    expect(c.uncompactedPrice).toBeCloseTo((c.uncompactedCost * 2.5) / 1e6, 5);
    await expect(compact(staleLogSession(), { ...OPTIONS, cacheRates: { read: -1, write: 1 } })).rejects.toThrow(/cacheRates\.read must be a number ≥ 0/);
  });

  it("a no-op says nothing of the cache (it keeps all of it)", async () => {
    const r = await compact([user("hi")], OPTIONS);
    expect(r.report.cache).toBeUndefined();
  });

  it("a state written before the fingerprint was versioned (main 853e9e7: hash53 of the JSON) is still recognised", async () => {
    expect(fingerprint([{ role: "user", content: "héllo 😀" }])).toBe("1ckpidtwlqx"); // as 853e9e7 computed it
    const first = await compact(staleLogSession(), OPTIONS);
    expect(first.state.sent!.fingerprint).toMatch(/^v2:[0-9a-z]+$/);
    const old: CompactorState = { ...first.state, sent: { messages: first.messages.length, fingerprint: fingerprint(first.messages) } };
    const grown = [...first.messages];
    for (let i = 0; i < 3; i++) grown.push(...call("Read", { path: `src/f${i}.ts` }, `line ${i}\n`.repeat(1_500)), user(`next ${i}`), assistant(`ok ${i}`));
    const r = await compact(grown, { ...OPTIONS, state: old, force: true });
    expect(r.report.cache!.basis).toBe("previous output");
    expect(r.state.sent!.fingerprint).toMatch(/^v2:/);
    // Each value is compared by its own function only: the old one for another transcript is not taken.
    const other = { ...old, sent: { messages: old.sent!.messages, fingerprint: fingerprint(grown.slice(1, old.sent!.messages + 1)) } };
    expect((await compact(grown, { ...OPTIONS, state: other, force: true })).report.cache!.basis).toBe("input");
    const unmarked = { ...old, sent: { ...first.state.sent!, fingerprint: first.state.sent!.fingerprint.slice(3) } };
    expect((await compact(grown, { ...OPTIONS, state: unmarked, force: true })).report.cache!.basis).toBe("input");
  });
});

describe("the sent fingerprint", () => {
  // The definition: cyrb53's two chains over the UTF-8 of each 64 messages' JSON, cut greedily into pieces of at most
  // 16,384 bytes at code point boundaries, each read a little-endian word a step, its last word padded with zeros; then
  // hash53 of the two chains (its final mix).
  const reference = (messages: unknown[]) => {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    const step = (w: number) => ((h1 = Math.imul(h1 ^ w, 2654435761)), (h2 = Math.imul(h2 ^ w, 1597334677)));
    for (let i = 0; i < messages.length; i += 64) {
      const b = new TextEncoder().encode(JSON.stringify(messages.slice(i, i + 64)));
      for (let at = 0; at < b.length; ) {
        let cut = Math.min(at + 16_384, b.length);
        while (cut < b.length && (b[cut] & 0xc0) === 0x80) cut--;
        const piece = new Uint8Array((cut - at + 3) & ~3);
        piece.set(b.subarray(at, cut));
        const view = new DataView(piece.buffer);
        for (let k = 0; k < piece.length; k += 4) step(view.getInt32(k, true));
        at = cut;
      }
    }
    return `v2:${hash53(`${h1} ${h2}`)}`;
  };
  // Long texts cross the encoder's buffer (16,384 bytes) at every offset, astral characters among them.
  const text = fc.array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 40 }), fc.constantFrom("😀", "é", "\u2028", "\n")), { maxLength: 60 })
    .chain((parts) => fc.tuple(fc.constant(parts.join("")), fc.integer({ min: 0, max: 3 })))
    .map(([t, k]) => (k ? t.repeat(Math.ceil((16_384 * k) / Math.max(t.length, 1))) : t));
  const message = fc.oneof(fc.jsonValue({ maxDepth: 2 }), text.map((content) => ({ role: "tool", content })), fc.constant(undefined));

  it("is that of the whole JSON's UTF-8, whatever the messages' sizes and characters", () => {
    fc.assert(fc.property(fc.array(message, { maxLength: 6 }).chain((ms) => fc.integer({ min: 0, max: 70 }).map((k) => [...ms, ...Array<unknown>(k).fill(ms[0] ?? null)])), (messages) => {
      expect(sentFingerprint(messages)).toBe(reference(messages));
    }), { numRuns: 300 });
  });

  it("tells transcripts apart, across batches too, and is undefined for what is not JSON", () => {
    const ms = [user("a"), assistant("😀".repeat(5_000) + "b".repeat(3)), user("x".repeat(20_000))];
    expect(sentFingerprint(ms)).toBe(reference(ms));
    expect(sentFingerprint([])).toBe(reference([]));
    const many = Array.from({ length: 150 }, (_, i) => (i % 7 ? user(`message ${i} é`) : call("Read", { path: `f${i}` }, "😀".repeat(i))[1]));
    for (const n of [63, 64, 65, 128, 129, 150]) expect(sentFingerprint(many.slice(0, n))).toBe(reference(many.slice(0, n))); // stringified 64 at a time
    expect(sentFingerprint(ms)).not.toBe(sentFingerprint([...ms.slice(0, 2), user("x".repeat(19_999) + "y")]));
    expect(sentFingerprint([1n])).toBeUndefined();
  });
});
