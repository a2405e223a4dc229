// The core stays web-standard: nothing Node-only may creep into src/.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL("../src/", import.meta.url).pathname;
const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));

const FORBIDDEN: [string, RegExp][] = [
  ["a node: import", /from\s+["']node:|import\s*\(?\s*["']node:/],
  ["a bare Node builtin import", /from\s+["'](fs|path|os|crypto|child_process|stream|buffer|util|url|http|https|net)["']/],
  ["require", /\brequire\s*\(/],
  ["process", /\bprocess\./],
  ["Buffer", /\bBuffer\b/],
  ["WebAssembly", /\bWebAssembly\b/],
];

function strip(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

describe("src/ uses web-standard APIs only", () => {
  it("has source files to check", () => expect(files.length).toBeGreaterThan(10));
  it.each(files)("%s", (file) => {
    const code = strip(readFileSync(join(SRC, file), "utf8"));
    for (const [what, pattern] of FORBIDDEN) expect(pattern.test(code), `${file} uses ${what}`).toBe(false);
  });
});

describe("secrets stay out of git", () => {
  it("ignores wrangler's local secrets file (.dev.vars)", () => {
    const ignored = readFileSync(new URL("../.gitignore", import.meta.url), "utf8").split("\n");
    expect(ignored).toContain(".dev.vars");
  });
});
