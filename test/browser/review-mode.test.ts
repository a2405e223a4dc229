// The demo's Review mode (web-demo/review.ts) in Chromium: the handoff is an editable text beside what
// it replaces; Discard applies nothing; Accept applies it, an edit redacted and checked like a model's.
import { describe, expect, it } from "vitest";
import { mountReview, type ReviewInput } from "../../web-demo/review.js";
import { openAIChat, type ChatMessage, type CompactResult } from "../../src/index.js";
import { failingBuild as failing } from "../support/build.js";

function mounted(messages = failing()) {
  const root = document.createElement("div");
  document.body.append(root);
  const accepted: CompactResult<unknown>[] = [];
  const input = (): ReviewInput => ({ messages, dialect: "openai", options: { contextWindow: 4_000, force: true, dialect: openAIChat } });
  mountReview(root, input, (r) => accepted.push(r));
  const q = <T extends HTMLElement>(id: string) => root.querySelector<T>(`[data-testid="${id}"]`)!;
  return { root, q, accepted, messages };
}

async function proposed(q: ReturnType<typeof mounted>["q"]) {
  q<HTMLButtonElement>("review-propose").click();
  await expect.poll(() => q("review-panel").hidden).toBe(false);
}

describe("Review mode", () => {
  it("shows the handoff as an editable text beside the messages it replaces, and the cache economics", async () => {
    const { q, messages } = mounted();
    await proposed(q);
    const editor = q<HTMLTextAreaElement>("review-handoff");
    expect(editor.disabled).toBe(false);
    expect(editor.value).toMatch(/^## Active task/);
    const replaced = [...q("review-replaced").querySelectorAll("li")];
    expect(replaced.length).toBeGreaterThan(10);
    expect(replaced[0].textContent).toContain(String((messages[Number(replaced[0].getAttribute("value"))] as ChatMessage).content).slice(0, 20));
    const report = q("review-report").textContent!;
    expect(report).toMatch(/Mode: summary/);
    expect(report).toMatch(/Cache kept: \d+ messages, [\d,]+ tokens/);
    expect(report).toMatch(/Next request: [\d,]+ input-token equivalents at read ×0\.1, write ×1; sent as it was: [\d,]+/);
    expect(q("review-status").textContent).toMatch(/Nothing is applied until you accept/);
  });

  it("Discard applies nothing", async () => {
    const { q, accepted } = mounted();
    await proposed(q);
    q<HTMLButtonElement>("review-discard").click();
    expect(q("review-panel").hidden).toBe(true);
    expect(q("review-status").textContent).toMatch(/Discarded/);
    expect(accepted).toEqual([]);
  });

  it("Accept with an edit: the edit is redacted, and what it lost of the unresolved errors is appended", async () => {
    const { q, accepted } = mounted();
    await proposed(q);
    const editor = q<HTMLTextAreaElement>("review-handoff");
    editor.value = "## Active task\n- ship it with aws_access_key_id = AKIAZ7Q3R4M5N6P7W2XY";
    editor.dispatchEvent(new Event("input", { bubbles: true }));
    q<HTMLButtonElement>("review-accept").click();
    expect(accepted).toHaveLength(1);
    expect(q("review-status").textContent).toBe("Accepted with your edit.");
    const final = q("review-final").textContent!;
    expect(final).toMatch(/^## Active task\n- ship it with aws_access_key_id = AKIA…\[REDACTED\]/);
    expect(final).toContain("What the summary above missed, from the ledgers of the same turns:");
    expect(final).toMatch(/## Blocked\n- `make build-\d+`: "src\/x\.c:\d+: error/);
    expect(JSON.stringify(accepted[0])).not.toContain("AKIAZ7Q3R4M5N6P7W2XY");
    expect(q("review-accepted").textContent).toMatch(/Mode: summary \(deterministic, edited\)/);
  });

  it("Accept unedited applies the pass as proposed", async () => {
    const { q, accepted } = mounted();
    await proposed(q);
    const shown = q<HTMLTextAreaElement>("review-handoff").value;
    q<HTMLButtonElement>("review-accept").click();
    expect(q("review-status").textContent).toBe("Accepted.");
    expect(accepted[0].state.previousSummary).toBe(shown);
  });
});
