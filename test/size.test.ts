// What a user's bundle gains from each import (esbuild, browser, minified, gzip; code splitting on,
// as an app's bundler builds it). Size is deterministic, so budgets are fair tests. Each module that
// must stay out of a bundle is recognised by a string only it carries.
import { describe, expect, it } from "vitest";
import { BUDGETS, bundleSize } from "../bench/lib.js";

const MARKERS = {
  "the Anthropic dialect": "[tool results removed: their calls are gone]",
  "the AI SDK dialect": 'a "tool-call" part needs',
  "the SSE reader": "TextDecoderStream",
  "the network summarizers": "text/event-stream",
  "the model prompt text": "You write a checkpoint of part of a conversation",
  "the converters": "needs a user message first",
  "the recall tool": "Read back content removed from this conversation",
};

describe("bundle size", () => {
  it.each(BUDGETS)("import { $names } stays within its budget", async ({ names, budget }) => {
    const b = await bundleSize("src/index.ts", names);
    const total = b.gzip + b.lazyGzip;
    console.log(`{ ${names.join(", ")} }: ${b.gzip} B gzip at import, ${b.lazyGzip} B on first model summary (budget ${budget} B)`);
    expect(names.some((n) => n !== "compact" && n !== "plan") ? total : b.gzip).toBeLessThanOrEqual(budget);
  });

  it("import { compact } holds no other dialect, no SSE reader, no network summarizer, no prompt text, no converter, no recall tool", async () => {
    const b = await bundleSize("src/index.ts", ["compact"]);
    for (const [what, marker] of Object.entries(MARKERS)) expect(b.code.includes(marker), what).toBe(false);
    // The prompt is loaded only when a model summarizer runs.
    expect(b.lazyCode.includes(MARKERS["the model prompt text"])).toBe(true);
  });

  it("the markers are real: the whole entry holds every one but the converters'", async () => {
    const all = await bundleSize("src/index.ts");
    const everything = all.code + all.lazyCode;
    for (const [what, marker] of Object.entries(MARKERS)) expect(everything.includes(marker), what).toBe(what !== "the converters");
    const convert = await bundleSize("src/convert.ts");
    expect(convert.code.includes(MARKERS["the converters"])).toBe(true);
  });

  it("the tiktoken entry is measured separately and never enters the core", async () => {
    const tiktoken = await bundleSize("src/tiktoken.ts");
    expect(tiktoken.gzip).toBeGreaterThan(100_000); // the o200k ranks really are in there
    const all = await bundleSize("src/index.ts");
    expect(all.gzip).toBeLessThan(30_000);
  });
});
