// Issue 29: each message is counted once across passes, also for a caller that parses each request
// anew (the worker's session): it adopts its previous request's objects for the messages that read
// the same, and their kept counts answer; only what is new is counted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact, heuristicTokens, openAIChat, plan, type ChatMessage } from "../src/index.js";
import { adoptUnchanged } from "../src/estimate/adopt.js";
import { trajectory } from "./support/fixtures.js";

/** A counter that records every text it is asked to count. */
function recording() {
  const seen = new Set<string>();
  const count = (t: string) => (seen.add(t), heuristicTokens(t));
  return { seen, count };
}

/** The texts estimation reads of a message. */
const textsOf = (m: ChatMessage) => {
  const v = openAIChat.view(m);
  return [v.text, ...v.toolCalls.map((c) => c.arguments), ...v.results.map((r) => r.text)].filter((t) => t.length > 0);
};

const transcript = () => trajectory("claude-code-spotter__4d5611e5-241a").messages;
const parsed = (m: unknown) => JSON.parse(JSON.stringify(m)) as ChatMessage[];

describe("requests parsed anew, adopted from the previous one", () => {
  it("a second request counts only its new messages (and short ones, never kept), and plans as a fresh plan does", () => {
    const all = transcript();
    const earlier = all.slice(0, -2);
    const r = recording();
    const options = { contextWindow: 32_000, countTokens: r.count };
    const previous = parsed(earlier);
    plan(previous, options);
    const counts = plan(parsed(earlier), { contextWindow: 32_000 }).tokens.perMessage;
    r.seen.clear();
    const request = adoptUnchanged(previous, parsed(all));
    expect(request.slice(0, -2).every((m, i) => m === previous[i])).toBe(true);
    const got = plan(request, options);
    expect(got).toEqual(plan(parsed(all), { contextWindow: 32_000 }));
    // Every long message of the earlier request is found, not counted again; each new one is counted.
    // (A text a short or new message holds too, a file read twice, is counted for that one.)
    const again = new Set([...earlier.filter((_, i) => counts[i] < 128), ...all.slice(-2)].flatMap(textsOf));
    const long = earlier.flatMap((m, i) => (counts[i] >= 128 ? textsOf(m) : [])).filter((t) => !again.has(t));
    expect(long.length).toBeGreaterThan(100);
    expect(long.filter((t) => r.seen.has(t))).toEqual([]);
    for (const m of all.slice(-2)) for (const t of textsOf(m)) expect(r.seen.has(t)).toBe(true);
    // What is counted again is a small part of the text.
    const chars = (ts: Iterable<string>) => [...ts].reduce((n, t) => n + t.length, 0);
    expect(chars(r.seen)).toBeLessThan(chars(all.flatMap(textsOf)) / 10);
  });

  it("a pass over an adopted request writes the same JSON and report as over the request itself", async () => {
    const options = { contextWindow: 32_000 };
    const previous = parsed(transcript());
    await compact(previous, options);
    const got = await compact(adoptUnchanged(previous, parsed(transcript())), options);
    const alone = await compact(parsed(transcript()), options);
    expect(JSON.stringify(got.messages)).toBe(JSON.stringify(alone.messages));
    expect({ ...got.report, durationMs: 0 }).toEqual({ ...alone.report, durationMs: 0 });
    expect(got.state).toEqual(alone.state);
  });
});

describe("adoptUnchanged", () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  // Two transcripts that share some messages: the later one parsed anew, some of its messages changed.
  const pair = fc.array(fc.tuple(json, json, fc.boolean()), { maxLength: 8 }).map((xs) => {
    const previous = xs.map(([a]) => a);
    const messages = xs.map(([a, b, keep]) => (keep ? JSON.parse(JSON.stringify(a)) : b) as unknown);
    return { previous, messages };
  });

  it("gives back the earlier object only where it writes the same JSON; the transcript reads the same", () => {
    fc.assert(
      fc.property(pair, fc.nat(3), ({ previous, messages }, cut) => {
        const given = messages.slice(cut);
        const out = adoptUnchanged(previous, given);
        expect(JSON.stringify(out)).toBe(JSON.stringify(given));
        out.forEach((m, i) => {
          if (m !== given[i]) expect(m === previous[i] && JSON.stringify(m) === JSON.stringify(given[i])).toBe(true);
        });
        if (out.every((m, i) => m === given[i])) expect(out).toBe(given);
      }),
    );
  });

  it("adopts every message of a transcript parsed anew, and none from another order of keys or a non-JSON object", () => {
    const m = transcript();
    const again = parsed(m);
    expect(adoptUnchanged(m, again).every((x, i) => x === m[i])).toBe(true);
    const reordered = [{ content: "a", role: "user" }];
    expect(adoptUnchanged([{ role: "user", content: "a" }], reordered)[0]).toBe(reordered[0]);
    const bytes = [{ role: "user", content: [{ type: "file", data: new Uint8Array([1]) }] }];
    expect(adoptUnchanged([{ role: "user", content: [{ type: "file", data: new Uint8Array([2]) }] }], bytes)[0]).toBe(bytes[0]);
    expect(adoptUnchanged([{ role: "user", content: [] }], [{ role: "user", content: {} }])[0]).toEqual({ role: "user", content: {} });
    expect(adoptUnchanged(undefined, again)).toBe(again);
  });
});
