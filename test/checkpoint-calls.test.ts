// The deterministic checkpoint quotes a judged call's command and path as its whole arguments redact
// them; a call's arguments over 1,000 characters are read only as far as those values (and what a
// shape may read past them) where that tells. Against the former reading: every call whole, one
// over 4,000 characters in windows of its leaves (`redactedArguments`).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseArguments, redactedArguments } from "../src/facts/call.js";
import { PATH_KEYS } from "../src/facts/outcome.js";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { windowed } from "../src/redact/window.js";
import { callArguments, quotedArguments } from "../src/summarizers/deterministic.js";
import { SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";
import { trajectories } from "./support/fixtures.js";
import { negatives, positives } from "./support/secrets.js";
import { linesOf } from "./support/spans.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(core);
const redactor = windowed(core);

/** What `quotable` reads of a call's arguments. */
const QUOTED = ["command", "cmd", ...PATH_KEYS];
const quoted = (args: Record<string, unknown> | undefined) => args && JSON.stringify(QUOTED.map((k) => args[k]));

/** The former reading: the whole arguments redacted, in windows of their leaves past 4,000 characters. */
function former(args: string): Record<string, unknown> | undefined {
  if (args.length <= 4000) return parseArguments(redactor.redact(args));
  const clean = redactedArguments(args, redactor)?.clean;
  return clean && typeof clean === "object" && !Array.isArray(clean) ? (clean as Record<string, unknown>) : undefined;
}

/** Pieces of secrets, names and commands a quoted value is made of. */
const PIECES = [
  ...adversarialSeeds(),
  ...SHAPE_EXAMPLES,
  ...["password=", "token: ", "--password ", "-p ", "mysql -uroot ", "sshpass -p ", "scott/", "@dbhost/ORCL", "oracle", "csrf ", "kind: Secret", "-----BEGIN RSA PRIVATE KEY-----"],
  ...["src/a.ts", "/home/u/app/", "npm test", " ", "\n", "\\", '"', "=", ":", "Zx81fQ2mN7pLk3vT9wRy4uHs", "hunter2-Qx9vL7mZ4"],
];
const PLAIN = ["src/a.ts", "/home/u/app/lib/", "npm test", "mix test test/a_test.exs:42", "git status", "cd /tmp && ls", " ", "-", "_", "."];
const value = fc
  .array(fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...PLAIN) }, { weight: 1, arbitrary: fc.constantFrom(...PIECES) }), { minLength: 1, maxLength: 8 })
  .map((p) => p.join(""));
/** Lines of secrets (shared corpus) and of real tool outputs: a sibling's long text. */
const LINES = [
  ...positives().map((p) => p.line),
  ...negatives().map((n) => n.line),
  ...linesOf(trajectories().slice(0, 3), 20).slice(0, 300),
  `secret_token: "hello world Qx9vL7mZ4pR2 ${"and more ".repeat(40)}"`,
];
const SECRET_LINES = LINES.filter((l) => redactor.redact(JSON.stringify(`x\n${l}\n`)) !== JSON.stringify(`x\n${l}\n`));
const doc = fc
  .array(fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...LINES.filter((l) => !SECRET_LINES.includes(l))) }, { weight: 1, arbitrary: fc.constantFrom(...SECRET_LINES) }), { minLength: 1, maxLength: 60 })
  .map((l) => l.join("\n"));
/** A file's content or an edit's string: past 4,000 characters the former reading took windows of its leaves. */
const long = fc.array(doc, { minLength: 4, maxLength: 8 }).map((d) => d.join("\n"));
const args = fc
  .tuple(
    fc.record({ command: value, file_path: value, cmd: fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: fc.array(value, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant(`run ${"x ".repeat(200)}`) }), path: value }, { requiredKeys: [] }),
    fc.record({ description: fc.oneof(value, doc), content: fc.oneof(doc, long), old_string: doc, password: value, note: doc }, { requiredKeys: [] }),
    fc.nat(),
  )
  .map(([q, rest, seed]) => {
    // the quoted values first (as agents write an edit or a file), or among the others in any order
    const entries = [...Object.entries(q), ...Object.entries(rest)];
    for (let i = entries.length - 1; i > 0 && seed % 3; i--) {
      const j = (seed + i * 7919) % (i + 1);
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
    return JSON.stringify(Object.fromEntries(entries));
  });

describe("a judged call's arguments, as the checkpoint reads them", () => {
  it("quote what the whole arguments' redaction quotes (property)", () => {
    const windows = [0, 0]; // up to 4,000 characters, past that
    fc.assert(
      fc.property(args, (a) => {
        if (a.length > 1000 && quotedArguments(a, redactor)) windows[+(a.length > 4000)]++;
        const read = callArguments(a, redactor);
        expect(read === undefined).toBe(former(a) === undefined);
        expect(quoted(read)).toBe(quoted(former(a)));
      }),
      { numRuns: 1500 },
    );
    expect(Math.min(...windows)).toBeGreaterThan(20);
  });

  it("are read as far as their quoted values where nothing is masked there, else whole", () => {
    const edit = (path: string) => JSON.stringify({ file_path: path, old_string: "a\n".repeat(800), new_string: "b\n".repeat(800) });
    expect(quotedArguments(edit("src/a.ts"), redactor)?.file_path).toBe("src/a.ts");
    // a password beside the path: the window masks it, and the whole arguments are read
    const secret = edit("src/a.ts password: hunter2-Qx9vL7mZ4");
    expect(quotedArguments(secret, redactor)).toBeUndefined();
    expect(callArguments(secret, redactor)?.file_path).not.toContain("hunter2");
    // a key spelled with an escape; a key repeated after a long value (JSON.parse reads the last)
    const pad = "x y ".repeat(400);
    const escaped = `{"file\\u005fpath":"src/a.ts","content":"${pad}"}`;
    const repeated = `{"file_path":"a.ts","content":"${pad}","file_path":"b.ts password: hunter2-Qx9vL7mZ4"}`;
    expect(quotedArguments(escaped, redactor)?.file_path).toBe("src/a.ts");
    expect(quotedArguments(repeated, redactor)).toBeUndefined();
    for (const a of [escaped, repeated]) expect(quoted(callArguments(a, redactor))).toBe(quoted(former(a)));
    // a Secret manifest anywhere: no window tells
    expect(quotedArguments(JSON.stringify({ file_path: "k.yaml", content: `${"x\n".repeat(600)}kind: Secret\ndata:\n  a: b` }), redactor)).toBeUndefined();
  });

  it("read whole where an escape's region may run from a quoted value to a context past the window (property)", () => {
    // Arguments are one line: escape regions (./src/redact/index.ts, `encodedOf`) that overlap join, and
    // a region that starts at `u/pass1%40h` may reach an Oracle context 1,000 characters on, which a
    // window cut short never sees. The review's leak: the password quoted raw.
    for (const at of ["%40", "\\u0040"]) {
      const leak = `{"command":"u/pass1${at}h:","x":"%41${"a".repeat(1000)} oracle"}`;
      expect(callArguments(leak, redactor)?.command).not.toContain("pass1");
      expect(quoted(callArguments(leak, redactor))).toBe(quoted(former(leak)));
    }
    const escaped = fc.constantFrom("%40", "\\u0040", "%41", "\\u0041", "%2F", "\\u002f");
    const run = fc.tuple(escaped, fc.constantFrom("a", "Zx8", "tok-", "x y "), fc.integer({ min: 1, max: 400 })).map(([e, r, n]) => e + r.repeat(n));
    const context = fc.constantFrom(" oracle", " sqlplus", " db:1521", " jdbc%3Aoracle", " nothing");
    const line = fc
      .tuple(fc.constantFrom("u/pass1", "scott/tig3r9x", "app/Hx8qLw2z", "npm test"), escaped, fc.constantFrom("h:", "db/orcl", "dbhost:1521/XE"), fc.array(run, { minLength: 1, maxLength: 6 }), context, fc.boolean())
      .map(([user, at, host, runs, ctx, path]) => JSON.stringify({ [path ? "file_path" : "command"]: user + at + host, x: runs.join(" ") + ctx }).replace(/\\\\/g, "\\"));
    fc.assert(
      fc.property(line, (a) => {
        expect(quoted(callArguments(a, redactor))).toBe(quoted(former(a)));
      }),
      { numRuns: 1500 },
    );
  });
});
