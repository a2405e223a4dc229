// Where two parts of the contract must agree: what plan says is due and what compact does; what the
// compactor was given and what its report says; the references a model is shown and those the
// archive keeps; the marker and the archive.
import { describe, expect, it } from "vitest";
import { HANDOFF_PREFIX, SummarizerError, compact, createCompactor, plan, type ChatMessage, type CompactorState, type SummarizeRequest, type Summarizer } from "../src/index.js";
import { assistant, call, filler, sys, user } from "./support/build.js";

const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
const write = call("Write", { file_path: "/src/big.ts", content: "x".repeat(400_000) }, "File written.");
// The latest request reaches back into the head's edge: nothing lies between head and tail.
const tailOnly = [sys(), user("a task"), assistant("a plan"), user("write the file, then run it"), ...write, assistant("Written. Running it.")];
const long = [sys(), user("start"), assistant(filler(200)), user(filler(600)), assistant(filler(600)), user(filler(600)), assistant("ok"), user("now this"), assistant("done")];
const base: CompactorState = { version: 1, compactions: 0, strikes: 0, fallbackStreak: 0, cooldowns: {} };

describe("plan and compact agree", () => {
  it("a transcript over the threshold with nothing between head and tail is due, and compact prunes the tail", async () => {
    const options = { contextWindow: 32_000, headMessages: 2 };
    const p = plan(tailOnly, options);
    expect(p.middle.end - p.middle.start).toBe(0);
    expect(p.shouldCompact).toBe(true);
    expect(p.reason).toMatch(/only the tail's own tool outputs/);
    const r = await compact(tailOnly, options);
    expect(r.report.mode).toBe("prune");
    // Nothing was summarized, so no warning may say so.
    expect(r.report.warnings.join("\n")).not.toMatch(/summarized instead/);
  });

  it("summarizer: null is no summarizer given, for compact as for the options check", async () => {
    const r = await compact(long, { contextWindow: 2000, summarizer: null as never });
    expect(r.report.summary?.source).toBe("deterministic");
  });

  it("an unusable archiveLimit is refused by plan as by compact", async () => {
    expect(() => plan(long, { contextWindow: 2000, archiveLimit: -1 })).toThrow(/archiveLimit/);
    await expect(compact(long, { contextWindow: 2000, archiveLimit: -1 })).rejects.toThrow(RangeError);
  });
});

describe("the compactor reports what it could not use of the state it was given", () => {
  it("once, in its first pass's report", async () => {
    const compactor = createCompactor({ contextWindow: 2000, state: { ...base, calibration: { ratio: "abc", samples: 1 } } as unknown as CompactorState });
    const first = await compactor.compact(long);
    expect(first.report.warnings.join("\n")).toMatch(/state\.calibration/);
    const second = await compactor.compact(long, { force: true });
    expect(second.report.warnings.join("\n")).not.toMatch(/state\.calibration/);
  });
});

describe("references agree across a later pass", () => {
  const state = { ...base, compactions: 2 };

  it("the model is shown each turn under the reference the archive keeps it by", async () => {
    let seen: SummarizeRequest | undefined;
    const model: Summarizer = async (req) => {
      seen = req;
      return "## Active task\n- go on";
    };
    const r = await compact(long, { contextWindow: 2000, state, summarizer: model });
    expect(r.report.mode).toBe("summary");
    const prompt = seen!.messages.map(text).join("\n");
    const labels = [...prompt.matchAll(/\[(#[\d.]+) (?:user|assistant|tool)/g)].map((x) => x[1]);
    expect(labels.length).toBeGreaterThan(0);
    for (const ref of labels) {
      expect(ref).toMatch(/^#2\.\d+$/);
      expect(r.archive).toHaveProperty(ref);
    }
  });

  it("the marker cites the archive's references for what it removed", async () => {
    const broken: Summarizer = async () => {
      throw new SummarizerError("error", "down");
    };
    broken.label = "deterministic";
    const p = plan(long, { contextWindow: 2000, state });
    const r = await compact(long, { contextWindow: 2000, state, summarizer: broken });
    expect(r.report.summary?.source).toBe("marker");
    const marker = text(r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX))!);
    const first = `#2.${p.middle.start}`;
    const last = `#2.${p.middle.end - 1}`;
    expect(marker).toContain(`${first} to ${last}`);
    expect(r.archive).toHaveProperty(first);
    expect(r.archive).toHaveProperty(last);
  });
});
