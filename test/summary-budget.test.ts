// Issue 25, items 5–7: the handoff framed once, cooldowns escalating only for successive timeouts,
// the summary sized to the room left under the threshold.
import { describe, expect, it } from "vitest";
import { HANDOFF_END, HANDOFF_PREFIX, SummarizerError, compact, plan, type ChatMessage, type CompactorState, type Summarizer } from "../src/index.js";

const say = (role: "user" | "assistant", text: string): ChatMessage => ({ role, content: text });

/** A session whose middle is full of distinct work (files, commands, errors) a checkpoint wants to keep. */
function session(turns: number, tail: ChatMessage[] = []): ChatMessage[] {
  const out: ChatMessage[] = [say("user", "Port the billing service to the new queue client.")];
  for (let i = 0; i < turns; i++) {
    out.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: `npm test -- src/billing/part${i}.test.ts` }) } }] });
    out.push({ role: "tool", tool_call_id: `c${i}`, content: `FAIL src/billing/part${i}.test.ts\nError: expected invoice ${i} to be settled\n${"at stack frame\n".repeat(20)}` });
    out.push(say("assistant", `Edited src/billing/part${i}.ts to await the queue acknowledgement; decided to keep retries at ${i}.`));
    out.push(say("user", `ok, part ${i} next`));
  }
  return [...out, ...tail];
}

describe("the handoff's framing", () => {
  it("a model summary that already starts with the handoff prefix is framed once", async () => {
    const framed: Summarizer = async () => `${HANDOFF_PREFIX}\n3 earlier messages were compacted.\n\n## Active task\n- port billing\n\n${HANDOFF_END}`;
    const r = await compact(session(12), { contextWindow: 2000, summarizer: framed });
    expect(r.report.mode).toBe("summary");
    const handoff = r.messages.map((m) => String(m.content)).find((t) => t.includes(HANDOFF_PREFIX))!;
    expect(handoff.split(HANDOFF_PREFIX).length - 1).toBe(1);
    expect(handoff.split(HANDOFF_END).length - 1).toBe(1);
    expect(handoff).toContain("## Active task\n- port billing");
    expect(r.state.previousSummary).not.toContain(HANDOFF_PREFIX);
  });

  it("a summary that is nothing but the framing is an empty summary (the chain moves on)", async () => {
    const bare: Summarizer = async () => `${HANDOFF_PREFIX}\n\n${HANDOFF_END}`;
    const r = await compact(session(12), { contextWindow: 2000, summarizer: bare });
    expect(r.report.failures[0].kind).toBe("empty");
    expect(r.report.summary?.source).toBe("deterministic");
  });
});

describe("cooldowns", () => {
  const input = session(12);
  const failingAs = (kinds: ("timeout" | "rate_limit")[]): Summarizer => {
    let k = 0;
    const s: Summarizer = async () => {
      throw new SummarizerError(kinds[Math.min(k++, kinds.length - 1)], "no");
    };
    s.label = "remote";
    return s;
  };

  it("a timeout after a rate limit rests 60 s, not 5 min: escalation is for successive timeouts", async () => {
    const s = failingAs(["rate_limit", "timeout"]);
    const first = await compact(input, { contextWindow: 2000, summarizer: s, now: () => 0 });
    expect(first.state.cooldowns.remote).toMatchObject({ kind: "rate_limit", failures: 1, until: 60_000 });
    const second = await compact(input, { contextWindow: 2000, summarizer: s, state: first.state, now: () => 100_000 });
    expect(second.state.cooldowns.remote).toMatchObject({ kind: "timeout", failures: 1, until: 160_000 });
  });

  it("successive timeouts still escalate: 60 s, 5 min, 15 min", async () => {
    const s = failingAs(["timeout"]);
    let state: CompactorState | undefined;
    const rests: number[] = [];
    for (const now of [0, 100_000, 1_000_000]) {
      const r = await compact(input, { contextWindow: 2000, summarizer: s, state, now: () => now });
      state = r.state;
      rests.push(r.state.cooldowns.remote.until - now);
    }
    expect(rests).toEqual([60_000, 300_000, 900_000]);
  });
});

describe("the summary is sized to the room left under the threshold", () => {
  // A tail of ~600 tokens under a 1,000-token threshold: the handoff gets what is left, not a fixed share.
  const tail = [say("user", `Now the refunds module: ${"keep every refund idempotent and logged; ".repeat(26)}`), say("assistant", "On it.")];
  const opts = { contextWindow: 1000, threshold: 1, tailTokens: 300 };

  it("a pass at a 1,000-token threshold ends under it, the summary given only the room left", async () => {
    const input = session(10, tail);
    const p = plan(input, opts);
    let given = 0;
    const model: Summarizer = async (req) => {
      given = req.maxOutputTokens;
      return "## Active task\n- refunds module\n";
    };
    model.label = "model";
    const r = await compact(input, { ...opts, summarizer: model });
    let kept = p.fixedTokens;
    for (let i = 0; i < input.length; i++) if (i < p.head.end || i >= p.tail.start) kept += p.tokens.perMessage[i];
    expect(given).toBeLessThan(p.tokens.threshold - kept);
    expect(given).toBeGreaterThanOrEqual(256);
    expect(r.report.tokensAfter).toBeLessThanOrEqual(p.tokens.threshold);
  });

  it("the deterministic checkpoint fits in the room too: no over-the-threshold warning", async () => {
    const input = session(10, tail);
    const r = await compact(input, opts);
    expect(r.report.summary?.source).toBe("deterministic");
    expect(r.report.tokensAfter).toBeLessThanOrEqual(1000);
    expect(r.report.warnings.join("\n")).not.toMatch(/still over|over the threshold/);
  });
});
