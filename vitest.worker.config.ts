// The edge worker's own tests, inside workerd with the real wrangler.toml (Durable Objects, assets).
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { API_TOKEN: "test-token", MAX_BODY_BYTES: "2000000" } },
    }),
  ],
  test: {
    include: ["test/worker/**/*.test.ts"],
    testTimeout: 60_000,
  },
});
