// Known values (issue 26 item 3): `secrets: string[]` redacts exact values wherever they appear, raw,
// base64, URL-encoded or JSON-escaped, whatever their shape; a pass carries none of them on (messages
// it writes, the archive, a summarizer's request). Masking gives nothing away: no 4 characters of a
// secret survive beyond a documented vendor prefix.
import { describe, expect, it } from "vitest";
import { compact, plan, type ChatMessage, type SummarizeRequest, type Summarizer } from "../src/index.js";
import { redactor } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { trajectory } from "./support/fixtures.js";

/** A value no shape knows: words, as an app's own key may be. */
const KNOWN = "plain words make a key";
const KNOWN2 = "tulip.Orchard.lamp";

/** Pieces of 4 characters of `secret` in `text` that `rest` (the material around it) does not explain. */
const pieces = (text: string, secret: string, rest = "") =>
  Array.from({ length: secret.length - 3 }, (_, i) => secret.slice(i, i + 4)).filter((p) => !/\s/.test(p) && text.includes(p) && !rest.includes(p));

describe("known values", () => {
  it("are redacted raw, base64, URL-encoded and JSON-escaped", () => {
    const r = completed(redactor, [KNOWN, KNOWN2, "ab"]);
    const text = [`note: ${KNOWN}.`, `b64 ${btoa(KNOWN)} and ${btoa(KNOWN2).replace(/=+$/, "")}`, `q=${encodeURIComponent(KNOWN)}&x=1`, JSON.stringify({ v: `"${KNOWN2}"\n` }), "ab stays"].join("\n");
    const out = r.redact(text);
    expect(pieces(out, KNOWN2), out).toEqual([]);
    for (const form of [KNOWN, btoa(KNOWN), encodeURIComponent(KNOWN)]) expect(out).not.toContain(form);
    expect(out).toContain("ab stays"); // under 4 characters: too common to mask
  });

  it("leave no piece in what a pass writes, its archive or a summarizer's request", async () => {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    const p = plan(messages, { contextWindow: 16_000 });
    const at = (p.middle.start + p.middle.end) >> 1;
    const input: ChatMessage[] = messages.map((m, i) => (i === at ? { role: "user", content: `deploy with ${KNOWN2} and ${btoa(KNOWN2)}` } : m));
    const seen: SummarizeRequest[] = [];
    const summarizer: Summarizer = Object.assign(async (req: SummarizeRequest) => (seen.push(req), "## Active task\n- go on"), { label: "model" });
    const r = await compact(input, { contextWindow: 16_000, summarizer, secrets: [KNOWN2] });
    expect(r.report.mode).not.toBe("noop");
    const rest = JSON.stringify(messages);
    const written = JSON.stringify(r.messages.filter((m) => !input.includes(m)));
    expect(pieces(written, KNOWN2, rest)).toEqual([]);
    expect(pieces(JSON.stringify(r.archive ?? {}), KNOWN2, rest)).toEqual([]);
    expect(pieces(JSON.stringify(seen.map((s) => s.messages)), KNOWN2, rest)).toEqual([]);
    expect(JSON.stringify([r.messages, r.archive, seen.map((s) => s.messages)])).toContain("[REDACTED]");
  });

  it("are checked as options: an array of strings", async () => {
    await expect(compact([{ role: "user", content: "hi" }], { contextWindow: 16_000, secrets: "x" as unknown as string[] })).rejects.toThrow(/secrets/);
  });
});
