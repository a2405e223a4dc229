// A pruned output's line count, salient line and exit status are read once an output: a message
// handed to a later pass again keeps them (src/prune/stand-ins.ts `readingOf`). What a one-liner says
// must not depend on whether they were kept: the same as read anew, and never a reading of the text
// the result held before it changed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact } from "../src/index.js";
import { exitOf } from "../src/facts/call.js";
import { prunedOutputLine } from "../src/prune/stand-ins.js";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { windowed } from "../src/redact/window.js";
import { trajectories } from "./support/fixtures.js";

completed(core);
const redactor = windowed(core);

/** Outputs with error words and exit statuses in any case, at word boundaries or inside words, across lines, with non-ASCII and long lines. */
const outputs = fc
  .array(
    fc.oneof(
      fc.constantFrom("error", "Exception", "TRACEBACK", "failed", "fAilure", "fatal", "panic", "denied", "not found", "errors", "xerror", "Not Found"),
      fc.constantFrom("exit code 3", "Exit Status: 12", "exited with code -1", "returncode=0", "return_code 256", "EXITED 4"),
      fc.constantFrom("\n", "\n\n", " ", "_", "-", "\u0130", "\u212a", "é", "😀", "  \t"),
      fc.string({ maxLength: 12 }),
      fc.nat(3000).map((n) => "x".repeat(n)),
    ),
    { maxLength: 16 },
  )
  .map((p) => p.join(""));

describe("a pruned output's reading, kept by its message", () => {
  it("gives the one-liner read anew, kept or not, and after the result's text changed (property)", () => {
    fc.assert(
      fc.property(outputs, outputs, fc.nat(2), (a, b, k) => {
        const message = {};
        const fresh = (o: string) => prunedOutputLine("Bash", o, 0, redactor);
        expect(prunedOutputLine("Bash", a, 0, redactor, undefined, message, k)).toBe(fresh(a));
        expect(prunedOutputLine("Bash", a, 0, redactor, undefined, message, k)).toBe(fresh(a)); // kept
        expect(prunedOutputLine("Bash", b, 0, redactor, undefined, message, k)).toBe(fresh(b)); // changed
        expect(prunedOutputLine("Bash", a, 0, redactor, undefined, message, k + 1)).toBe(fresh(a)); // another result
      }),
      { numRuns: 300 },
    );
  });

  it("gives a view the exit status kept, which the summary's material reads again", () => {
    const output = "running\nexit code 7\n" + "x\n".repeat(200);
    const message = {};
    prunedOutputLine("Bash", output, 0, redactor, undefined, message, 0);
    const view = { text: output };
    const line = prunedOutputLine("Bash", output, 0, redactor, (read) => exitOf(view, read), message, 0);
    expect(line).toContain("exit 7");
    expect(exitOf(view, () => 99)).toBe(7); // read once a view
  });

  it("leaves a pass over the same message objects as one over copies of them: every fixture, twice", async () => {
    let pruned = 0;
    for (const t of trajectories()) {
      for (const contextWindow of [16000, 64000]) {
        const first = JSON.stringify((await compact(t.messages, { contextWindow })).messages);
        const again = JSON.stringify((await compact(t.messages, { contextWindow })).messages);
        const copies = JSON.stringify((await compact(structuredClone(t.messages), { contextWindow })).messages);
        expect(again).toBe(copies);
        expect(first).toBe(copies);
        pruned += copies.split("[output pruned").length - 1;
      }
    }
    expect(pruned).toBeGreaterThan(50); // the outputs kept are read again
  });
});
