// The demo's pinning (issue 30 item 2), driven by Playwright in Debian's Chromium: a click pins a
// block, the plan keeps it (with its tool pair) as plan() with the same pin does, a second click unpins.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plan } from "../src/index.js";
import { buildDemo } from "../tools/build-demo.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../vitest.browser.config.js";
import { trajectory } from "./support/fixtures.js";

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const dist = await buildDemo("test-results/demo-pin-dist");
  server = createServer((req, res) => {
    const path = join(dist, req.url === "/" ? "index.html" : (req.url ?? "").slice(1));
    try {
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForSelector('[data-testid="strip"] .block');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

const classes = (p: Page) => p.$$eval('[data-testid="strip"] .block', (els) => els.map((e) => ({ i: Number((e as HTMLElement).dataset.index), pinned: e.classList.contains("pinned"), pair: e.classList.contains("pinned-pair"), part: (e as HTMLElement).dataset.partition })));

describe("pinning in the demo", () => {
  it("a click pins a middle message (its tool pair marked too) exactly as plan() keeps it; a second click unpins", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const opts = { contextWindow: 32_000, maxOutputTokens: 4_000, threshold: 0.75, headMessages: 3, imageTokens: 1600 };
    const before = plan(messages, opts);
    // A tool result in the middle: pinning it keeps its call too.
    const target = messages.findIndex((m, i) => i >= before.middle.start && i < before.middle.end && m.role === "tool");
    expect(target).toBeGreaterThan(0);
    const expected = plan(messages, { ...opts, pin: (_m, i) => i === target });
    await page.click(`[data-testid="strip"] .block[data-index="${target}"]`);
    await page.waitForSelector(`[data-testid="strip"] .block.pinned[data-index="${target}"]`);
    const marked = await classes(page);
    expect(marked.filter((b) => b.pinned).map((b) => b.i)).toEqual([target]);
    expect(marked.filter((b) => b.pinned || b.pair).map((b) => b.i)).toEqual(expected.userPinned);
    expect(expected.userPinned!.length).toBeGreaterThan(1);
    expect(await page.textContent('[data-testid="pinned"]')).toContain(`${expected.userPinned!.length} msgs`);
    expect(await page.getAttribute(`[data-testid="strip"] .block[data-index="${target}"]`, "aria-pressed")).toBe("true");
    await page.click(`[data-testid="strip"] .block[data-index="${target}"]`);
    await page.waitForSelector(`[data-testid="strip"] .block[data-index="${target}"]:not(.pinned)`);
    expect((await classes(page)).some((b) => b.pinned || b.pair)).toBe(false);
    expect(await page.textContent('[data-testid="pinned"]')).toContain("none");
  });

  it("a compaction keeps the pinned message (pinned with the P key)", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const before = plan(messages, { contextWindow: 32_000, maxOutputTokens: 4_000, threshold: 0.75, headMessages: 3, imageTokens: 1600 });
    const target = messages.findIndex((m, i) => i > before.middle.start + 2 && i < before.middle.end && m.role === "user" && typeof m.content === "string");
    const at = target > 0 ? target : before.middle.start + 1;
    await page.focus(`[data-testid="strip"] .block[data-index="${at}"]`);
    await page.keyboard.press("p");
    await page.waitForSelector(`[data-testid="strip"] .block.pinned[data-index="${at}"]`);
    await page.click('[data-testid="compact"]');
    await page.waitForSelector('[data-testid="result"]:not([hidden])');
    expect(await page.textContent('[data-testid="mode"]')).not.toContain("noop");
    expect(await page.textContent('[data-testid="result-pinned"]')).toContain(`#${at}`);
    // The pinned message is in the compacted strip, as the same words.
    const words = String(messages[at].content).slice(0, 40);
    const texts = await page.$$eval('[data-testid="result-strip"] .block', (els) => els.map((e) => (e.dispatchEvent(new Event("mouseenter")), document.querySelector('[data-testid="detail"]')?.textContent ?? "")));
    expect(texts.some((t) => t.includes(words))).toBe(true);
  });
});
