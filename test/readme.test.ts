// The README is true for someone who has only the package or a fresh clone: every worker setting is
// documented where a user looks for it, and no example names a model the official SDK warns about.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(path, "utf8");

describe("the worker's settings", () => {
  // Every string setting of the worker's Env (bindings are objects, configured in wrangler.toml).
  const settings = [...read("workers/env.ts").matchAll(/^\s+([A-Z][A-Z0-9_]+)\?: string;/gm)].map(([, name]) => name);

  it("are read from workers/env.ts", () => {
    expect(settings).toEqual(expect.arrayContaining(["UPSTREAM_BASE_URL", "ANTHROPIC_UPSTREAM_BASE_URL", "API_TOKEN"]));
  });

  it("each is in .dev.vars.example (what `npm start` reads once copied to .dev.vars) and in the README's table", () => {
    const example = read(".dev.vars.example");
    const readme = read("README.md");
    expect(settings.filter((s) => !new RegExp(`^# ${s}=`, "m").test(example))).toEqual([]);
    expect(settings.filter((s) => !readme.includes(`\`${s}\``))).toEqual([]);
  });

  it("the README says how npm start is configured: .dev.vars from the example, and PORT", () => {
    const readme = read("README.md");
    expect(readme).toContain("cp .dev.vars.example .dev.vars");
    expect(readme).toMatch(/PORT=\d+ npm start/);
  });
});

describe("install instructions", () => {
  it("name no registry release and no placeholder URL: the tarball from a clone, or a git URL explained", () => {
    const install = read("README.md").split("\n## Install\n")[1].split("\n## ")[0];
    const commands = [...install.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) => block.split("\n")).filter((l) => l.trim());
    expect(commands.filter((c) => /npm (i|install) context-compactor\b|<[^>]*(url|repository)[^>]*>/i.test(c))).toEqual([]);
    expect(commands.some((c) => /npm pack/.test(c))).toBe(true);
    expect(commands.some((c) => /npm install \S+context-compactor-\d+\.\d+\.\d+\.tgz/.test(c))).toBe(true);
    expect(install).toContain(`context-compactor-${JSON.parse(read("package.json")).version}.tgz`);
  });
});

describe("model names in examples", () => {
  // The names @anthropic-ai/sdk warns about on every call (its DEPRECATED_MODELS table).
  const sdk = read("node_modules/@anthropic-ai/sdk/resources/messages/messages.mjs");
  const deprecated = [...(sdk.match(/const DEPRECATED_MODELS = \{([\s\S]*?)\};/)?.[1] ?? "").matchAll(/'([^']+)':/g)].map(([, m]) => m);

  it("the SDK's table is found", () => {
    expect(deprecated).toContain("claude-sonnet-4-5");
  });

  it("no document, and no test that calls through the SDK, names a deprecated model", () => {
    const files = ["README.md", "docs/API.md", "docs/DESIGN.md", ".dev.vars.example", "web-demo/index.html", "workers/env.ts", "test/e2e-anthropic.test.ts"];
    const named = files.flatMap((f) => deprecated.filter((m) => new RegExp(`["'\`]${m}["'\`]`).test(read(f))).map((m) => `${f}: ${m}`));
    expect(named).toEqual([]);
  });
});
