// A pass drafts the middle's one-liners and shrunk arguments (raw, for their sizes) and writes them
// through redaction only where they leave: in the output when pruning is accepted, to a model summarizer.
import { describe, expect, it } from "vitest";
import { compact, estimateTokens, plan, previewPrune, type ChatMessage, type Summarizer } from "../src/index.js";
import { assistant, call, filler, sys, user } from "./support/build.js";

// A token in a vendor's shape: redaction keeps its prefix and masks the rest.
const TOKEN = `ghp_${"a1B2c3D4e5".repeat(4)}`;

// A Secret's data: its line alone says nothing, the manifest around it does.
const DATA = "bm90aGluZyB0byBzZWUgaGVyZQ==";
const MANIFEST = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: web\ndata:\n  error-page: ${DATA}\n`;

/**
 * An agent whose tool outputs name a token on their error line (or show a Secret's manifest, whose
 * error line is its data), and whose long calls carry a token too.
 */
function agent(turns: number, words = 400): ChatMessage[] {
  const m: ChatMessage[] = [sys(), user("Fix the build"), assistant("Looking.")];
  for (let i = 0; i < turns; i++) {
    const args = { command: `deploy --token ${TOKEN} step${i}`, notes: `${filler(60)} ${TOKEN}` };
    const output = i % 2 ? `${MANIFEST}${filler(words)} step${i}` : `${filler(words)}\nError: token ${TOKEN} rejected at step${i}\nexit code: 2`;
    m.push(...call("Bash", args, output));
  }
  m.push(user("and then?"), assistant("next"));
  return m;
}

const text = (x: unknown) => JSON.stringify(x);
/** What a pass wrote: head and tail are kept as they came (secrets and all), the rest is written. */
const written = (input: ChatMessage[], out: ChatMessage[]) => out.filter((x) => !input.includes(x));

describe("drafted stand-ins", () => {
  it("pruning accepted after a draft: what is written is redacted, counted as written, and what a prune without drafts writes", async () => {
    // Over five times the prune target (a pass drafts first), yet pruning alone brings it under.
    const m = agent(40, 2500);
    const o = { contextWindow: 30_000 };
    expect(plan(m, o).tokens.total).toBeGreaterThan(5 * plan(m, o).pruneTarget);
    const r = await compact(m, o);
    expect(r.report.mode).toBe("prune");
    const lines = r.messages.filter((x) => x.role === "tool" && String(x.content).startsWith("[output pruned #"));
    expect(lines.length).toBeGreaterThan(10);
    expect(written(m, r.messages).length).toBeGreaterThan(2 * lines.length - 2); // the lines and the shrunk calls
    expect(text(written(m, r.messages))).not.toContain(TOKEN);
    for (const x of lines) expect(String(x.content)).toMatch(/Error: token ghp_…\[REDACTED\] rejected|error-page: \[REDACTED\]/);
    expect(text(written(m, r.messages))).not.toContain(DATA);
    // Each pruned message is counted as the output has it, and the whole as the report says.
    for (const p of r.report.pruned) expect(p.tokensAfter).toBe(estimateTokens(r.messages[p.index]));
    expect(r.report.tokensAfter).toBe(estimateTokens(r.messages));
    // The same items as pruning that writes through redaction from the start (previewPrune).
    expect(r.report.pruned).toEqual(previewPrune(m, o).items);
  });

  it("summarized: a model summarizer is sent the middle's lines and shrunk arguments written through redaction", async () => {
    let sent = "";
    const model: Summarizer = Object.assign(async (req: Parameters<Summarizer>[0]) => ((sent = text(req.messages)), "## Active task\n- continue"), { label: "spy" });
    const r = await compact(agent(80), { contextWindow: 8_000, summarizer: model }); // given a summarizer, a pass drafts nothing
    expect(r.report.mode).toBe("summary");
    expect(r.report.summary?.source).toBe("model");
    expect(sent).toContain("[output pruned #");
    expect(sent).toMatch(/Error: token ghp_…\[REDACTED\] rejected/);
    expect(sent).toContain("[truncated");
    expect(sent).toContain("error-page: [REDACTED]");
    expect(sent).not.toContain(TOKEN);
    expect(sent).not.toContain(DATA);
  });

  it("summarized by ours: nothing drafted leaves, and the checkpoint quotes each call's values redacted whole", async () => {
    const m = agent(80);
    const r = await compact(m, { contextWindow: 8_000 });
    expect(r.report.mode).toBe("summary");
    expect(r.report.summary?.source).toBe("deterministic");
    const out = text(written(m, r.messages));
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain("[output pruned");
    expect(out).toMatch(/deploy --token ghp_…\[REDACTED\] step\d+/);
    expect(text(r.archive)).not.toContain(TOKEN);
    expect(text(r.archive)).not.toContain(DATA);
  });
});

describe("request bytes", () => {
  it("a request left with no messages is counted as its `[]`", async () => {
    const orphan: ChatMessage = { role: "tool", tool_call_id: "orphan", content: "log line with some output\n".repeat(40) };
    const r = await compact([orphan], { contextWindow: 800, maxRequestBytes: 500 });
    expect(r.messages).toEqual([]);
    expect(r.report.bytes?.after).toBe(2);
  });
});
