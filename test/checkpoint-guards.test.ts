// The checkpoint reads a text for paths, a plan's boxes and URLs only where what it looks for may be
// (a slash, "] ", "http": matchAll copies its pattern on every call), and picks a call's quoted values
// in a loop: the same readings as before (./support/checkpoint-reference.ts), on text built to reach them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clip } from "../src/facts/call.js";
import { failedOutput, namesPath, pathsIn, PATH_KEYS, verdict } from "../src/facts/outcome.js";
import { redactor } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { refOf } from "../src/refs.js";
import { ledgers, steps } from "../src/summarize/ledgers.js";
import type { HandoffTurn } from "../src/summarize/types.js";
import { deterministicCheckpoint, parseCheckpoint, quotedOf } from "../src/summarizers/deterministic.js";
import { formerBoxes, formerFailed, formerNamesPath, formerPathsIn, formerQuoted, formerSteps, formerUrls } from "./support/checkpoint-reference.js";
import { trajectories } from "./support/fixtures.js";
import { linesOf } from "./support/spans.js";

completed(redactor);

/** Pieces of paths, boxes and URLs, their near misses, and real lines of agents' words and tool outputs. */
const PIECES = [
  ...["- [ ] ", "* [x] ", "  - [X] ", "-[ ] ", "- [] ", "] ", "[", "]", "-", "*", " ", "\t", "\n", "\r\n", "write the tests", "x"],
  ...["src/a.ts", "./b/c.py", "../d.md", "~/x/y.json", "/abs/lib/e.exs:42", "dir/", "a.b", ".", "/", "@", "+", "é", "😀"],
  ...["http", "https", "://", "http://", "https://example.com/a?b=c", "example.com/path", "htt", "p:/", "(", ")", '"', "'", "`", "=", ":", ",", ";"],
  ...["[output pruned", "Exit code 1"],
];
const LINES = linesOf(trajectories().slice(0, 4), 20).slice(0, 200);
const text = fc
  .array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }), { maxLength: 40 })
  .map((p) => p.join(""));

describe("the checkpoint's readings of a text, only where what they look for may be", () => {
  it("finds the same paths", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(pathsIn(t)).toEqual(formerPathsIn(t));
        expect(namesPath(t)).toBe(formerNamesPath(t));
      }),
      { numRuns: 3000 },
    );
  });

  it("finds the same plan in an agent's words", () => {
    fc.assert(
      fc.property(text, (t) => {
        const boxes = formerBoxes(t);
        expect(ledgers([{ index: 3, role: "assistant", text: t, toolCalls: [] }]).plan).toEqual(boxes.length ? { items: boxes, at: 3 } : undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it("quotes the same URLs", () => {
    fc.assert(
      fc.property(text, (t) => {
        // words of a user, and the agent's last words (read whole); not one message apart, where a seam is read (src/redact/seams.ts)
        const turns: HandoffTurn[] = [{ index: 1, role: "user", text: t, toolCalls: [] }, { index: 3, role: "assistant", text: t.slice(t.length >> 1), toolCalls: [] }];
        const out = parseCheckpoint(deterministicCheckpoint({ turns, middleCount: 3 }, redactor)).get("Critical values");
        const urls = new Map(turns.flatMap((x) => formerUrls(redactor.redact(x.text)).map((u): [string, number] => [u, x.index])));
        expect(out ?? []).toEqual([...urls].map(([u, i]) => `${clip(u, 200)} ${refOf(i)}`));
      }),
      { numRuns: 500 },
    );
  });

  it("judges an output as before, \"nothing failed\" read last", () => {
    const WORDS = ["error", "Error:", "failed", "0 failed", "0 failures", "0 errors", "3 passed", "FAILURES", "denied", "exit code 1", "Exit code 0", "<tool_use_error>", "exited with code 2", "ok", "x".repeat(300), "\n", " "];
    const output = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: text }), { maxLength: 30 }).map((p) => p.join(" "));
    fc.assert(
      fc.property(output, fc.boolean(), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), (o, command, code) => {
        expect(verdict(o, () => command, () => code).failed).toBe(formerFailed(o, () => command, code));
        expect(failedOutput(o, () => command, () => code)).toBe(formerFailed(o, () => command, code)); // the material's judgement, without the lines
      }),
      { numRuns: 3000 },
    );
  });

  it("splits a command into the same steps, each word read by a pattern only where it may match", () => {
    // quotes at either end or alone, line numbers, assignments, separators, files and near misses
    const WORDS = ["cd", "npm", "test", "mix", "git", "add", "CI=1", "A_B=x", "=x", "a=", "-x", "--flag=v", "&", ">", "2>&1", "<", "$HOME/x", "|", "||", "&&", ";"];
    const FILES = ['"a b.ts"', "'src/x.py'", '"', "'", "\"\"", "lib/a.ex:42", "a.ts:", "b.md:1:2", "x:9", "dir/", "./c", "a.b", "noext", "é/ü.rs", "😀.js", "a.TOOLONGEXT"];
    const word = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...FILES), fc.string({ maxLength: 6 }));
    const space = fc.constantFrom(" ", "  ", "\t", "");
    const command = fc.array(fc.tuple(word, space), { maxLength: 14 }).map((p) => p.map(([w, s]) => w + s).join(""));
    fc.assert(fc.property(command, (c) => void expect(steps(c)).toEqual(formerSteps(c))), { numRuns: 3000 });
    for (const c of new Set(trajectories().flatMap((t) => (t.messages as { tool_calls?: { function: { arguments: string } }[] }[]).flatMap((m) => m.tool_calls ?? []).map((x) => x.function.arguments)))) {
      const line = /"command":\s*"((?:[^"\\]|\\.)*)"/.exec(c)?.[1];
      if (line) expect(steps(JSON.parse(`"${line}"`).split("\n")[0])).toEqual(formerSteps(JSON.parse(`"${line}"`).split("\n")[0]));
    }
  });

  it("quotes the same values of a call's arguments", () => {
    const QUOTED = ["command", "cmd", ...PATH_KEYS];
    const key = fc.oneof(fc.constantFrom(...QUOTED, "description", "content", "__proto__", "toString"), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }), (o) => {
        const args = JSON.parse(JSON.stringify(o)) as Record<string, unknown>; // as parsed from a call's text
        expect(JSON.stringify(quotedOf(args))).toBe(formerQuoted(args, QUOTED));
      }),
      { numRuns: 3000 },
    );
  });
});
