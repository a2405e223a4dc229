// Issue 29: redaction reads what leaves a pass once, whichever stage asks for it (a call's arguments
// pruned and archived, a failed output the summary quotes and the archive keeps, an output archived
// twice, the windows one-liners quote).
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { compact } from "../src/index.js";
import { redactor, streamKit } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { readOnce } from "../src/pass.js";
import { trajectory } from "./support/fixtures.js";

// the whole catalogue first: a pass reads with it, and the redactor it completes is the one watched here
completed(redactor);

const originals = { redact: redactor.redact, kit: streamKit.redact };
afterEach(() => {
  redactor.redact = originals.redact;
  streamKit.redact = originals.kit;
});

/** Every text the redactor is asked to read, as often as it is asked. */
function recordReads(): Map<string, number> {
  const reads = new Map<string, number>();
  const counted = (redact: (t: string) => string) => (t: string) => (reads.set(t, (reads.get(t) ?? 0) + 1), redact(t));
  redactor.redact = counted(originals.redact);
  streamKit.redact = counted(originals.kit);
  return reads;
}

describe("a pass reads each text it redacts once", () => {
  it.each([32_000, 128_000])("at a %i window, the archive read too", async (contextWindow) => {
    const messages = structuredClone(trajectory("claude-code-spotter__4d5611e5-241a").messages);
    const reads = recordReads();
    const r = await compact(messages, { contextWindow });
    expect(r.archive).toBeDefined();
    JSON.stringify(r.archive); // every entry redacted, as a caller who stores it reads it
    expect(reads.size).toBeGreaterThan(100);
    expect([...reads].filter(([, n]) => n > 1).map(([t, n]) => `${n}× ${t.slice(0, 60)}`)).toEqual([]);
  });
});

describe("the pass's memo (by length first)", () => {
  it("answers what the redactor answers and asks it once a text, texts of one length, copies and readings within readings included (property)", () => {
    // few letters, short texts: most share a length; each text asked as a copy of its own (another string object)
    const text = fc.string({ unit: fc.constantFrom("a", "b", "é", "😀"), maxLength: 4 });
    const script = fc.array(fc.tuple(text, fc.option(text, { nil: undefined })), { maxLength: 60 });
    fc.assert(
      fc.property(script, (steps) => {
        const asked = new Map<string, number>();
        const inner = new Map(steps.filter(([, x]) => x !== undefined) as [string, string][]);
        let memo: ReturnType<typeof readOnce>;
        const clean = (t: string) => `${[...t].reverse().join("")}|${t.length}`;
        const r = { ...redactor, redact: (t: string) => {
          asked.set(t, (asked.get(t) ?? 0) + 1);
          const also = inner.get(t); // a reading that asks for another text on the way
          if (also !== undefined && also < t) memo.redact(also); // (in order: no reading asks for itself)
          return clean(t);
        } };
        memo = readOnce({ redact: r.redact, redactMessage: r.redact, streamKit: streamKit });
        for (const [t] of steps) {
          expect(memo.redact(t.split("").join(""))).toBe(clean(t));
          expect(memo.streamKit.redact(t.slice())).toBe(clean(t));
        }
        for (const n of asked.values()) expect(n).toBe(1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the pass's JSON.parse (prune's draft and the checkpoint parse a call's arguments through it)", () => {
  it("answers what JSON.parse answers, throws where it throws, and parses a text once (property)", () => {
    // JSON values and near-misses of few characters: many share a length, some do not parse
    const json = fc.oneof(fc.json({ maxDepth: 2 }), fc.string({ unit: fc.constantFrom("{", "}", "[", "]", '"', "1", ",", ":", "a"), maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(json, { maxLength: 40 }), (texts) => {
        const { parse } = readOnce({ redact: redactor.redact, redactMessage: redactor.redact, streamKit });
        const trees = new Map<string, unknown>();
        for (const t of texts) {
          const copy = t.split("").join(""); // another string object of the same text
          let expected: unknown;
          try {
            expected = JSON.parse(t);
          } catch {
            expect(() => parse!(copy)).toThrow(SyntaxError);
            continue;
          }
          const tree = parse!(copy);
          expect(tree).toEqual(expected);
          if (trees.has(t)) expect(tree).toBe(trees.get(t)); // the same tree: parsed once
          trees.set(t, tree);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
