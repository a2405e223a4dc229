// A batch (`redactMany`: the texts joined until round 6, each alone since) redacts each text as `redact` reads it alone: a shape's
// check that reads before its match (a session cookie's `cookie`) stops at the text's start. Else a
// neighbour masks or unmasks a value, and a text repeated in a batch gives two readings where the
// pass keeps one: its redaction (src/pass.ts, `readOnce`) reads a repeated call's arguments once, at its first place.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { windowed } from "../src/redact/window.js";
import { argumentsOf, redactedCalls } from "../src/summarize/ledgers.js";
import type { HandoffTurn } from "../src/summarize/types.js";

completed(core);
const { redact, redactMany } = windowed(core);

const args = (command: string) => JSON.stringify({ command });
/** A session id with no cookie named on its own text: `redact` keeps it. */
const session = args("curl -b sid=8f3a9c2e7d1b4f60a1 https://api.example.io/me");
const calls = (all: string[]): HandoffTurn[] => all.map((a, index) => ({ index, role: "tool", text: "", toolCalls: [], call: { name: "Bash", arguments: a } }));

describe("a batch redacts each text as alone", () => {
  it("a neighbour that names a cookie masks no value of the next text", () => {
    const texts = [args("ls"), session, args("cat cookie"), session];
    expect(redact(session)).toBe(session);
    expect(redactMany(texts)).toEqual(texts.map(redact));
  });

  it("a repeated call's arguments read the same at each place (redactedCalls against the batch of every call)", () => {
    const turns = calls([args("ls"), session, args("cat cookie"), session]);
    const every = redactMany(turns.map((t) => argumentsOf(t.call!)));
    const once = redactedCalls(turns, redactMany);
    turns.forEach((t, i) => expect(once.get(t.call!)).toBe(every[i]));
  });

  it("whatever the texts before and after (property)", () => {
    const tail = fc.constantFrom("cookie", "Cookie: ", " --", "public ", "csrf ", "echo $TOKEN", "password is", "mysql -u root", "", "x");
    const head = fc.constantFrom("sid=8f3a9c2e7d1b4f60a1 x", "sessionid=Qm9vdHN0cmFwMTIz9 y", "token=ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE", "a1b2c3d4e5f6a7b8c9d0e1f2", "-pS3cretPassw0rd9", "x");
    const text = fc.tuple(head, fc.string({ maxLength: 12 }), tail).map(([h, s, t]) => `${h}${s}${t}`);
    fc.assert(
      fc.property(fc.array(text, { minLength: 2, maxLength: 6 }), (all) => {
        expect(redactMany(all)).toEqual(all.map(redact));
      }),
      { numRuns: 300 },
    );
  });
});

describe("a text alone", () => {
  it("reads past a NUL of its own: only a batch's joins are a text's start", () => {
    expect(redact("cookie\u0000sid=8f3a9c2e7d1b4f60a1 x")).toBe("cookie\u0000sid=[REDACTED] x");
    expect(redactMany(["cookie\u0000sid=8f3a9c2e7d1b4f60a1 x", "y"])[0]).toBe("cookie\u0000sid=[REDACTED] x");
  });
});
