// The invariants over every real transcript in test/fixtures at several windows.
import { describe, expect, it } from "vitest";
import { compact, plan, type CompactorState } from "../src/index.js";
import { trajectories } from "./support/fixtures.js";
import { violations } from "./support/invariants.js";

const WINDOWS = [8_000, 16_000, 32_000, 64_000, 128_000];

describe.each(trajectories())("$name", ({ messages }) => {
  it.each(WINDOWS)("keeps every invariant at a %i-token window", async (contextWindow) => {
    const options = { contextWindow, maxOutputTokens: Math.floor(contextWindow / 16) };
    const snapshot = JSON.stringify(messages);
    const p = plan(messages, options);
    const result = await compact(messages, options);
    expect(violations({ input: messages, snapshot, plan: p, result })).toEqual([]);
    // Over the threshold, a pass shrinks the transcript (the tail's own large tool outputs too, when
    // the middle alone cannot), or says by how much and why it stays over: never a silent no-op.
    if (p.shouldCompact && result.report.mode === "noop") expect(result.report.warnings.join("\n")).toMatch(/over the threshold of \d+ by \d+ tokens/);
    else if (p.shouldCompact) expect(result.report.mode).not.toBe("noop");
  });

  it("settles: compacting its own output again soon reaches a no-op", async () => {
    let current = messages;
    let state: CompactorState | undefined;
    const modes: string[] = [];
    for (let pass = 0; pass < 6; pass++) {
      const r = await compact(current, { contextWindow: 16_000, state });
      modes.push(r.report.mode);
      if (r.report.mode === "noop") break;
      current = r.messages;
      state = r.state;
    }
    expect(modes.at(-1)).toBe("noop");
  });
});
