// DESIGN.md's invariants over generated transcripts and option sets.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HANDOFF_END, HANDOFF_PREFIX, compact, plan, type ChatMessage, type CompactorState, type Summarizer } from "../src/index.js";
import { options, transcript } from "./support/arbitraries.js";
import { violations } from "./support/invariants.js";
import { templateValidity } from "./support/validity.js";

async function check(input: ChatMessage[], opts: Parameters<typeof plan>[1]) {
  const snapshot = JSON.stringify(input);
  const p = plan(input, opts);
  const result = await compact(input, opts);
  // Strict chat templates (tool flow skipped) see the seam alternate too, or the report says it cannot.
  const warned = result.report.warnings.some((w) => w.startsWith("strict chat templates"));
  const template = result.report.mode === "noop" ? [] : templateValidity(input, result.messages as ChatMessage[], p.seam === "merge" ? p.tail.start : -1);
  if (warned !== (template.length > 0)) template.push(`template clash ${warned ? "warned" : "not warned"}`);
  else template.length = 0;
  const userText = (ms: ChatMessage[]) => ms.some((m) => m.role === "user" && (typeof m.content === "string" ? m.content : (m.content ?? []).map((x) => (x.type === "text" ? (x as { text: string }).text : "")).join("")).trim() !== "");
  const wroteHandoff = result.report.mode === "summary" || result.report.mode === "fallback";
  const zeroUser = input.some((m) => m.role === "user") && (wroteHandoff || userText(input)) && !userText(result.messages as ChatMessage[]) && !result.report.warnings.some((w) => w.startsWith("no user message with text")) ? ["the output has no user message with text, unreported"] : [];
  return [...violations({ input, snapshot, plan: p, result }), ...template, ...zeroUser];
}

describe("invariants over generated transcripts", () => {
  it("hold for every transcript and option set (deterministic summarizer)", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, async (input, opts) => {
        expect(await check(input, opts)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it("hold when every summarizer fails (marker path)", async () => {
    const broken: Summarizer = async () => {
      throw new Error("boom");
    };
    broken.label = "deterministic"; // replaces the last resort too
    await fc.assert(
      fc.asyncProperty(transcript, options, async (input, opts) => {
        expect(await check(input, { ...opts, summarizer: broken })).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("under the threshold compact returns the very same array", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, async (input) => {
        const result = await compact(input, { contextWindow: 10_000_000 });
        expect(result.messages).toBe(input);
        expect(result.report.mode).toBe("noop");
      }),
      { numRuns: 100 },
    );
  });

  it("repeated automatic passes terminate: no-op or back-off within a few passes", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, async (input, opts) => {
        let messages = input;
        let state: CompactorState | undefined;
        let passes = 0;
        for (; passes < 8; passes++) {
          const r = await compact(messages, { ...opts, force: false, state });
          state = r.state;
          if (r.report.mode === "noop") break;
          messages = r.messages;
        }
        expect(passes).toBeLessThan(8);
      }),
      { numRuns: 200 },
    );
  });

  it("a planted secret never reaches the summarizer nor the handoff", async () => {
    const secret = "sk-proj-Zx81fQ2mN7pLkT3BlbkFJ3vT9wRy4uHs6dJc0bAe";
    await fc.assert(
      fc.asyncProperty(transcript, options, async (input, opts) => {
        const planted: ChatMessage[] = [...input];
        planted.splice(Math.floor(planted.length / 2), 0, { role: "user", content: `my key is ${secret} ok` });
        let seen = "";
        const capture: Summarizer = async (req) => {
          seen += JSON.stringify(req);
          return "## Active task\n- continue";
        };
        const r = await compact(planted, { ...opts, summarizer: capture });
        expect(seen).not.toContain(secret);
        const handoffs = r.messages
          .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
          .filter((t) => t.includes(HANDOFF_PREFIX))
          .map((t) => t.slice(t.indexOf(HANDOFF_PREFIX), t.indexOf(HANDOFF_END)));
        for (const h of handoffs) expect(h).not.toContain(secret.slice(12));
      }),
      { numRuns: 150 },
    );
  });
});
