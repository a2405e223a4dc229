// Every string that leaves is redacted from its whole text before any cut: one-liners of pruned
// output, shrunk arguments, tool-call names, failure messages (report, warnings, events), focus and
// previous summary. Each case places a secret where a cut falls, at every offset around it.
import { describe, expect, it } from "vitest";
import { compact, type ChatMessage, type CompactionEvent, type SummarizeRequest } from "../src/index.js";
import { describeCall } from "../src/facts/call.js";
import { prunedOutputLine, shrinkArguments } from "../src/prune/stand-ins.js";
import { redactMessage, redactor as core } from "../src/redact/index.js";
import { windowed } from "../src/redact/window.js";
import { trajectory } from "./support/fixtures.js";
import { completed } from "../src/redact/more.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(core);

/** Redaction with its window functions, as pruning receives it. */
const redactor = windowed(core);

const AWS_SECRET = "q8Vd2LmXz4Rt7Yu1Io3Pa8Sd5Fg0Hj4Kl7Zx2Cw9";
const HEX_KEY = "3f9a2c7e1b4d8f60a5c3e9b17d2f4a86";
const K8S = `apiVersion: v1\ndata:\n  password: cGFzc3dvcmQxMjM0NTY3OA==\n  user: YWRtaW5pc3RyYXRvcg==\n${"metadata:\n  labels:\n    app: web\n".repeat(8)}kind: Secret\n`;

/** Any 10 characters of `secret` past its first 6 (a vendor prefix may stay) found in `text`. */
function pieces(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let i = 6; i + 10 <= secret.length; i++) if (text.includes(secret.slice(i, i + 10))) found.push(secret.slice(i, i + 10));
  return found;
}

describe("one-liners of pruned output", () => {
  it("quote no piece of a secret, wherever the clip falls in it", () => {
    for (let pad = 60; pad <= 200; pad += 3) {
      const output = `Error: ${"x".repeat(pad)} {"SecretAccessKey":"${AWS_SECRET}","Region":"eu-west-1"}\nmore`;
      const line = prunedOutputLine("Bash", output, 0, redactor);
      expect(pieces(line, AWS_SECRET), line).toEqual([]);
    }
  });

  it("describe a call without a secret in its name or a clipped argument", () => {
    expect(pieces(describeCall(`deploy_${AWS_SECRET}`, undefined, redactor), AWS_SECRET)).toEqual([]);
    for (let pad = 60; pad <= 130; pad += 3) {
      const call = describeCall("Bash", JSON.stringify({ command: `${"y".repeat(pad)} --password=${AWS_SECRET}` }), redactor);
      expect(pieces(call, AWS_SECRET), call).toEqual([]);
    }
  });
});

describe("shrunk arguments", () => {
  it("redact a long leaf whole before cutting it: context after the cut still counts", () => {
    const shrunk = shrinkArguments(JSON.stringify({ content: K8S }), redactor);
    expect(shrunk).toBeDefined();
    expect(shrunk).not.toContain("cGFzc3dvcmQxMjM0NTY3OA");
  });

  it("never keep a piece of a secret the cut falls in", () => {
    for (let pad = 150; pad <= 210; pad += 2) {
      const shrunk = shrinkArguments(JSON.stringify({ content: `${"z ".repeat(pad >> 1)}token: "${AWS_SECRET}" ${"w ".repeat(200)}` }), redactor)!;
      expect(pieces(shrunk, AWS_SECRET), shrunk).toEqual([]);
    }
  });
});

describe("error messages", () => {
  it("redactMessage masks a key the provider echoes, even a bare 32-hex one, then caps the text", () => {
    const message = `Incorrect API key provided: ${HEX_KEY}. You can find your API key at https://example.test/keys.`;
    const out = redactMessage(message);
    expect(out).not.toContain(HEX_KEY.slice(6));
    expect(out).toContain("Incorrect API key provided:");
    expect(out).toContain("https://example.test/keys");
    // redacted from the whole text, then capped
    const long = `${"a ".repeat(60_000)}Authorization: Bearer ${AWS_SECRET}`;
    expect(redactMessage(long).length).toBeLessThanOrEqual(500);
    const straddling = `${"b ".repeat(49_995)}password=${AWS_SECRET}`;
    expect(pieces(redactMessage(straddling, 200_000), AWS_SECRET)).toEqual([]);
  });

  it("keep ids, UUIDs and paths a reader needs", () => {
    const text = "request req_011CY1DV6ZcyGeWGTb4kSw2L (5eb4223e-5008-46e5-be67-c7b8f2732305) failed reading /usr/lib/x86_64-linux-gnu/libssl.so.3";
    expect(redactMessage(text)).toBe(text);
  });
});

describe("a compaction pass", () => {
  const WINDOW = 16_000;
  /** A real transcript with a secret in a middle tool call's name. */
  function input(): ChatMessage[] {
    const { messages } = trajectory("claude-code-spotter__4d5611e5-241a");
    let named = false;
    return messages.map((m, i) => {
      if (named || i < messages.length / 3 || !m.tool_calls?.length) return m;
      named = true;
      return { ...m, tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, name: `fetch_${AWS_SECRET}` } })) };
    });
  }

  it("sends no tool-call name with a secret to a summarizer, and reports a failing provider's message redacted everywhere", async () => {
    const events: CompactionEvent[] = [];
    const seen: SummarizeRequest[] = [];
    const failing = Object.assign(
      async (req: SummarizeRequest) => {
        seen.push(req);
        throw new Error(`401 Incorrect API key provided: ${HEX_KEY}; request was ${JSON.stringify(req.messages).slice(0, 50)}`);
      },
      { label: "provider" },
    );
    const r = await compact(input(), { contextWindow: WINDOW, summarizer: failing, focus: `remember AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, onEvent: (e) => events.push(e) });
    expect(seen).toHaveLength(1);
    const sent = JSON.stringify(seen[0]);
    expect(sent).toContain("[REDACTED]"); // the name is masked whole: its fetch_ is no vendor's public prefix
    expect(pieces(sent, AWS_SECRET), sent.slice(sent.indexOf("mXz4Rt7Yu1") - 200, sent.indexOf("mXz4Rt7Yu1") + 50)).toEqual([]);
    const everywhere = JSON.stringify([r.report, r.state, events, r.messages.filter((m) => !input().some((x) => JSON.stringify(x) === JSON.stringify(m)))]);
    expect(r.report.failures[0]?.message).toContain("Incorrect API key provided");
    expect(everywhere).not.toContain(HEX_KEY.slice(6));
    const at = everywhere.indexOf("mXz4Rt7Yu1");
    expect(pieces(everywhere, AWS_SECRET), everywhere.slice(at - 300, at + 60)).toEqual([]);
  });
});
