// The size budget: the core, bundled for the browser, stays small; the exact counter is measured apart.
import { describe, expect, it } from "vitest";
import { bundleSize } from "../bench/lib.js";

const BUDGET = 15 * 1024; // bytes, gzip

describe("bundle size", () => {
  it("the core entry, minified for the browser, is under 15 KiB gzip", async () => {
    const core = await bundleSize("src/index.ts");
    console.log(`core: ${core.minified} bytes minified, ${core.gzip} bytes gzip (budget ${BUDGET})`);
    expect(core.gzip).toBeLessThan(BUDGET);
  });

  it("the tiktoken entry is measured separately and never enters the core", async () => {
    const tiktoken = await bundleSize("src/tiktoken.ts");
    console.log(`tiktoken: ${tiktoken.minified} bytes minified, ${tiktoken.gzip} bytes gzip`);
    expect(tiktoken.gzip).toBeGreaterThan(100_000); // the o200k ranks really are in there
  });
});
