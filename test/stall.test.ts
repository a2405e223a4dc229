// Issue 30 item 5: a visible stop. Three passes that make no progress (still over the threshold, or
// saving under 10 %) stop compaction, visibly (mode "stalled", the reason and what would help), until
// the transcript grows by a new user message.
import { describe, expect, it } from "vitest";
import { compact, createCompactor, plan, type ChatMessage, type CompactorState } from "../src/index.js";

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(" ");
/** A request too big for its window: every pass summarizes the new turns and stays over. */
const start = (): ChatMessage[] => [{ role: "user", content: `Refactor the parser. ${words(3000, "req")}` }];
/** One step of an agent loop: a call and its output, no user message. */
const step = (k: number): ChatMessage[] => [
  { role: "assistant", content: null, tool_calls: [{ id: `c${k}`, type: "function", function: { name: "grep", arguments: `{"q":"${k}"}` } }] },
  { role: "tool", tool_call_id: `c${k}`, content: words(900, `out${k}_`) },
];
const OPTIONS = { contextWindow: 12_000 };
/** Far apart in time: the frequency guard's pause never acts, only the stall. */
const clock = (k: number) => () => k * 3_600_000;

async function agentLoop(steps: number, first: ChatMessage[] = start()) {
  let messages = first;
  let state: CompactorState | undefined;
  const reports = [];
  for (let k = 0; k < steps; k++) {
    messages = [...messages, ...step(k)];
    const r = await compact(messages, { ...OPTIONS, state, now: clock(k) });
    reports.push(r.report);
    expect(r.report.mode === "stalled" ? r.messages : undefined).toBe(r.report.mode === "stalled" ? messages : undefined); // a stalled pass changes nothing
    state = r.state;
    messages = r.messages;
  }
  return { reports, state: state!, messages };
}

describe("a visible stop", () => {
  it("after three passes that stay over the threshold, the next pass is stalled, says why and what would help", async () => {
    const { reports, state, messages } = await agentLoop(9);
    const modes = reports.map((r) => r.mode);
    const firstStall = modes.indexOf("stalled");
    expect(firstStall).toBeGreaterThan(0);
    const passes = modes.slice(0, firstStall).filter((m) => m === "summary" || m === "prune");
    expect(passes.length).toBe(3); // on main: a pass on every step, each leaving it over
    expect(modes.slice(firstStall).every((m) => m === "stalled")).toBe(true); // waits, visibly, while no user speaks
    const third = reports[firstStall - 1];
    expect(third.stalled?.reason).toMatch(/3 passes in a row made no progress/);
    expect(third.warnings.join("\n")).toMatch(/compaction stalls until a new user message/);
    const stalled = reports[firstStall];
    expect(stalled.stalled?.reason).toBe(third.stalled?.reason);
    expect(stalled.stalled?.help.join("\n")).toMatch(/a larger window \(contextWindow ≥ \d+/);
    expect(stalled.stalled?.help.join("\n")).toMatch(/a smaller tail/);
    expect(stalled.tokensAfter).toBe(stalled.tokensBefore);
    expect(state.stalled).toBeDefined();
    const p = plan(messages, { ...OPTIONS, state });
    expect(p.shouldCompact).toBe(false);
    expect(p.reason).toMatch(/^stalled: .*waits for a new user message/);
    expect(p.stalled?.help.length).toBeGreaterThan(0);
  });

  it("a new user message ends the stall; force overrides it", async () => {
    const { state, messages } = await agentLoop(6);
    expect(state.stalled).toBeDefined();
    const forced = await compact(messages, { ...OPTIONS, state, force: true, now: clock(7) });
    expect(["summary", "prune"]).toContain(forced.report.mode);
    const spoke = [...messages, { role: "assistant", content: "Done with grep." }, { role: "user", content: "Now write the tests." }] as ChatMessage[];
    const r = await compact(spoke, { ...OPTIONS, state, now: clock(8) });
    expect(r.report.mode).not.toBe("stalled");
    expect(r.report.mode).toBe("summary");
    expect(r.state.stalled).toBeUndefined();
  });

  it("under the threshold a stalled state is a plain no-op", async () => {
    const { state } = await agentLoop(6);
    const short: ChatMessage[] = [{ role: "user", content: "hi" }];
    const r = await compact(short, { ...OPTIONS, state: { ...state, stalled: { ...state.stalled!, at: 0 } } });
    expect(r.report.mode).toBe("noop");
  });

  it("passes that get under the threshold and save enough never stall", async () => {
    let messages: ChatMessage[] = [{ role: "user", content: "Write the report." }];
    let state: CompactorState | undefined;
    for (let k = 0; k < 40; k++) {
      messages = [...messages, ...step(k).map((m) => (m.role === "tool" ? { ...m, content: words(300, `s${k}_`) } : m))];
      const r = await compact(messages, { contextWindow: 6_000, state, now: clock(k) });
      expect(r.report.mode).not.toBe("stalled");
      expect(r.report.stalled).toBeUndefined();
      state = r.state;
      messages = r.messages;
    }
  });

  it("a compactor shows the stall too, and the state's stall is checked like any field", async () => {
    const c = createCompactor({ ...OPTIONS, now: () => 0 });
    let messages = start();
    const modes: string[] = [];
    for (let k = 0; k < 7; k++) {
      messages = [...messages, ...step(k)];
      const r = await c.compact(messages);
      modes.push(r.report.mode);
      messages = r.messages;
    }
    expect(modes).toContain("stalled");
    const bad = { ...c.state, stalled: { at: "x", reason: 1, help: [] } } as unknown as CompactorState;
    const r = await compact(start(), { ...OPTIONS, state: bad });
    expect(r.report.warnings.some((w) => w.startsWith("state.stalled:") && w.endsWith("(dropped)"))).toBe(true);
  });
});
