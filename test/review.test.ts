// Issue 30 item 1: review before commit. `propose` changes nothing; `accept` applies the pass as
// proposed or around an edited handoff, which is redacted and checked like a model's summary.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accept, compact, createCompactor, propose, type ChatMessage, type CompactResult, type Summarizer } from "../src/index.js";
import { options, transcript } from "./support/arbitraries.js";
import { assistant, call, failingBuild as failing, sys, user } from "./support/build.js";

const NOW = () => 1_700_000_000_000;
/** The result without its timing, which two runs of one pass never share. */
const timeless = <M>(r: CompactResult<M>) => ({ ...r, report: { ...r.report, durationMs: 0 } });

const FAILING = { contextWindow: 4_000, force: true, now: NOW };

describe("propose and accept", () => {
  it("propose never mutates its input, and accept(propose(x)) is compact(x) (deterministic summarizer)", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, async (input, opts) => {
        const snapshot = structuredClone(input);
        const o = { ...opts, now: NOW };
        const proposal = await propose(input, o);
        expect(input).toEqual(snapshot);
        expect(timeless(accept(proposal))).toEqual(timeless(await compact(input, o)));
        expect(proposal.messages).toBe(accept(proposal).messages);
      }),
      { numRuns: 150 },
    );
  });

  it("a proposal holds the plan, the handoff and what it replaces, the messages, archive and report", async () => {
    const input = failing();
    const p = await propose(input, FAILING);
    expect(p.report.mode).toBe("summary"); // the deterministic summarizer, first and only
    expect(p.plan.middle.end).toBeGreaterThan(p.plan.middle.start);
    expect(p.replaces.length).toBe(p.report.droppedMessages);
    expect(p.replaces.every((i) => i >= p.plan.middle.start && i < p.plan.middle.end)).toBe(true);
    expect(p.handoff).toBe(p.state.previousSummary);
    expect(p.messages.some((m) => typeof m.content === "string" && m.content.includes(p.handoff!))).toBe(true);
    expect(Object.keys(p.archive!).length).toBeGreaterThan(0);
  });

  it("an edited handoff is checked like a model's: what it lost is appended in the same lines", async () => {
    const edit = "## Active task\n- build things";
    const model: Summarizer = async () => edit;
    model.label = "model";
    const byModel = await compact(failing(), { ...FAILING, summarizer: model });
    const edited = accept(await propose(failing(), FAILING), { handoff: edit });
    expect(edited.report.summary?.edited).toBe(true);
    expect(edited.report.summary?.check).toEqual(byModel.report.summary?.check);
    expect(edited.report.summary?.check?.ledgersAppended).toBe(true);
    expect(edited.messages).toEqual(byModel.messages);
    expect(edited.state.previousSummary).toBe(byModel.state.previousSummary);
    expect(edited.report.warnings).toContain("the model's summary missed the latest request or an unresolved error: the missing ledger lines were appended to it");
  });

  it("an edited handoff is redacted whole before it enters the transcript or the state", async () => {
    const key = "AKIAZ7Q3R4M5N6P7W2XY";
    const edited = accept(await propose(failing(), FAILING), { handoff: `## Active task\n- deploy with aws_access_key_id = ${key}` });
    expect(JSON.stringify(edited)).not.toContain(key);
    expect(edited.state.previousSummary).toContain("[REDACTED]");
  });

  it("says clearly what it cannot accept", async () => {
    const p = await propose(failing(), FAILING);
    expect(() => accept(structuredClone(p))).toThrow(/accept takes a proposal returned by propose/);
    expect(() => accept(p, { handoff: "   " })).toThrow(/the edited handoff is empty/);
    const noop = await propose([user("hi")], { contextWindow: 10_000 });
    expect(noop.report.mode).toBe("noop");
    expect(noop.handoff).toBeUndefined();
    expect(() => accept(noop, { handoff: "x" })).toThrow(/writes no handoff \(mode noop\): there is nothing to edit/);
  });

  it("a compactor's state advances on accept only, and a proposal made before its last pass is refused", async () => {
    const c = createCompactor({ contextWindow: 4_000, now: NOW });
    const before = c.state;
    const p = await c.propose(failing(), { force: true });
    expect(c.state).toBe(before);
    const stale = await c.propose(failing(), { force: true });
    const r = c.accept(p, { handoff: "## Active task\n- ship it" });
    expect(c.state).toBe(r.state);
    expect(c.state.compactions).toBe(1);
    expect(() => c.accept(stale)).toThrow(/made before the compactor's last pass: propose again/);
    expect(() => c.accept(p)).toThrow(/propose again/);
  });

  it("an unedited accept of a session's proposal is its compact, prune-only passes included", async () => {
    const m: ChatMessage[] = [sys("You are careful."), user("Fix the test"), assistant("Looking.")];
    m.push(...call("Read", { path: "big.log" }, " log line\n".repeat(8_000)));
    for (let i = 0; i < 6; i++) m.push(user(`step ${i}`), assistant(`done ${i}`));
    const p = await propose(m, { contextWindow: 16_000, now: NOW });
    expect(p.report.mode).toBe("prune");
    expect(p.replaces).toEqual([]);
    expect(timeless(accept(p))).toEqual(timeless(await compact(m, { contextWindow: 16_000, now: NOW })));
  });
});
