// The portable suite inside workerd, the Workers runtime, through @cloudflare/vitest-pool-workers.
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./test/workers/wrangler.toml" } })],
  test: {
    include: ["test/portable/vitest.test.ts", "test/workers/**/*.test.ts"],
    testTimeout: 120_000,
  },
});
