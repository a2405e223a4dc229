// The browser demo, driven by Playwright in Debian's Chromium, checked against plan() run in Node.
import { readFileSync, mkdirSync } from "node:fs";
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
const SHOTS = "test-results/demo";
let server: Server;
let browser: Browser;
let page: Page;
let url = "";
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

const failed: string[] = [];

beforeAll(async () => {
  const dist = await buildDemo("test-results/demo-dist"); // never web-demo/dist, which `npm start` may be serving
  server = createServer((req, res) => {
    const path = join(dist, req.url === "/" ? "index.html" : (req.url ?? "").slice(1));
    let body: Buffer;
    try {
      body = readFileSync(path);
    } catch {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("response", (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
  await page.goto(url);
  await page.waitForSelector('[data-testid="strip"] .block');
  expect(errors).toEqual([]);
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

const partitions = (p: Page, strip = "strip") =>
  p.$$eval(`[data-testid="${strip}"] .block`, (els) => els.map((e) => (e as HTMLElement).dataset.partition));

describe("the demo page", () => {
  it("shows the first sample's blocks and numbers exactly as plan() computes them", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const p = plan(messages, { contextWindow: 32_000, maxOutputTokens: 4_000, threshold: 0.75, headMessages: 3, imageTokens: 1600 });
    const parts = await partitions(page);
    expect(parts).toHaveLength(messages.length);
    expect(parts.filter((x) => x === "head")).toHaveLength(p.head.end - p.head.start);
    expect(parts.filter((x) => x === "middle")).toHaveLength(p.middle.end - p.middle.start);
    expect(parts.filter((x) => x === "tail")).toHaveLength(p.tail.end - p.tail.start);
    expect(await page.textContent('[data-testid="total"]')).toBe(fmt(p.tokens.total));
    expect(await page.textContent('[data-testid="threshold"]')).toBe(fmt(p.tokens.threshold));
    const tokens = await page.$$eval('[data-testid="strip"] .block', (els) => els.map((e) => Number((e as HTMLElement).dataset.tokens)));
    expect(tokens).toEqual(p.tokens.perMessage);
    expect(await page.$$eval(".block.latest", (els) => els.map((e) => Number((e as HTMLElement).dataset.index)))).toEqual([p.latestUserIndex]);
    expect(await page.$$(".block.pruned")).not.toHaveLength(0);
    expect(await page.$$(".marker.threshold")).toHaveLength(1);
    await page.screenshot({ path: `${SHOTS}/plan-1280.png`, fullPage: true });
  });

  it("asks for nothing the server does not have (no 404, not even a favicon)", async () => {
    expect(failed).toEqual([]);
    // Headless Chromium skips /favicon.ico, browsers do not: the page must name its own icon.
    expect(await page.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).href)).toMatch(/^data:image\/svg\+xml,/);
  });

  it("reads a block's message on focus, and moves with the arrow keys", async () => {
    await page.focus('[data-testid="strip"] .block');
    expect(await page.textContent('[data-testid="detail"]')).toMatch(/^#0 · /);
    await page.keyboard.press("ArrowRight");
    expect(await page.textContent('[data-testid="detail"]')).toMatch(/^#1 · /);
  });

  it("moves the partitions when a knob moves", async () => {
    const before = await partitions(page);
    await page.fill('[data-testid="knob-window"]', "400000");
    await page.waitForFunction(() => document.querySelector('[data-testid="reason"]')?.textContent?.startsWith("No compaction"));
    const after = await partitions(page);
    expect(after).not.toEqual(before);
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const p = plan(messages, { contextWindow: 400_000, maxOutputTokens: 4_000, threshold: 0.75, headMessages: 3 });
    expect(after.filter((x) => x === "tail")).toHaveLength(p.tail.end - p.tail.start);
    await page.fill('[data-testid="knob-window"]', "32000");
    await page.waitForFunction(() => document.querySelector('[data-testid="reason"]')?.textContent?.startsWith("Compaction due"));
  });

  it("compacts, and shows the result strip, the numbers and the handoff", async () => {
    await page.click('[data-testid="compact"]');
    await page.waitForSelector('[data-testid="result"]:not([hidden])');
    expect(await page.textContent('[data-testid="mode"]')).toBe("summary (deterministic)");
    expect(await page.textContent('[data-testid="handoff"]')).toMatch(/^\[CONTEXT HANDOFF — reference only\]/);
    expect(await page.textContent('[data-testid="stream"]')).toMatch(/## Active task/);
    const parts = await partitions(page, "result-strip");
    expect(parts.filter((x) => x === "handoff")).toHaveLength(1);
    expect(await page.textContent('[data-testid="saved"]')).toMatch(/^\d+ %$/);
    await page.screenshot({ path: `${SHOTS}/compacted-1280.png`, fullPage: true });
  });

  it("shows the handoff's references and opens what each stands for", async () => {
    const refs = await page.$$eval('[data-testid="handoff"] button.ref', (els) => els.map((e) => e.textContent ?? ""));
    expect(refs.length).toBeGreaterThan(10);
    expect(refs.every((r) => /^#\d+$/.test(r))).toBe(true);
    const ref = refs[refs.length - 1];
    await page.click(`[data-testid="handoff"] button.ref >> text="${ref}"`);
    const recalled = (await page.textContent('[data-testid="recalled"]')) ?? "";
    expect(recalled.startsWith(`${ref} `)).toBe(true);
    expect(recalled.length).toBeGreaterThan(ref.length + 5);
  });

  it("the Compact button does what the plan says; forcing is a visible choice", async () => {
    await page.fill('[data-testid="knob-window"]', "400000");
    await page.waitForFunction(() => document.querySelector('[data-testid="reason"]')?.textContent?.startsWith("No compaction"));
    expect(await page.textContent('[data-testid="compact"]')).toBe("Compact (not due: nothing will change)");
    await page.click('[data-testid="compact"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="mode"]')?.textContent === "noop");
    await page.check('[data-testid="force"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="compact"]')?.textContent === "Compact anyway (forced)");
    await page.click('[data-testid="compact"]');
    await page.waitForFunction(() => /^(prune|summary)/.test(document.querySelector('[data-testid="mode"]')?.textContent ?? ""));
    await page.uncheck('[data-testid="force"]');
    await page.fill('[data-testid="knob-window"]', "32000");
    await page.waitForFunction(() => document.querySelector('[data-testid="compact"]')?.textContent === "Compact");
  });

  it("shows the handoff, never the system prompt that quotes its marker", async () => {
    await page.selectOption('[data-testid="sample"]', "2"); // SWE-agent: it has a system prompt
    await page.waitForFunction(() => document.querySelector('[data-testid="dialect"]')?.textContent?.startsWith("26 messages"));
    await page.fill('[data-testid="knob-window"]', "12000");
    await page.check('[data-testid="force"]');
    await page.click('[data-testid="compact"]');
    await page.waitForSelector('[data-testid="result"]:not([hidden])');
    await page.waitForFunction(() => document.querySelector('[data-testid="mode"]')?.textContent?.startsWith("summary"));
    const handoff = (await page.textContent('[data-testid="handoff"]')) ?? "";
    expect(handoff).toMatch(/^\[CONTEXT HANDOFF — reference only\]/);
    expect(handoff).not.toContain("[context-compactor] Earlier turns");
    await page.uncheck('[data-testid="force"]');
    await page.fill('[data-testid="knob-window"]', "32000");
  });

  it("loads another format (Anthropic) from a file and says which it is", async () => {
    const anthropic = [
      { role: "user", content: "Run the tests" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm test" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
    ];
    await page.setInputFiles('[data-testid="file"]', { name: "a.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ messages: anthropic, system: "be brief" })) });
    await page.waitForFunction(() => document.querySelector('[data-testid="dialect"]')?.textContent?.includes("Anthropic"));
    expect(await partitions(page)).toHaveLength(3);
  });

  it("explains a malformed file clearly", async () => {
    await page.setInputFiles('[data-testid="file"]', { name: "broken.json", mimeType: "application/json", buffer: Buffer.from("[{ not json") });
    await page.waitForSelector('[data-testid="error"]:not([hidden])');
    expect(await page.textContent('[data-testid="error"]')).toMatch(/^broken\.json is not valid JSON/);
    await page.setInputFiles('[data-testid="file"]', { name: "bad.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify([{ role: "user", content: "x" }, { role: "robot" }])) });
    await page.waitForFunction(() => document.querySelector('[data-testid="error"]')?.textContent?.includes("messages[1]"));
    expect(await page.textContent('[data-testid="error"]')).toMatch(/messages\[1\]: role: unknown role "robot"/);
    await page.screenshot({ path: `${SHOTS}/error-1280.png` });
  });

  it("stays usable at phone width", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(url);
    await phone.waitForSelector('[data-testid="strip"] .block');
    await phone.screenshot({ path: `${SHOTS}/plan-phone.png`, fullPage: true });
    const wide = await phone.evaluate(() =>
      [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((e) => e.id || e.className || e.tagName).slice(0, 5),
    );
    expect(wide).toEqual([]);
    await phone.close();
  });
});
