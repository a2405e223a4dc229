// The published package: built output, exports that resolve, and nothing users do not need.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const npx = (...args: string[]) => execFileSync("npx", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

describe("package", () => {
  it("builds dist/ with ESM and .d.ts for every entry", async () => {
    execFileSync("node", ["tools/build.mjs"], { stdio: "ignore" });
    // Computed specifiers: dist/ exists only once built, so the typecheck must not resolve them.
    const core = await import(new URL("../dist/index.js", import.meta.url).href);
    expect(Object.keys(core)).toEqual(expect.arrayContaining(["plan", "compact", "createCompactor", "estimateTokens", "redact", "deterministicSummarizer", "CompactionInputError"]));
    const { tiktokenCounter } = await import(new URL("../dist/tiktoken.js", import.meta.url).href);
    expect(tiktokenCounter()("hello world")).toBe(2);
    const { detectDialect } = await import(new URL("../dist/convert.js", import.meta.url).href);
    expect(detectDialect([{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] }])).toBe("anthropic");
  });

  it("publint finds no problems", () => {
    expect(npx("publint", "--strict")).toMatch(/All good/);
  });

  it("are-the-types-wrong finds no problems for ESM consumers", () => {
    expect(() => npx("attw", "--pack", ".", "--profile", "esm-only")).not.toThrow();
  });

  it("npm pack ships only dist/, README, LICENSE and package.json", () => {
    const files = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json"], { encoding: "utf8" }))[0].files.map((f: { path: string }) => f.path);
    expect(files.filter((f: string) => !/^dist\/.+\.(js|d\.ts)$/.test(f)).sort()).toEqual(["LICENSE", "README.md", "package.json"]);
  });
});
