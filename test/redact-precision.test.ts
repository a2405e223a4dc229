// Precision where it matters: every span redaction removes from the fixture transcripts (real agent
// sessions, not secrets corpora) is listed and must be a reviewed, real secret. None of the 17 holds
// one: the list is empty, and every span that appears must be reviewed and added here, or fixed.
import { describe, expect, it } from "vitest";
import { trajectories } from "./support/fixtures.js";
import { spans, strings, type Span } from "./support/spans.js";

/** Spans reviewed as real secrets, by fixture: none so far. */
const REVIEWED: Record<string, string[]> = {};

describe("redaction on the fixture transcripts", () => {
  const all = trajectories();

  it("reads all 17 fixtures", () => {
    expect(all.length).toBe(17);
  });

  it("removes nothing but reviewed secrets; every span is listed", () => {
    const found: Record<string, Span[]> = {};
    let chars = 0;
    for (const t of all)
      for (const s of strings(t.messages)) {
        chars += s.length;
        for (const span of spans(s)) (found[t.name] ??= []).push(span);
      }
    const listed = Object.entries(found).flatMap(([name, list]) => list.map((s) => `${name}: ${s.shape}: ${JSON.stringify(s.text)}`));
    console.log(`${listed.length} spans in ${(chars / 1e6).toFixed(2)} MB of fixture strings:\n  ${listed.join("\n  ") || "none"}`);
    expect(Object.fromEntries(Object.entries(found).map(([name, list]) => [name, list.map((s) => s.text)]))).toEqual(REVIEWED);
  });

  it("lists a planted secret with the shape that removed it (the listing can fail)", () => {
    const text = 'export DB=ok\nAWS_SECRET_ACCESS_KEY="Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C"\nghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE done';
    const found = spans(text);
    // a value is masked whole; a vendor's documented prefix stays for the reader
    expect(found.map((s) => s.text)).toEqual(["Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C", "R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE"]);
    for (const s of found) expect(s.shape.length).toBeGreaterThan(0);
  });
});
