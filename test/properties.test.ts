// DESIGN.md's invariants over generated transcripts and option sets.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refOf } from "../src/refs.js";
import { dialects, fromOpenAI } from "../src/convert.js";
import { HANDOFF_END, HANDOFF_PREFIX, compact, plan, type ChatMessage, type CompactOptions, type CompactorState, type DialectName, type Summarizer } from "../src/index.js";
import { options, transcript } from "./support/arbitraries.js";
import { violations } from "./support/invariants.js";
import { templateValidity } from "./support/validity.js";

const DIALECTS: DialectName[] = ["openai", "anthropic", "ai-sdk"];

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

  it("repeated automatic passes terminate: no-op, back-off or a visible stall within a few passes", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, options, async (input, opts) => {
        let messages = input;
        let state: CompactorState | undefined;
        let passes = 0;
        for (; passes < 8; passes++) {
          const r = await compact(messages, { ...opts, force: false, state });
          state = r.state;
          if (r.report.mode === "noop") break;
          if (r.report.mode === "stalled") {
            expect(r.messages).toBe(messages); // a stall sends the transcript as it is
            break;
          }
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

// Issue 25: plan and compact agree, nothing removed is lost, the latest user message stays itself.
describe("nothing lost, in every dialect", () => {
  const run = async (dialect: DialectName, t: ChatMessage[], opts: CompactOptions) => {
    const c = fromOpenAI(t, dialect);
    const o = { ...opts, dialect: dialects[dialect], system: c.system } as CompactOptions<unknown>;
    const p = plan(c.messages, o);
    return { input: c.messages, p, r: await compact(c.messages, o), o };
  };

  it.each(DIALECTS)("%s: plan().shouldCompact says whether compact acts, never a useless pass nor a missed one", async (dialect) => {
    await fc.assert(
      fc.asyncProperty(transcript, options, async (t, opts) => {
        const { input, p, r, o } = await run(dialect, t, { ...opts, force: false });
        if (!p.shouldCompact) {
          expect(r.report.mode).toBe("noop");
          // Not a missed one: forcing the same partitions would prune and drop nothing either (at most
          // the sanitizer repairs a pairing, which is no reason to compact).
          if (p.tokens.total > p.tokens.threshold) {
            const forced = await compact(input, { ...o, force: true });
            expect(forced.report.pruned).toEqual([]);
            expect(forced.report.droppedMessages).toBe(0);
          }
        } else if (p.middle.end === p.middle.start) {
          // Only the tail can be pruned: plan says so only when something there would shrink. The one
          // thing plan cannot weigh is the repair of calls the input left unanswered: when their stubs
          // cost what pruning saves, the pass says so and counts as a strike (back-off ends the loop).
          const said = r.report.warnings.some((w) => w.startsWith("compaction would not shrink"));
          expect(r.report.pruned.length > 0 || (said && r.state.strikes > 0)).toBe(true);
        } else if (r.report.mode === "noop") {
          expect(r.report.warnings.length).toBeGreaterThan(0); // acted on, and says why nothing came of it
        }
      }),
      { numRuns: 150 },
    );
  });

  it.each(DIALECTS)("%s: the invariants hold, and a pinned request that carries tool results follows its call, verbatim", async (dialect) => {
    const d = dialects[dialect];
    await fc.assert(
      fc.asyncProperty(transcript, options, async (t, opts) => {
        const { input, p, r } = await run(dialect, t, opts);
        expect(violations({ input, snapshot: JSON.stringify(input), plan: p, result: r, dialect })).toEqual([]);
        const lu = p.latestUserIndex;
        if (r.report.mode === "prune" || !p.pinned.includes(lu) || !d.view(input[lu]).results.length) return;
        // Where the sanitizer answered a call left open before it, the request carries the stub: rewritten, reported.
        const block = p.pinned.filter((i) => i <= lu);
        const at = (i: number) => (r.report.sanitized.rewritten.includes(i) ? -1 : r.messages.indexOf(input[i]));
        if (block.some((i) => at(i) < 0)) expect(block.some((i) => r.report.sanitized.rewritten.includes(i))).toBe(true);
        else block.forEach((i, k) => k > 0 && expect(at(i)).toBe(at(block[k - 1]) + 1));
      }),
      { numRuns: 150 },
    );
  });

  it.each(DIALECTS)("%s: every removed message is archived under a cited reference or counted in the report; the latest user message is the same object", async (dialect) => {
    const d = dialects[dialect];
    await fc.assert(
      fc.asyncProperty(transcript, options, async (t, opts) => {
        const { input, p, r } = await run(dialect, t, opts);
        const lu = p.latestUserIndex;
        const shrunk = r.report.pruned.some((x) => x.index === lu && x.kind === "shrunk");
        // Kept as it is, unless its own tool outputs alone overflow the window (shrunk) or its pairing
        // was broken in the input (the sanitizer's repair, reported): both counted in the report.
        if (lu >= 0 && !shrunk && !r.report.sanitized.rewritten.includes(lu)) expect(r.messages).toContain(input[lu]);
        if (r.report.mode === "noop" || r.report.mode === "aborted") return;
        const pass = r.state.compactions - 1;
        const out = new Set(r.messages);
        const wire = JSON.stringify(r.messages);
        // Outputs replaced by a one-liner cite their reference; shrunk arguments and image stubs are counted in report.pruned.
        const citing = new Set(r.report.pruned.filter((x) => x.kind === "tool_output" || x.kind === "duplicate" || x.kind === "shrunk").map((x) => x.index));
        const rewritten = new Set(r.report.sanitized.rewritten);
        input.forEach((m, i) => {
          if (out.has(m)) return;
          if (i === 0 && d.view(m).role === "system") return; // the note appended: checked by the invariants
          if (rewritten.has(i) && !r.report.sanitized.removedOrphanResults.includes(i)) return; // stub results added, counted
          const ref = refOf(i, pass);
          if (p.seam === "merge" && i === p.tail.start && r.report.mode !== "prune") return; // the handoff merged into it, its own content kept
          expect(r.archive && Object.hasOwn(r.archive, ref), `message ${i} removed but not archived as ${ref}`).toBe(true);
          const summarized = r.report.mode !== "prune" && i >= p.middle.start && i < p.middle.end;
          if (r.report.sanitized.removedOrphanResults.includes(i)) expect(r.report.warnings.some((w) => w.startsWith("removed tool results") && (w.includes(`${ref},`) || w.includes(`${ref})`)))).toBe(true);
          else if (citing.has(i) && !summarized) expect(wire).toContain(ref);
        });
      }),
      { numRuns: 150 },
    );
  });
});
