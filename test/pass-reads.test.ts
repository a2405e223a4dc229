// The pass's own shortcuts (src/facts/call.ts, src/summarizers/deterministic.ts) against what they
// replaced: the same results on any input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clip, exitCode, exitOf } from "../src/facts/call.js";
import { namesPath, pathsIn } from "../src/facts/outcome.js";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { windowed } from "../src/redact/window.js";
import { argumentsOf, redactedCalls } from "../src/summarize/ledgers.js";
import type { HandoffTurn } from "../src/summarize/types.js";
import { positives } from "./support/secrets.js";

completed(core);
const redactor = windowed(core);

/** clip as it was: every run of whitespace folded, always. */
function formerClip(s: string, max: number): string {
  const flat = s.slice(0, max * 4).replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(" ", max - 1);
  return `${flat.slice(0, space > max - 41 ? space : max - 2)} …`;
}

const spaced = fc.string({ unit: fc.constantFrom("a", "b", " ", "  ", "\n", "\t", "\u00a0", "\ufeff", "\r\n", "x y", "é", "…"), maxLength: 400 });

describe("the pass's shortcuts", () => {
  it("clip folds whitespace as it did, folding nothing where every run is one space", () => {
    fc.assert(
      fc.property(fc.oneof(spaced, fc.string({ maxLength: 300 })), fc.integer({ min: 2, max: 200 }), (s, max) => {
        expect(clip(s, max)).toBe(formerClip(s, max));
      }),
      { numRuns: 2000 },
    );
  });

  it("exitOf is exitCode of the view's text, read once a view", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("exit code ", "exited with ", "returncode=", "1", "0", "-", "a", " ", "\n"), maxLength: 60 }), (text) => {
        const view = { text };
        expect(exitOf(view)).toBe(exitCode(text));
        expect(exitOf(view)).toBe(exitCode(text));
      }),
    );
  });
});

describe("namesPath", () => {
  it("says whether pathsIn finds any", () => {
    const unit = fc.constantFrom("src/", "a.ts", "./", "/", "~/", " ", "\n", "x", ".", "(", "`", "[output pruned", "é", "a/b.c", ")");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        expect(namesPath(text)).toBe(pathsIn(text).length > 0);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("redactedCalls", () => {
  it("redacts a repeated call's arguments once, to what the batch of every call gave", () => {
    const secrets = positives().slice(0, 40).map((x) => x.line);
    const args = fc.oneof(
      fc.constantFrom(...secrets).map((x) => JSON.stringify({ command: x, description: "run it" })),
      fc.constantFrom("npm test", "sqlplus scott/tiger@db", "ls -la", "password: hunter2hunter2").map((command) => JSON.stringify({ command })),
      fc.constantFrom(...secrets).map((x) => JSON.stringify({ file_path: "/a/b.ts", content: `kind: Secret\ndata:\n  key: ${x}` })),
    );
    fc.assert(
      fc.property(fc.array(args, { minLength: 1, maxLength: 12 }), (all) => {
        const turns: HandoffTurn[] = all.map((a, index) => ({ index, role: "tool", text: "", toolCalls: [], call: { name: "Bash", arguments: a } }));
        const former = redactor.redactMany(turns.map((t) => argumentsOf(t.call!)));
        const now = redactedCalls(turns, redactor.redactMany);
        turns.forEach((t, i) => expect(now.get(t.call!)).toBe(former[i]));
      }),
      { numRuns: 200 },
    );
  });
});
