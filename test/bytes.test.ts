// Issue 30 item 4: a request counts by its bytes as well as its tokens. codex#41338: 53 screenshots,
// 32.9 MB against a 32 MB request cap, while the tokens were well under the window.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dialects, fromOpenAI } from "../src/convert.js";
import { compact, plan, type ChatMessage, type CompactOptions, type DialectName } from "../src/index.js";
import { options, transcript } from "./support/arbitraries.js";
import { validity } from "./support/validity.js";

const MB = 1024 * 1024;
const CAP = 32 * MB;

/** A base64 PNG data URL of about `size` bytes: a real header, then noise from a seeded generator (incompressible, like a screenshot). */
function screenshot(seed: number, size = MB): string {
  const bytes = new Uint8Array(Math.floor((size * 3) / 4));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let x = seed * 2654435761 + 1;
  for (let i = 8; i < bytes.length; i++) bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(bin)}`;
}

/** An agent that takes a screenshot every turn: `n` user turns with an image each, answered. */
function session(n: number): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: "You drive a browser and check each page." }];
  for (let i = 0; i < n; i++) {
    out.push({ role: "user", content: [{ type: "text", text: `Screenshot ${i}: does the page look right?` }, { type: "image_url", image_url: { url: screenshot(i) } }] });
    out.push({ role: "assistant", content: `Page ${i} looks fine; next.` });
  }
  return out;
}

const bytesOf = (ms: unknown) => new TextEncoder().encode(JSON.stringify(ms)).length;
const hasImage = (m: ChatMessage) => Array.isArray(m.content) && m.content.some((p) => p.type === "image_url");
const t = session(36);
const opts: CompactOptions = { contextWindow: 400_000, maxRequestBytes: CAP };

describe("maxRequestBytes", () => {
  it("the session is over the byte cap and well under the token threshold", () => {
    expect(bytesOf(t)).toBeGreaterThan(CAP);
    const p = plan(t, { contextWindow: 400_000 });
    expect(p.tokens.total).toBeLessThan(p.tokens.threshold / 2);
    expect(p.shouldCompact).toBe(false);
  });

  it("a transcript over maxRequestBytes triggers a pass under the token threshold, and plan says why", () => {
    const p = plan(t, opts);
    expect(p.shouldCompact).toBe(true);
    expect(p.bytes).toBe(bytesOf(t));
    expect(p.reason).toMatch(/bytes exceed maxRequestBytes/);
  });

  it("stubs the oldest images first until the request fits, never the latest user message's; archived, cited, reported", async () => {
    const r = await compact(t, opts);
    expect(r.report.mode).toBe("prune");
    expect(r.report.droppedMessages).toBe(0);
    expect(bytesOf(r.messages)).toBeLessThanOrEqual(CAP);
    expect(r.report.bytes).toEqual({ before: bytesOf(t), after: bytesOf(r.messages), max: CAP });
    const stubbed = t.map((m, i) => i).filter((i) => r.messages[i] !== t[i]);
    const images = t.map((m, i) => i).filter((i) => hasImage(t[i]));
    // Only images changed, the oldest ones, as few as fit: one fewer would still be over.
    expect(stubbed).toEqual(images.slice(0, stubbed.length));
    expect(stubbed.length).toBeGreaterThan(0);
    const newest = stubbed.at(-1)!;
    expect(bytesOf(r.messages) + bytesOf([t[newest]]) - bytesOf([r.messages[newest]])).toBeGreaterThan(CAP);
    expect(r.messages.at(-2)).toBe(t.at(-2)); // the latest user message, its image whole
    for (const i of stubbed) {
      expect(r.report.pruned).toContainEqual(expect.objectContaining({ index: i, kind: "image" }));
      expect(JSON.stringify(r.messages[i])).toContain(`#${i}`);
      expect(r.archive?.[`#${i}`]?.text).toContain(`Screenshot ${(i - 1) / 2}`);
    }
    expect(r.report.warnings.some((w) => /maxRequestBytes/.test(w))).toBe(true);
    // The next request is under the cap: no further pass.
    expect(plan(r.messages, { ...opts, state: r.state }).shouldCompact).toBe(false);
  });

  it("never stubs the latest user message's images, and says when the request still cannot fit", async () => {
    const big: ChatMessage[] = [
      { role: "user", content: [{ type: "text", text: "old" }, { type: "image_url", image_url: { url: screenshot(1) } }] },
      { role: "assistant", content: "ok" },
      { role: "user", content: [{ type: "text", text: "look at these" }, ...[2, 3, 4].map((s) => ({ type: "image_url", image_url: { url: screenshot(s) } }))] },
    ];
    const r = await compact(big, { contextWindow: 400_000, maxRequestBytes: 2 * MB });
    expect(r.messages[2]).toBe(big[2]);
    expect(r.messages[0]).not.toBe(big[0]);
    expect(r.report.warnings.some((w) => /still over maxRequestBytes/.test(w))).toBe(true);
  });

  it("in Anthropic's format too, base64 image blocks counted by their bytes", async () => {
    const c = fromOpenAI(t, "anthropic");
    const o = { ...opts, dialect: dialects.anthropic, system: c.system } as CompactOptions<unknown>;
    const r = await compact(c.messages, o);
    expect(bytesOf(c.messages)).toBeGreaterThan(CAP);
    expect(bytesOf(r.messages)).toBeLessThanOrEqual(CAP);
    expect(r.report.pruned.every((x) => x.kind === "image")).toBe(true);
    expect(r.messages.at(-2)).toBe(c.messages.at(-2));
  });

  it("over both budgets, the pass compacts as usual and the result fits the bytes too", async () => {
    const r = await compact(t, { contextWindow: 60_000, maxRequestBytes: 8 * MB });
    expect(r.report.mode).not.toBe("noop");
    expect(bytesOf(r.messages)).toBeLessThanOrEqual(8 * MB);
    expect(r.messages).toContain(t.at(-2));
  });

  it("rejects a budget that is not a number of bytes", () => {
    expect(() => plan(t, { contextWindow: 1000, maxRequestBytes: 0 })).toThrow(/maxRequestBytes/);
  });
});

describe("maxRequestBytes over generated transcripts, in every dialect", () => {
  it.each(["openai", "anthropic", "ai-sdk", "openai-responses"] as DialectName[])("%s: valid output, the latest user message itself, under the budget or saying why not", async (dialect) => {
    await fc.assert(
      fc.asyncProperty(transcript, options, fc.integer({ min: 500, max: 60_000 }), async (t, opts, max) => {
        const c = fromOpenAI(t, dialect);
        const input = c.messages as unknown[];
        const o = { ...opts, dialect: dialects[dialect], system: c.system, maxRequestBytes: max } as CompactOptions<unknown>;
        const snapshot = JSON.stringify(input);
        const p = plan(input, o);
        const r = await compact(input, o);
        expect(JSON.stringify(input)).toBe(snapshot);
        if (p.bytes! > max && !p.reason.startsWith("paused") && !p.reason.startsWith("backed off")) expect(p.shouldCompact).toBe(true);
        if (r.report.mode === "noop" || r.report.mode === "aborted") return;
        expect(validity(dialect, r.messages)).toEqual([]);
        const lu = p.latestUserIndex;
        const repaired = r.report.sanitized.rewritten.includes(lu) || r.report.pruned.some((x) => x.index === lu && x.kind === "shrunk");
        if (lu >= 0 && !repaired) expect(r.messages).toContain(input[lu]);
        // The messages as sent, beside the system prompt as the request gave it.
        expect(r.report.bytes?.after).toBe(bytesOf(r.messages) + (c.system === undefined ? 0 : bytesOf(c.system)));
        if (r.report.bytes!.after > max) expect(r.report.warnings.some((w) => w.startsWith("still over maxRequestBytes"))).toBe(true);
      }),
      { numRuns: 120 },
    );
  });
});
