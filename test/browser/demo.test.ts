/// <reference types="vite/client" />
// The demo explains itself, in Chromium: a legend for every mark the strips draw, a line under each
// figure, nothing of the previous transcript left after loading another, an Anthropic request body
// read as Anthropic, and a model answer that is no checkpoint refused with the reason on the page.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { page } from "vitest/browser";
import html from "../../web-demo/index.html?raw";
import "../../web-demo/style.css";

const $ = <T extends HTMLElement = HTMLElement>(testid: string) => document.querySelector(`[data-testid="${testid}"]`) as T;
const visible = (el: Element | null) => !!el && el.checkVisibility() && el.getBoundingClientRect().width > 0;

beforeAll(async () => {
  await page.viewport(1280, 900);
  document.body.innerHTML = html.slice(html.indexOf("<body>") + 6, html.indexOf("</body>")).replace(/<script[\s\S]*?<\/script>/g, "");
  await import("../../web-demo/main.js");
  await vi.waitFor(() => expect(document.querySelectorAll('[data-testid="strip"] .block').length).toBeGreaterThan(0));
});

afterEach(() => void vi.restoreAllMocks());

/** Loads a file through the file input, as a user picking one does. */
function openFile(name: string, data: unknown) {
  const input = $<HTMLInputElement>("file");
  const files = new DataTransfer();
  files.items.add(new File([JSON.stringify(data)], name, { type: "application/json" }));
  input.files = files.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

function paste(data: unknown) {
  $<HTMLTextAreaElement>("paste").value = JSON.stringify(data);
  $("load-paste").click();
}

async function compactNow() {
  $("result").hidden = true;
  if (!$<HTMLInputElement>("force").checked) $("force").click();
  $("compact").click();
  await vi.waitFor(() => expect($("result").hidden).toBe(false), { timeout: 20_000 });
}

const chat = [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: "Rename the config loader." },
  { role: "assistant", content: "Renamed it in src/config.ts." },
  { role: "user", content: "Now run the tests." },
];

describe("the legend", () => {
  it("names every mark the plan strip draws, each visible with what it means; the screenshot is saved", async () => {
    const legend = $("legend");
    const entries = [...legend.querySelectorAll<HTMLElement>("li[data-mark]")];
    const marks = entries.map((e) => e.dataset.mark);
    expect(marks).toEqual(["head", "middle", "tail", "latest", "pinned", "pruned", "user", "tool", "threshold", "runway", "window"]);
    for (const e of entries) {
      expect(visible(e), e.dataset.mark).toBe(true);
      const sample = e.querySelector(".sample")!;
      expect(visible(sample), `${e.dataset.mark}'s sample`).toBe(true);
      expect(sample.getBoundingClientRect().height, `${e.dataset.mark}'s sample is the size of a mark`).toBeLessThan(20);
      expect(e.textContent!.length, e.dataset.mark).toBeGreaterThan(30); // a name and what it means
    }
    expect(legend.querySelector('[data-mark="latest"]')!.textContent).toMatch(/▲latest request.*pinned even when it falls in the middle/);
    expect(legend.querySelector('[data-mark="pruned"]')!.textContent).toMatch(/^✂pruned by prune aloneoutputs/);
    expect(legend.querySelector('[data-mark="runway"]')!.textContent).toMatch(/^prune targetprune alone/);

    // What the strip draws is what the legend names: block partitions and marks, and the lines.
    const strip = $("strip");
    const drawn = new Set<string>();
    for (const b of strip.querySelectorAll<HTMLElement>(".block")) {
      drawn.add(b.dataset.partition!);
      for (const c of ["latest", "pruned"]) if (b.classList.contains(c)) drawn.add(c);
    }
    for (const m of strip.querySelectorAll(".marker")) drawn.add([...m.classList].find((c) => c !== "marker")!);
    expect([...drawn].filter((d) => !marks.includes(d))).toEqual([]);
    expect(drawn).toEqual(new Set(["head", "middle", "tail", "latest", "pruned", "threshold", "runway", "window"]));

    const shot = await page.screenshot({ element: legend, path: "../../test-results/demo/legend.png", base64: true });
    const png = Uint8Array.from(atob(shot.base64), (c) => c.charCodeAt(0));
    expect([...png.slice(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    const view = new DataView(png.buffer);
    expect(view.getUint32(16)).toBeGreaterThan(300); // width: the entries side by side
    expect(view.getUint32(20)).toBeGreaterThan(40); // height: more than one row
    expect(png.length).toBeGreaterThan(2_000);
  });

  it("names the pin outline a click draws, and the figure it adds", async () => {
    $("strip").querySelectorAll<HTMLElement>(".block")[10].click();
    await vi.waitFor(() => expect($("strip").querySelector(".block.pinned")).not.toBeNull());
    expect(visible($("legend").querySelector('[data-mark="pinned"]'))).toBe(true);
    expect($("pinned").parentElement!.querySelector(".explain")!.textContent).toMatch(/pinned with a click/);
    $("strip").querySelector<HTMLElement>(".block.pinned")!.click();
    await vi.waitFor(() => expect($("strip").querySelector(".block.pinned")).toBeNull());
  });

  it("the compacted transcript has its own: the handoff block among them", async () => {
    await compactNow();
    const legend = $("result-legend");
    expect([...legend.querySelectorAll<HTMLElement>("li")].map((e) => e.dataset.mark)).toEqual(["head", "handoff", "rewritten", "tail"]);
    expect(visible(legend.querySelector('[data-mark="handoff"]'))).toBe(true);
    for (const sample of legend.querySelectorAll(".sample")) expect(sample.getBoundingClientRect().height).toBeLessThan(20);
    const partitions = new Set([...$("result-strip").querySelectorAll<HTMLElement>(".block")].map((b) => b.dataset.partition));
    expect(partitions.has("handoff")).toBe(true);
  });
});

describe("each figure says what it is", () => {
  it("in the plan and in the result, one visible line under every number", async () => {
    await compactNow();
    for (const list of ["stats", "result-stats"]) {
      const figures = [...$(list).querySelectorAll<HTMLElement>("dd[data-testid]")];
      expect(figures.length).toBeGreaterThan(4);
      for (const dd of figures) {
        const line = dd.parentElement!.querySelector(".explain");
        expect(visible(line), dd.dataset.testid).toBe(true);
        expect(line!.textContent!.length, dd.dataset.testid).toBeGreaterThan(20);
      }
    }
    const line = (id: string) => $(id).parentElement!.querySelector(".explain")!.textContent;
    expect(line("prune")).toMatch(/pruning old tool outputs alone/);
    expect(line("prune-target")).toMatch(/threshold − runway/);
    expect(line("first-changed")).toMatch(/prompt cache/);
  });
});

describe("loading another transcript", () => {
  it("leaves nothing of the previous one: the detail panel and the Sample dropdown start over", async () => {
    const select = $<HTMLSelectElement>("sample");
    select.value = "1";
    select.dispatchEvent(new Event("change"));
    $("strip").querySelectorAll<HTMLElement>(".block")[5].focus();
    expect($("detail").textContent).toMatch(/^#5 · /);

    openFile("my-session.json", chat);
    await vi.waitFor(() => expect($("dialect").textContent).toMatch(/^4 messages · OpenAI Chat format/));
    expect($("detail").textContent).toBe("Hover or focus a block to read its message.");
    expect(select.selectedOptions[0].textContent).toBe("my-session.json (loaded)");
    expect($("result").hidden).toBe(true);

    // Back to a sample: the placeholder goes, the sample is named.
    select.value = "2";
    select.dispatchEvent(new Event("change"));
    expect(select.querySelector("option[data-loaded]")).toBeNull();
    expect($("dialect").textContent).toMatch(/OpenAI Chat format/);
    expect($("detail").textContent).toBe("Hover or focus a block to read its message.");
  });
});

describe("pasted JSON", () => {
  it("{system, messages} with text blocks only is Anthropic, and its system prompt is kept", () => {
    paste({
      system: "You are a coding agent.",
      messages: [
        { role: "user", content: [{ type: "text", text: "Rename the config loader." }] },
        { role: "assistant", content: [{ type: "text", text: "Done." }] },
        { role: "user", content: "Now run the tests." },
      ],
    });
    expect($("error").hidden).toBe(true);
    expect($("dialect").textContent).toBe("3 messages · Anthropic format · system prompt kept");
    expect($<HTMLSelectElement>("sample").selectedOptions[0].textContent).toBe("the pasted JSON (loaded)");
  });

  it("a separate system beside messages of another format is refused in words, never dropped", () => {
    paste({ system: "Be brief.", messages: [{ role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "f", output: { type: "text", value: "ok" } }] }] });
    expect($("error").hidden).toBe(false);
    expect($("error").textContent).toMatch(/a separate "system" belongs to Anthropic Messages, but these messages are AI SDK/);
  });
});

describe("a model that answers no checkpoint", () => {
  it("is refused: the deterministic checkpoint is the handoff, and the page says why", async () => {
    const select = $<HTMLSelectElement>("sample");
    select.value = "0";
    select.dispatchEvent(new Event("change"));
    const real = globalThis.fetch;
    const sent: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.startsWith("http://fake.test/")) return real(input, init);
      sent.push(url);
      const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      return new Response(`${chunk({ content: "Hello from fake" }, null)}${chunk({}, "stop")}data: [DONE]\n\n`, { headers: { "content-type": "text/event-stream" } });
    });
    const summarizer = $<HTMLSelectElement>("summarizer");
    summarizer.value = "openai";
    summarizer.dispatchEvent(new Event("change"));
    (document.getElementById("baseURL") as HTMLInputElement).value = "http://fake.test/v1";
    await compactNow();
    expect(sent).toEqual(["http://fake.test/v1/chat/completions"]);
    expect($("mode").textContent).toBe("fallback (deterministic)");
    const note = $("summary-note");
    expect(visible(note)).toBe(true);
    expect(note.textContent).toMatch(/^The model's summary was not used \(openai:gpt-5\.4-mini: malformed — no checkpoint section \(## Active task, …\) in "Hello from fake"\): the deterministic checkpoint, written locally, is the handoff instead\.$/);
    expect($("handoff").textContent).not.toContain("Hello from fake");
    expect($("handoff").textContent).toMatch(/Active task/);
    summarizer.value = "deterministic";
    summarizer.dispatchEvent(new Event("change"));
    await compactNow();
    expect($("summary-note").hidden).toBe(true);
  });
});
