// The real agents (Claude Code, Codex, the OpenAI Agents SDK, opencode) through `wrangler dev` to a
// scripted upstream: one file, run alone, agents one after another (each test starts real CLIs).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/agents/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
