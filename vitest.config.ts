import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/portable/deno.test.ts", "test/workers/**", "test/worker/**", "test/browser/**", "test/agents/**", "node_modules/**"],
    testTimeout: 60_000,
  },
});
