// The published package: built output, exports that resolve, and nothing users do not need.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, resolve } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";

/** The files `npm pack` would put in the tarball (`prepare` builds dist/ first), listed once. */
let files: string[] | undefined;
const packed = (): string[] =>
  (files ??= JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }))[0].files.map((f: { path: string }) => f.path));

/** The anchors GitHub and npm give a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchors(file: string): Set<string> {
  const headings = [...readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} +(.+)$/gm)].map(([, h]) => h);
  return new Set(headings.map((h) => h.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")));
}

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
    const aiSdk = await import(new URL("../dist/ai-sdk/index.js", import.meta.url).href);
    expect(typeof aiSdk.compactionStep).toBe("function");
    expect(aiSdk.compactionMiddleware({ contextWindow: 8000 }).specificationVersion).toBe("v3");
  });

  it("the official SDKs' message types go into the built .d.ts and come back out, strict, with bundler and node16 resolution (test/types)", () => {
    if (!existsSync("dist/index.d.ts")) execFileSync("node", ["tools/build.mjs"], { stdio: "ignore" });
    // The same files `npm run typecheck` compiles against src/, here through the package's own exports.
    const dir = mkdtempSync(join(tmpdir(), "cc-types-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const [resolution, module] of [["Bundler", "ESNext"], ["Node16", "Node16"]]) {
      const config = join(dir, `tsconfig.${resolution}.json`);
      const compilerOptions = { module, moduleResolution: resolution, paths: {} };
      writeFileSync(config, JSON.stringify({ extends: resolve("test/types/tsconfig.bundler.json"), compilerOptions, files: [resolve("test/types/sdk-types.ts")] }));
      const tsc = spawnSync("npx", ["tsc", "-p", config], { encoding: "utf8" });
      expect(tsc.stdout + tsc.stderr, resolution).toBe("");
      expect(tsc.status, resolution).toBe(0);
    }
  }, 120_000);

  it("publint finds no problems", () => {
    expect(npx("publint", "--strict")).toMatch(/All good/);
  });

  it("are-the-types-wrong finds no problems for ESM consumers", () => {
    expect(() => npx("attw", "--pack", ".", "--profile", "esm-only")).not.toThrow();
  });

  it("npm pack ships only dist/ (built by prepare, with the command), README, LICENSE, package.json and the documents the README links to", () => {
    const shipped = packed();
    expect(shipped).toContain("dist/cli.js");
    expect(shipped).toContain("dist/index.js");
    expect(shipped.filter((f: string) => !/^dist\/.+\.(js|d\.ts)$/.test(f)).sort()).toEqual([
      "LICENSE",
      "README.md",
      "bench/RESULTS.md",
      "docs/API.md",
      "docs/DESIGN.md",
      "docs/NOTES.md",
      "package.json",
      "test/fixtures/PROVENANCE.md",
    ]);
  });

  it("every relative link in a packed document resolves to a packed file, and its #anchor to a heading there", () => {
    const shipped = new Set(packed());
    const dead: string[] = [];
    for (const doc of [...shipped].filter((f) => f.endsWith(".md"))) {
      for (const [, target] of readFileSync(doc, "utf8").matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [path, anchor] = target.split("#");
        const file = path ? posix.normalize(posix.join(posix.dirname(doc), path)) : doc;
        if (!shipped.has(file)) dead.push(`${doc}: ${target} (${file} is not in the tarball)`);
        else if (anchor && !anchors(file).has(anchor)) dead.push(`${doc}: ${target} (no such heading in ${file})`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("installed from its tarball as a user would, the command and the import work from the user's folder", () => {
    const home = mkdtempSync(join(tmpdir(), "cc-user-"));
    onTestFinished(() => rmSync(home, { recursive: true, force: true })); // (its node_modules too)
    execFileSync("npm", ["pack", "--pack-destination", home], { stdio: "ignore" });
    const tarball = readdirSync(home).find((f) => f.endsWith(".tgz"))!;
    writeFileSync(join(home, "package.json"), JSON.stringify({ name: "user-app", private: true, type: "module" }));
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `./${tarball}`], { cwd: home, stdio: "ignore" });
    // The README as installed: each relative link opens a file the package holds.
    const installed = join(home, "node_modules/context-compactor");
    const links = [...readFileSync(join(installed, "README.md"), "utf8").matchAll(/\]\(([^)\s#:]+)(?:#[^)]*)?\)/g)].map(([, path]) => path);
    expect(links).toContain("docs/API.md");
    expect(links.filter((l) => !existsSync(join(installed, l)))).toEqual([]);
    writeFileSync(join(home, "chat.json"), JSON.stringify([{ role: "user", content: "hello" }, { role: "assistant", content: "hi" }]));
    const run = (...args: string[]) => execFileSync(join(home, "node_modules/.bin/context-compactor"), args, { cwd: home, encoding: "utf8", env: { ...process.env, INIT_CWD: "/elsewhere" } });
    expect(run("--help")).toMatch(/^context-compactor: /);
    const planned = JSON.parse(run("plan", "chat.json", "--window", "4000", "--json")); // a relative path, JSON only
    expect(planned.tokens.total).toBeGreaterThan(0);
    const compacted = JSON.parse(run("compact", "chat.json", "--json"));
    expect(compacted.report.mode).toBe("noop");
    const imported = execFileSync("node", ["--input-type=module", "-e", 'import { compact, openAIChat } from "context-compactor"; console.log(typeof compact, openAIChat.name)'], { cwd: home, encoding: "utf8" });
    expect(imported.trim()).toBe("function openai");
    // The ai-sdk entry runs without `ai` installed: it only borrows its types.
    const aiSdk = execFileSync("node", ["--input-type=module", "-e", 'import { compactionStep } from "context-compactor/ai-sdk"; const s = compactionStep({ contextWindow: 8000 }); const { messages } = await s({ steps: [], stepNumber: 0, messages: [{ role: "user", content: "hi" }] }); console.log(messages.length)'], { cwd: home, encoding: "utf8" });
    expect(aiSdk.trim()).toBe("1");
  }, 120_000);
});
