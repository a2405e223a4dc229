// Issue 29 item 2: one-liners are computed once per pruned output. A pass that drafts the middle and
// then accepts pruning writes the one-liners again through redaction; what it learnt of each output
// that redaction does not change (its size, lines, exit status, where its salient line starts) is read
// once, only the quoted line goes through redaction. Counted here by the scans themselves: the error
// word's pattern and the line count's `indexOf("\n")` on each pruned output.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { compact, plan, previewPrune, type ChatMessage } from "../src/index.js";
import { outputFacts, prunedOutputLine } from "../src/prune/stand-ins.js";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { windowed } from "../src/redact/window.js";
import { assistant, call, filler, sys, user } from "./support/build.js";
import { prunedOutputLineReference } from "./support/one-liner-reference.js";
import { positives } from "./support/secrets.js";

completed(core);
const redactor = windowed(core);
/** Redaction that never reads a window: the whole output is redacted and read again for its line. */
const whole = { ...redactor, redactFrom: () => undefined, readTo: () => undefined };
/** Quoting that reads nothing, as a draft's (src/prune/index.ts `DRAFT`). */
const draft = { ...redactor, redact: (t: string) => t, redactFrom: (t: string, from: number) => t.slice(from), readTo: () => undefined, readFrom: () => 0 };

const TOKEN = `ghp_${"a1B2c3D4e5".repeat(4)}`;

/** Outputs of every kind a one-liner states: an error line (masked or not), an exit status, none of either. */
function output(i: number, words: number): string {
  switch (i % 4) {
    case 0: return `${filler(words)}\nError: token ${TOKEN} rejected at step${i}\nexit code: 2`;
    case 1: return `${filler(words)}\nbuild failed at step${i}`;
    case 2: return `\n  ${filler(words)} step${i}\nexited with code 0`;
    default: return `${filler(words)}\nall good at step${i}`;
  }
}

function agent(turns: number, words: number): ChatMessage[] {
  const m: ChatMessage[] = [sys(), user("Fix the build"), assistant("Looking.")];
  for (let i = 0; i < turns; i++) m.push(...call("Bash", { command: `make step${i}` }, output(i, words)));
  m.push(user("and then?"), assistant("next"));
  return m;
}

const originals = { exec: RegExp.prototype.exec, indexOf: String.prototype.indexOf };
afterEach(() => {
  RegExp.prototype.exec = originals.exec;
  String.prototype.indexOf = originals.indexOf;
});

/** Scans of the watched texts (each also as its first 20,000 characters), by the error word's pattern, the exit status's, and a line count's first `indexOf("\n")`. */
function watchScans(texts: string[]) {
  const heads = new Map(texts.flatMap((t) => [[t, t], [t.slice(0, 20_000), t]]));
  const scans = { errorWord: new Map<string, number>(), lines: new Map<string, number>(), exit: new Map<string, number>() };
  const seen = (into: Map<string, number>, t: string) => into.set(t, (into.get(t) ?? 0) + 1);
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    const t = heads.get(s);
    if (t !== undefined && this.source.includes("traceback") && this.source.includes("not found")) seen(scans.errorWord, t);
    if (t !== undefined && this.source.includes("returncode")) seen(scans.exit, t);
    return originals.exec.call(this, s);
  };
  String.prototype.indexOf = function (this: string, ...args: [string, number?]) {
    if (args.length === 1 && args[0] === "\n" && heads.get(this) === this) seen(scans.lines, this);
    return originals.indexOf.apply(this, args);
  };
  return scans;
}

describe("one-liners computed once per pruned output", () => {
  it("a drafted pass that accepts pruning scans each pruned output once for its error word and once for its lines, and writes what a prune without drafts writes", async () => {
    const m = agent(40, 2500);
    const o = { contextWindow: 30_000 };
    const p = plan(m, o);
    expect(p.tokens.total).toBeGreaterThan(5 * p.pruneTarget); // the pass drafts the middle first
    const outputs = m.filter((x) => x.role === "tool").map((x) => String(x.content));
    const scans = watchScans(outputs);
    const r = await compact(m, o);
    String.prototype.indexOf = originals.indexOf;
    RegExp.prototype.exec = originals.exec;
    expect(r.report.mode).toBe("prune"); // pruning accepted after the draft
    const pruned = r.report.pruned.filter((x) => x.kind === "tool_output").map((x) => String(m[x.index].content));
    expect(pruned.length).toBeGreaterThan(20);
    for (const t of pruned) {
      expect(scans.errorWord.get(t)).toBe(1);
      expect(scans.lines.get(t)).toBe(1);
    }
    // the lines say what they said: the items and messages of a prune that never drafted
    const preview = previewPrune(m, o);
    expect(r.report.pruned).toEqual(preview.items);
    const lines = r.messages.filter((x) => String(x.content).startsWith("[output pruned #")).map((x) => String(x.content));
    expect(lines.some((x) => /exit 2; "Error: token ghp_…\[REDACTED\] rejected/.test(x))).toBe(true);
    expect(lines.some((x) => /exit 0; "word0 word1/.test(x))).toBe(true);
    expect(lines.some((x) => /lines; "build failed at step/.test(x))).toBe(true);
  });
});

describe("one-liners' facts once per output across passes", () => {
  it("a pass given the same message objects again reads no output again for its facts; an output replaced in place is read again, and the lines are a fresh pass's", async () => {
    const m = agent(40, 2500);
    const o = { contextWindow: 30_000 };
    const outputs = m.filter((x) => x.role === "tool").map((x) => String(x.content));
    const first = await compact(m, o); // (an SDK's call: the objects it is given next are these)
    const scans = watchScans(outputs);
    const again = await compact(m, o);
    String.prototype.indexOf = originals.indexOf;
    RegExp.prototype.exec = originals.exec;
    const pruned = again.report.pruned.filter((x) => x.kind === "tool_output").map((x) => String(m[x.index].content));
    expect(pruned.length).toBeGreaterThan(20);
    for (const t of pruned) {
      expect(scans.errorWord.get(t)).toBeUndefined();
      expect(scans.lines.get(t)).toBeUndefined();
    }
    // nor any output for its exit status (the summary's material states it too): the pass works on the views the estimate kept
    for (const t of outputs) expect(scans.exit.get(t)).toBeUndefined();
    expect(again.messages).toEqual(first.messages);
    expect(again.messages).toEqual((await compact(structuredClone(m), o)).messages); // new objects: every fact read anew
    // the same object, its output replaced: its facts are read from the new text
    const k = m.findIndex((x) => x.role === "tool" && x.content === pruned[0]);
    const replaced = `${filler(2500)}\nSegmentation fault at step99\nexit code: 139`;
    m[k] = Object.assign(m[k], { content: replaced });
    const watched = watchScans([replaced]);
    const changed = await compact(m, o);
    String.prototype.indexOf = originals.indexOf;
    RegExp.prototype.exec = originals.exec;
    expect(watched.errorWord.get(replaced)).toBe(1);
    expect(changed.messages).toEqual((await compact(structuredClone(m), o)).messages);
    expect(changed.messages.some((x) => /exit 139; "word0 word1/.test(String(x.content)))).toBe(true);
  });
});

describe("a one-liner written with the facts a draft learnt", () => {
  // Pieces that reach every fact and both ways of quoting: error words in any case (within and past the
  // first 20,000 characters), exit statuses, blank lines and leading whitespace, secrets on the salient
  // line or beside it (a mask changes the line, or nothing is masked and the whole reads as the raw).
  const secrets = positives().slice(0, 30).map((p) => p.line);
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("\n", "\n\n", "  ", "\t", "word ", "Error: ", "FAILED ", "not found", "traceback", "exit code: 1", "exited with code 0", "returncode=3", "é→ ", "kind: Secret\n", "password: ") },
    { weight: 1, arbitrary: fc.constantFrom(...secrets) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom("x".repeat(20_010), "line\n".repeat(4_100)) },
  );
  const output = fc.array(piece, { maxLength: 14 }).map((p) => p.join(""));

  it("equals the line written from scratch, redacted by windows or whole, for outputs with and without images (property)", () => {
    fc.assert(
      fc.property(output, fc.nat(3), (text, images) => {
        const learnt = outputFacts(text, images); // what the draft learnt, read once
        expect(prunedOutputLine("Bash", text, images, draft, learnt)).toBe(prunedOutputLineReference("Bash", text, images, draft));
        for (const r of [redactor, whole]) expect(prunedOutputLine("Bash", text, images, r, learnt)).toBe(prunedOutputLineReference("Bash", text, images, r));
      }),
      { numRuns: 400 },
    );
  });
});
