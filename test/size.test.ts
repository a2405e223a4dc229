// What a user's bundle gains from each import (esbuild, browser, minified, gzip; code splitting on,
// as an app's bundler builds it). Size is deterministic, so budgets are fair tests. Each module that
// must stay out of a bundle is recognised by a string only it carries.
import { describe, expect, it } from "vitest";
import { BUDGETS, bundleSize } from "../bench/lib.js";

const MARKERS = {
  "the Anthropic dialect": "[tool results removed: their calls are gone]",
  "the AI SDK dialect": 'a "tool-call" part needs',
  "the Responses dialect": "a handoff cannot be merged into a",
  "the SSE reader": "TextDecoderStream",
  "the network summarizers": "text/event-stream",
  "the model prompt text": "You write a checkpoint of part of a conversation",
  "the converters": "needs a user message first",
  "the AI SDK integration": "is not a saved compaction",
  "the recall tool": "Read back content removed from this conversation",
};

// Code loaded on first use: pruning and writing the result by a pass's first rewrite, the summary stage
// by its first summary. A no-op pass, most of them, never needs it.
const LAZY = {
  "pruning": "identical to the output at",
  "the result writer": "compaction would not shrink the transcript",
  "the summarizer chain": "the summarizer returned an empty summary",
  "the checkpoint writer": "more not shown",
};

describe("bundle size", () => {
  it.each(BUDGETS)("import { $names } stays within its budget", async ({ names, budget, total }) => {
    const b = await bundleSize("src/index.ts", names);
    console.log(`{ ${names.join(", ")} }: ${b.gzip} B gzip at import (budget ${budget}), ${b.gzip + b.lazyGzip} B with what it loads on first use (guard ${total})`);
    expect(b.gzip).toBeLessThanOrEqual(budget);
    expect(b.gzip + b.lazyGzip).toBeLessThanOrEqual(total);
  });

  it("import { compact } holds no other dialect, no SSE reader, no network summarizer, no converter, no recall tool; the summary code and the prompt load on first use", async () => {
    const b = await bundleSize("src/index.ts", ["compact"]);
    const { "the model prompt text": prompt, ...never } = MARKERS;
    for (const [what, marker] of Object.entries(never)) expect((b.code + b.lazyCode).includes(marker), what).toBe(false);
    expect(b.code.includes(prompt)).toBe(false);
    expect(b.lazyCode.includes(prompt)).toBe(true);
    for (const [what, marker] of Object.entries(LAZY)) {
      expect(b.code.includes(marker), what).toBe(false);
      expect(b.lazyCode.includes(marker), what).toBe(true);
    }
  });

  it("valibot is in the bundle, tree-shaken: `{ compact }` holds the schemas the default dialect, state and options use, not the other dialects' ones", async () => {
    // Each valibot schema names its kind in the minified code (`type:"loose_object"`); a shaken one is absent.
    const kind = (k: string) => `type:"${k}"`;
    const b = await bundleSize("src/index.ts", ["compact"]);
    const all = await bundleSize("src/index.ts");
    for (const k of ["loose_object", "array", "lazy", "custom", "string", "optional"]) expect(b.code, k).toContain(kind(k));
    for (const k of ["picklist", "variant", "union", "number", "strict_object"]) expect(b.code + b.lazyCode, k).not.toContain(kind(k));
    expect(all.code + all.lazyCode, "the Anthropic dialect's role picklist, loaded with it").toContain(kind("picklist"));
  });

  it("the markers are real: the whole entry holds every one but the converters'", async () => {
    const all = await bundleSize("src/index.ts");
    const everything = all.code + all.lazyCode;
    const ownEntries = ["the converters", "the AI SDK integration"];
    for (const [what, marker] of Object.entries(MARKERS)) expect(everything.includes(marker), what).toBe(!ownEntries.includes(what));
    const convert = await bundleSize("src/convert.ts");
    expect(convert.code.includes(MARKERS["the converters"])).toBe(true);
  });

  it("the tiktoken entry is measured separately and never enters the core", async () => {
    const tiktoken = await bundleSize("src/tiktoken.ts");
    expect(tiktoken.gzip).toBeGreaterThan(100_000); // the o200k ranks really are in there
    const all = await bundleSize("src/index.ts");
    expect(all.gzip).toBeLessThan(43_715); // every export at import: the public `redact` brings its whole catalogue (with its trigger scan, rounds 6 and 8's faster engine, round 9's partial masks mended, round 11's first pass that V8 optimizes once, +70 B, its masks run on through escapes, +58 B, no closure over a pass kept from old space, +~45 B, and round 12's adversarial redaction, +~220 B, and a value holding a vendor token no code path, +~120 B, and a name where another's value stands read as one, +~205 B, round 13's one-liner facts learnt once a pass, +~60 B, pairs that start a vendor token, +~125 B, and masked values read in their markers' places by the escape pass, +~570 B, that pass's adversarial floor, +~200 B, and its second pass over the regions a value is in, +~60 B, round 14's value parted from the next name, +~235 B, round 15's CSRF name read for what it names, +~116 B, and a turned-down value read again for a name inside it, +~59 B, a bare password ending where a shell ends the word, +~10 B, a value one step from its name (terraform output, a YAML block), +~260 B, a key of base64 in short pieces no path, +~12 B, a value read again only where it holds a name's word, +~4 B, and the review's mends, +~118 B, two vendors' formats, +~32 B, the key rules' name built from the secret-name rule's tails, +~38 B, round 16's pass working on the views the estimate kept, +~8 B, and the id check reading a name's last word first, +~150 B, where its value stands found once, +~14 B, a flag as a name's value naming the value after it, +~94 B, the reread's mends, +~13 B, round 17's name where a token stands before the value it gives, +~114 B, and a value in backticks read to its closing one, with that check's mends, +~32 B, and in quotes after a space, +~27 B, a name in Markdown's emphasis, +~39 B, a name and its value in fields of their own, +~67 B, a type between a name and its value, +~145 B, a URL's password to the @ before its host, +~32 B, names in words and prose that sets a password, +~123 B, PGPASSWORD, +~14 B, the field rules' value check, +~13 B, a Markdown table's cells, +~49 B, .netrc's password, +~67 B, round 18's adversarial floor, +~147 B, round 19's escape pass walking back to a change's end, +~14 B, and no search where every window changed, +~7 B, the secret-name rule's per-name path, +~186 B, and NOT_A_VALUE read by a word's shape first, +~37 B, and before a name's checks, +~18 B, a value read on from inside taking the match found there, +~45 B, one word-shape gate for both lists, +~27 B: bench/lib.ts), not 100 KB of ranks
  });

  it("the ai-sdk entry carries its integration and nothing of the `ai` package (types only)", async () => {
    const b = await bundleSize("src/ai-sdk/index.ts");
    console.log(`context-compactor/ai-sdk: ${b.gzip} B gzip at import, ${b.lazyGzip} B more loaded on first use`);
    expect(b.code.includes(MARKERS["the AI SDK integration"])).toBe(true);
    expect(b.code).not.toMatch(/from\s*["']ai["']|AI_APICallError|vercel\.ai\.error/);
    expect(b.gzip).toBeLessThan(25_000);
  });
});
