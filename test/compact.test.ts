import { describe, expect, it, vi } from "vitest";
import {
  HANDOFF_END,
  HANDOFF_PREFIX,
  SummarizerError,
  compact,
  createCompactor,
  plan,
  type ChatMessage,
  type CompactionEvent,
  type Summarizer,
} from "../src/index.js";
import { assistant, call, filler, sys, user } from "./support/build.js";

function chatty(turns = 40): ChatMessage[] {
  const m: ChatMessage[] = [sys(), user("Plan the migration"), assistant("Sure.")];
  for (let i = 0; i < turns; i++) m.push(user(`q${i} ${filler(120)}`), assistant(`a${i} ${filler(120)}`));
  m.push(user("What is left?"), assistant("Let me check."));
  return m;
}
const opts = { contextWindow: 12_000 };
const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

function failing(kind: ConstructorParameters<typeof SummarizerError>[0], label = "primary"): Summarizer {
  const s: Summarizer = async () => {
    throw new SummarizerError(kind, `simulated ${kind}`);
  };
  s.label = label;
  return s;
}

async function* stream(parts: string[]) {
  for (const p of parts) yield p;
}

describe("summarizer chain", () => {
  it("streams a model summary, with events in order", async () => {
    const events: CompactionEvent["type"][] = [];
    const deltas: string[] = [];
    const model: Summarizer = () => stream(["## Active task\n", "> What is left?\n", "- migrate ", "the db"]);
    model.label = "model";
    model.model = "gpt-test";
    const r = await compact(chatty(), {
      ...opts,
      summarizer: model,
      onEvent: (e) => {
        events.push(e.type);
        if (e.type === "summary-delta") deltas.push(e.text);
      },
    });
    expect(r.report.mode).toBe("summary");
    expect(r.report.summary).toMatchObject({ source: "model", model: "gpt-test", summarizer: "model" });
    expect(deltas.join("")).toBe("## Active task\n> What is left?\n- migrate the db");
    expect(events[0]).toBe("plan");
    expect(events.slice(-2)).toEqual(["summary-done", "done"]);
    const handoff = r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX))!;
    expect(text(handoff)).toContain("- migrate the db");
    expect(text(handoff)).toContain(HANDOFF_END);
  });

  it.each(["auth", "rate_limit", "timeout", "overloaded", "cut_off", "refusal", "truncated"] as const)(
    "a %s failure falls through to the next summarizer and cools the failed one down",
    async (kind) => {
      const r = await compact(chatty(), { ...opts, summarizer: failing(kind), now: () => 1_000 });
      expect(r.report.mode).toBe("fallback");
      expect(r.report.summary?.source).toBe("deterministic");
      expect(r.report.failures).toEqual([{ summarizer: "primary", kind, message: `simulated ${kind}` }]);
      expect(r.state.cooldowns.primary.until).toBeGreaterThan(1_000);
    },
  );

  it.each(["auth", "not_found", "rate_limit", "timeout", "overloaded", "cut_off", "malformed", "refusal", "truncated", "empty", "network"] as const)(
    "primary fails with %s → the secondary model writes the summary, and events say so",
    async (kind) => {
      const events: CompactionEvent[] = [];
      const secondary: Summarizer = async () => "## Active task\n- from the secondary";
      secondary.label = "secondary";
      secondary.model = "backup-1";
      const r = await compact(chatty(), { ...opts, summarizer: [failing(kind), secondary], onEvent: (e) => events.push(e) });
      expect(r.report.mode).toBe("fallback");
      expect(r.report.summary).toMatchObject({ source: "model", model: "backup-1", summarizer: "secondary" });
      const failed = events.find((e) => e.type === "summary-failed");
      const done = events.find((e) => e.type === "summary-done");
      expect(failed).toMatchObject({ failure: { summarizer: "primary", kind } });
      expect(done).toMatchObject({ summary: { summarizer: "secondary" } });
      expect(events.indexOf(failed!)).toBeLessThan(events.indexOf(done!));
    },
  );

  it("an empty summary is a failure, not a summary", async () => {
    const empty: Summarizer = async () => "   ";
    const r = await compact(chatty(), { ...opts, summarizer: empty });
    expect(r.report.failures[0].kind).toBe("empty");
    expect(r.report.summary?.source).toBe("deterministic");
  });

  it("an answer without the checkpoint's structure is a failure, not a summary: the deterministic checkpoint is used, and the report says why", async () => {
    const fake: Summarizer = Object.assign(async () => "Hello from fake", { label: "fake" });
    const r = await compact(chatty(), { ...opts, summarizer: fake });
    expect(r.report.summary?.source).toBe("deterministic");
    expect(r.report.failures).toEqual([{ summarizer: "fake", kind: "malformed", message: 'no checkpoint section (## Active task, …) in "Hello from fake"' }]);
    expect(JSON.stringify(r.messages)).not.toContain("Hello from fake");
    // One section opened (a heading at any level, bold, or a label), in any case, is a checkpoint (a short one).
    for (const terse of ["### ACTIVE TASK\n- keep going", "**Active task**: keep going", "Active task: keep going", "Notes\n## Blocked\n- none"]) {
      expect((await compact(chatty(), { ...opts, summarizer: async () => terse })).report.summary?.source, terse).toBe("model");
    }
    for (const prose of ["The active task is to keep going.", "Goal achieved, hello!"]) {
      expect((await compact(chatty(), { ...opts, summarizer: async () => prose })).report.failures[0]?.kind, prose).toBe("malformed");
    }
  });

  it("honours a cooldown on the next pass; force ignores it", async () => {
    let calls = 0;
    const flaky: Summarizer = async () => {
      calls++;
      throw new SummarizerError("timeout", "slow");
    };
    flaky.label = "flaky";
    const first = await compact(chatty(), { ...opts, summarizer: flaky, now: () => 0 });
    expect(first.state.cooldowns.flaky).toMatchObject({ kind: "timeout", until: 60_000, failures: 1 });
    const second = await compact(chatty(), { ...opts, summarizer: flaky, state: first.state, now: () => 30_000 });
    expect(calls).toBe(1);
    expect(second.report.failures[0]).toMatchObject({ summarizer: "flaky", skipped: true });
    await compact(chatty(), { ...opts, summarizer: flaky, state: first.state, now: () => 30_000, force: true });
    expect(calls).toBe(2);
    const later = await compact(chatty(), { ...opts, summarizer: flaky, state: second.state, now: () => 61_000 });
    expect(calls).toBe(3);
    expect(later.state.cooldowns.flaky).toMatchObject({ failures: 2, until: 61_000 + 300_000 });
  });

  it("when every summarizer fails, an explicit marker says how many messages were removed", async () => {
    const broken = failing("error", "deterministic");
    const input = chatty();
    const p = plan(input, opts);
    const r = await compact(input, { ...opts, summarizer: [failing("auth"), broken] });
    expect(r.report.summary?.source).toBe("marker");
    const removed = p.middle.end - p.middle.start;
    const marker = r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX))!;
    expect(text(marker)).toContain(`${removed} earlier messages were (indices ${p.middle.start}–${p.middle.end - 1}`);
    expect(text(marker)).toContain("primary: auth");
    expect(r.report.droppedMessages).toBe(removed);
  });

  /** A pass as a page runs it when the lazily loaded module at `path` cannot be fetched. */
  async function compactWithout(path: string, input: ChatMessage[]) {
    vi.resetModules();
    vi.doMock(path, () => {
      throw new Error(`Failed to fetch dynamically imported module: ${path}`);
    });
    try {
      return await (await import("../src/compact.js")).compact(input, opts);
    } finally {
      vi.doUnmock(path);
      vi.resetModules();
    }
  }

  it("when the summary code itself cannot be loaded (a lazy chunk gone), the middle gets the marker, not an exception", async () => {
    const input = chatty();
    const p = plan(input, opts);
    const r = await compactWithout("../src/summarize/stage.js", input);
    expect(r.report.mode).toBe("fallback");
    expect(r.report.summary?.source).toBe("marker");
    expect(r.report.failures).toEqual([expect.objectContaining({ summarizer: "summary stage", kind: "network" })]);
    const marker = r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX))!;
    expect(text(marker)).toContain(`(indices ${p.middle.start}–${p.middle.end - 1}`);
    expect(text(marker)).toContain("the summary code could not be loaded");
  });

  it("when the code that writes the result cannot be loaded, the input comes back unchanged, and says why", async () => {
    const input = chatty();
    const r = await compactWithout("../src/result.js", input);
    expect(r.report.mode).toBe("noop");
    expect(r.messages).toBe(input);
    expect(r.report.warnings.join("\n")).toMatch(/the compaction code could not be loaded/);
  });

  it("when redaction cannot be loaded either, the warning says the code could not be loaded and quotes nothing of the loader's error", async () => {
    const input = chatty();
    vi.resetModules();
    const secret = "https://cdn.example.com/chunk.js?token=sk-proj-abcdefghijklmnopqrstuvwxyz012345";
    vi.doMock("../src/pass.js", () => {
      throw new Error(`Failed to fetch dynamically imported module: ${secret}`);
    });
    vi.doMock("../src/redact/index.js", () => {
      throw new Error("Failed to fetch dynamically imported module: redact");
    });
    try {
      const r = await (await import("../src/compact.js")).compact(input, opts);
      expect(r.report.mode).toBe("noop");
      expect(r.messages).toBe(input);
      expect(r.report.warnings).toContain("the compaction code could not be loaded: kept as it was");
      expect(JSON.stringify(r)).not.toContain("sk-proj");
    } finally {
      vi.doUnmock("../src/pass.js");
      vi.doUnmock("../src/redact/index.js");
      vi.resetModules();
    }
  });

  /** A window that puts `input` at `share` of its threshold (the default threshold is 0.75 of the window). */
  const windowAt = (input: ChatMessage[], share: number) => Math.ceil(plan(input, opts).tokens.total / share / 0.75);

  /** A pass of a fresh `compact` module with the rewriting code's loads counted (`fails`: how many of the first fail). */
  async function loadsOfPass(run: (c: typeof compact, loaded: () => number, compactor: typeof createCompactor) => Promise<void>, fails = 0): Promise<number> {
    vi.resetModules();
    let loads = 0;
    vi.doMock("../src/pass.js", async (importOriginal) => {
      if (loads++ < fails) throw new Error("Failed to fetch dynamically imported module: pass");
      return importOriginal();
    });
    try {
      await run((await import("../src/compact.js")).compact, () => loads, (await import("../src/compactor.js")).createCompactor);
      return loads;
    } finally {
      vi.doUnmock("../src/pass.js");
      vi.resetModules();
    }
  }
  const modelTurn = () => new Promise((done) => setTimeout(done, 20));

  it("a no-op pass near its threshold starts loading the rewriting code, which the pass that rewrites then uses; far under it, nothing loads", async () => {
    const input = chatty();
    const near = { contextWindow: windowAt(input, 0.85) };
    const loads = await loadsOfPass(async (c, loaded) => {
      const r = await c(input, near);
      expect(r.report.mode).toBe("noop");
      expect(r.messages).toBe(input);
      await vi.waitFor(() => expect(loaded()).toBe(1)); // the load started (under load it may take a while)
      await modelTurn(); // and a failed one was forgotten
      expect((await c(input, opts)).report.mode).not.toBe("noop");
    });
    expect(loads).toBe(1);
    expect(await loadsOfPass(async (c) => void (await c(input, { contextWindow: windowAt(input, 0.5) }), await modelTurn()))).toBe(0);
  });

  it("a compactor asked near its threshold starts loading the rewriting code too", async () => {
    const input = chatty();
    const loads = await loadsOfPass(async (_, loaded, compactor) => {
      expect(compactor({ contextWindow: windowAt(input, 0.85) }).shouldCompact(input)).toBe(false);
      await vi.waitFor(() => expect(loaded()).toBe(1)); // the load started (under load it may take a while)
      await modelTurn(); // and a failed one was forgotten
    });
    expect(loads).toBe(1);
  });

  it("a load started near the threshold that fails is tried again by the pass that rewrites", async () => {
    const input = chatty();
    const loads = await loadsOfPass(async (c, loaded) => {
      await c(input, { contextWindow: windowAt(input, 0.9) });
      await vi.waitFor(() => expect(loaded()).toBe(1)); // the load started (under load it may take a while)
      await modelTurn(); // and a failed one was forgotten
      const r = await c(input, opts);
      expect(r.report.mode).not.toBe("noop");
      expect(r.report.warnings.join("\n")).not.toMatch(/could not be loaded/);
    }, 1);
    expect(loads).toBe(2);
  });

  it("an abort returns the input unchanged", async () => {
    const input = chatty();
    const before = new AbortController();
    before.abort();
    const r1 = await compact(input, { ...opts, signal: before.signal });
    expect(r1.report.mode).toBe("aborted");
    expect(r1.messages).toBe(input);

    const during = new AbortController();
    const slow: Summarizer = async function* () {
      yield "## Active";
      during.abort();
      yield " task";
    };
    const r2 = await compact(input, { ...opts, summarizer: slow, signal: during.signal });
    expect(r2.report.mode).toBe("aborted");
    expect(r2.messages).toBe(input);
  });
});

describe("deterministic checkpoint", () => {
  it("names the files of calls whose arguments are too long to quote whole", async () => {
    // Each Write carries 20 KB of content: its arguments reach the summary shrunk, still JSON.
    const input: ChatMessage[] = [sys(), user("Write the modules"), assistant("On it.")];
    for (let i = 0; i < 20; i++) {
      input.push(...call("Write", { file_path: `/src/module-${i}.ts`, content: filler(3000) }, `File written: ${filler(60)}`));
      input.push(assistant(`Module ${i} is in. ${filler(300)}`)); // prose prune cannot shorten: a summary is needed
    }
    input.push(user("Now what is left?"), assistant("Checking."));
    const r = await compact(input, { contextWindow: 16_000 });
    expect(r.report.summary?.source).toBe("deterministic");
    const handoff = text(r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX))!);
    const files = handoff.slice(handoff.indexOf("## Relevant files"), handoff.indexOf("## Remaining work"));
    // The last three Writes the middle holds (the tail keeps the latest ones verbatim).
    const { middle } = plan(input, { contextWindow: 16_000 });
    const paths = input
      .slice(middle.start, middle.end)
      .flatMap((m) => m.tool_calls ?? [])
      .map((c) => JSON.parse(c.function.arguments).file_path as string)
      .slice(-3);
    expect(paths).toHaveLength(3);
    // Grouped by directory, each file once, with what was done to it and where.
    for (const path of paths) expect(files).toMatch(new RegExp(`- /src/: .*\\b${path.slice(5).replace(".", "\\.")} written #\\d+`));
  });
});

describe("assemble", () => {
  it("merges the handoff into the first tail message when both roles collide", async () => {
    // head ends with a user message, the tail starts with an assistant tool call: neither role fits.
    const m: ChatMessage[] = [sys(), user("task")];
    for (let i = 0; i < 40; i++) m.push(assistant(filler(150)));
    m.push(...call("Bash", { command: "ls" }, "a\nb"), ...call("Bash", { command: "pwd" }, "/"));
    const p = plan(m, { contextWindow: 12_000, headMessages: 1, tailTokens: 10 });
    expect(p.seam).toBe("merge");
    const r = await compact(m, { contextWindow: 12_000, headMessages: 1, tailTokens: 10 });
    const merged = r.messages[p.head.end];
    expect(text(merged).startsWith(HANDOFF_PREFIX)).toBe(true);
    expect(merged.tool_calls).toBe(m[p.tail.start].tool_calls);
    expect(r.messages.slice(p.head.end + 1)).toEqual(m.slice(p.tail.start + 1));
  });

  it("never wraps the latest user message in a merged handoff", async () => {
    const m: ChatMessage[] = [sys(), user("task"), assistant("ok")];
    for (let i = 0; i < 40; i++) m.push(user(filler(100)), assistant(filler(150)));
    m.push(user("the latest ask"));
    const r = await compact(m, { contextWindow: 12_000, headMessages: 2, tailTokens: 10 });
    expect(r.messages.at(-1)).toBe(m.at(-1));
  });
});

describe("createCompactor", () => {
  it("keeps state between passes and resets", async () => {
    const c = createCompactor<ChatMessage>(opts);
    expect(c.shouldCompact(chatty())).toBe(true);
    const r = await c.compact(chatty());
    expect(c.state.compactions).toBe(1);
    expect(c.state.previousSummary).toBeTruthy();
    expect(c.shouldCompact(r.messages)).toBe(false);
    c.reset();
    expect(c.state.compactions).toBe(0);
  });

  it("calibrates the estimate from provider usage", () => {
    const c = createCompactor<ChatMessage>({ contextWindow: 100_000 });
    const m = chatty(10);
    const raw = plan(m, { contextWindow: 100_000 }).tokens.total;
    c.shouldCompact(m);
    c.observeUsage({ prompt_tokens: raw * 2 });
    expect(c.state.calibration?.ratio).toBeCloseTo(2, 1);
    const calibrated = plan(m, { contextWindow: 100_000, state: c.state }).tokens.total;
    expect(calibrated / raw).toBeGreaterThan(1.8);
    c.observeUsage({ input_tokens: raw, cache_read_input_tokens: raw });
    expect(c.state.calibration?.samples).toBe(2);
  });
});

describe("what leaves through events and reports is redacted too", () => {
  const key = "ghp_Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe1234";

  it("streamed summary deltas never carry a secret, even one split across chunks", async () => {
    const deltas: string[] = [];
    const model: Summarizer = () => stream(["## Active task\n> What is left?\n- push with gh", "p_Zx81fQ2mN7pLk3vT9", "wRy4uHs6dJc0bAe1234 now\n", "- then ", "tag it"]);
    const r = await compact(chatty(), { ...opts, summarizer: model, onEvent: (e) => e.type === "summary-delta" && deltas.push(e.text) });
    expect(r.report.mode).toBe("summary");
    expect(deltas.join("")).not.toContain(key.slice(4));
    expect(deltas.join("")).toMatch(/^## Active task\n> What is left\?\n- push with ghp_…\[REDACTED\] now\n- then tag it$/);
  });

  it("a provider error that echoes a key is reported redacted", async () => {
    const leaky: Summarizer = async () => {
      throw new SummarizerError("auth", `invalid key ${key}`);
    };
    const r = await compact(chatty(), { ...opts, summarizer: leaky });
    expect(JSON.stringify(r.report)).not.toContain(key.slice(4));
    expect(r.report.failures[0].message).toMatch(/^invalid key ghp_…\[REDACTED\]$/);
  });

  it("a long provider error is redacted before it is cut to 500 characters", async () => {
    const leaky: Summarizer = async () => {
      throw new SummarizerError("http", `${"upstream said: no ".repeat(26)}${"x".repeat(16)} ${key} is not valid here`); // the key spans character 500
    };
    const r = await compact(chatty(), { ...opts, summarizer: leaky });
    const message = r.report.failures[0].message;
    expect(message.length).toBeLessThanOrEqual(500);
    expect(message).not.toContain(key.slice(4, 14));
  });
});
