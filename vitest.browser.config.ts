// The portable suite inside Chromium (Debian's, never a downloaded browser) through vitest browser mode.
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"];

export default defineConfig({
  test: {
    include: ["test/portable/vitest.test.ts", "test/browser/**/*.test.ts"],
    testTimeout: 120_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } }),
      instances: [{ browser: "chromium" }],
    },
  },
});
