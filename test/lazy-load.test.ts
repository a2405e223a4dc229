// What a first summary loads: the deterministic summarizer (the default) never loads the model prompt
// nor the streaming redaction of a model's deltas; a model summarizer does. The size bench's
// first-summary column (bench/lib.ts MODEL_ONLY) leaves those modules out on the strength of this.
import { describe, expect, it, vi } from "vitest";
import { compact } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";

const loaded = vi.hoisted(() => new Set<string>());
vi.mock("../src/summarize/prompt.js", async (original) => (loaded.add("prompt"), await original()));
vi.mock("../src/redact/stream.js", async (original) => (loaded.add("stream"), await original()));

const session = trajectory("claude-code-spotter__4d5611e5-241a").messages;

describe("what a first summary loads", () => {
  it("the deterministic summarizer loads neither the model prompt nor streaming redaction", async () => {
    const r = await compact(session, { contextWindow: 32_000 });
    expect(r.report.mode).toBe("summary");
    expect(r.report.summary?.source).toBe("deterministic");
    expect([...loaded]).toEqual([]);
  });

  it("a model summarizer loads the prompt (the check is real)", async () => {
    const r = await compact(session, { contextWindow: 32_000, summarizer: async () => "## Active task\n- carry on from the handoff" });
    expect(r.report.summary?.source).toBe("model");
    expect(loaded.has("prompt")).toBe(true);
  });
});
