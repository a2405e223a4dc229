// The output's fingerprint is hashed message by message, each message's piece kept by object
// (src/report/cache.ts): it must equal the fingerprint of the whole JSON, whatever the messages hold,
// however often the same objects come back, and after one is changed in place. And without a count
// kept for a message (not counted by object), each is hashed every time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { counted } from "../src/estimate/index.js";
import { fingerprint } from "../src/fingerprint.js";
import { sentFingerprint as sent } from "../src/report/cache.js";
import { trajectories } from "./support/fixtures.js";

/**
 * A piece is kept beside a message's count (by object): as a pass finds it once `plan` has counted
 * the message, each object here has an entry (an empty one: the pieces' slot is all that is read).
 */
function sentFingerprint(messages: unknown[]): string | undefined {
  for (const m of messages) if (m !== null && typeof m === "object" && !counted.has(m)) counted.set(m, [] as never);
  return sent(messages);
}

const whole = (messages: unknown[]) => {
  try {
    return fingerprint(messages);
  } catch {
    return undefined;
  }
};

// JSON values, and things JSON writes its own way: undefined (left out, or null in an array), a Date, a toJSON, a hole.
const odd = fc.constantFrom<unknown>(undefined, new Date(0), { toJSON: (k: string) => `key ${k}` }, [1, , 2], NaN, -0, Infinity, { "{": "}" }, Object.create(null));
const value = fc.oneof({ arbitrary: fc.jsonValue(), weight: 5 }, odd);
const message = fc.oneof(
  { arbitrary: fc.dictionary(fc.constantFrom("role", "content", "{", "}", "tool_calls", "__proto__"), value), weight: 5 },
  value,
);

describe("sentFingerprint", () => {
  it("equals the hash of the whole JSON, for the same objects again, reordered, and changed in place", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 8 }), fc.jsonValue(), (messages, order, changed) => {
        for (let k = 0; k < 3; k++) expect(sentFingerprint(messages)).toBe(whole(messages)); // seen, then kept, then read
        const again = order.map((k) => messages[k % Math.max(1, messages.length)]).filter((m) => m !== undefined || messages.length);
        expect(sentFingerprint(again)).toBe(whole(again));
        const m = messages.find((x) => x !== null && typeof x === "object" && !Object.isFrozen(x)) as Record<string, unknown> | undefined;
        if (m) {
          if (Array.isArray(m)) m.push(changed);
          else m.content = changed;
          expect(sentFingerprint(messages)).toBe(whole(messages));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("a nested value changed in place is seen (a message's parts are not kept by object)", () => {
    const parts = [{ type: "text", text: "a" }];
    const messages = [{ role: "user", content: parts }, { role: "assistant", content: "b" }];
    sentFingerprint(messages);
    const before = sentFingerprint(messages);
    parts[0].text = "c";
    expect(sentFingerprint(messages)).toBe(whole(messages));
    expect(sentFingerprint(messages)).not.toBe(before);
  });

  it("equals it on every fixture, each time (every piece kept from the second on) and for each prefix", () => {
    for (const t of trajectories()) {
      const messages = (t as { messages: unknown[] }).messages;
      for (let k = 0; k < 3; k++) expect(sentFingerprint(messages)).toBe(whole(messages)); // seen, then kept, then read
      const n = Math.floor(messages.length / 2);
      expect(sentFingerprint(messages.slice(0, n))).toBe(whole(messages.slice(0, n)));
    }
  });

  it("a Date changed in place is seen (JSON reads its time, which no key holds)", () => {
    const at = new Date(0);
    const messages = [{ role: "user", content: "a", at }];
    for (let k = 0; k < 3; k++) expect(sentFingerprint(messages)).toBe(whole(messages));
    at.setTime(1);
    expect(sentFingerprint(messages)).toBe(whole(messages));
  });

  it("an array is not read as an object with the same leaves, nor an empty one as an empty object", () => {
    for (const [before, after] of [[{}, []], [["0", "a"], { 0: "a" }], [{ a: { b: 1 }, c: 2 }, { a: { b: 1, c: 2 } }]]) {
      const messages: Record<string, unknown>[] = [{ role: "user", content: before }];
      for (let k = 0; k < 3; k++) expect(sentFingerprint(messages)).toBe(whole(messages));
      messages[0].content = after;
      expect(sentFingerprint(messages)).toBe(whole(messages));
    }
  });

  it("a cycle has none, as JSON has none", () => {
    const m: Record<string, unknown> = { role: "user" };
    m.self = m;
    expect(sentFingerprint([m])).toBeUndefined();
  });
});

describe("sentFingerprint, messages not counted by object", () => {
  it("equals the hash of the whole JSON", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        for (let k = 0; k < 3; k++) expect(sent(messages)).toBe(whole(messages));
      }),
    );
  });
});

describe("sentFingerprint, an array's own toJSON", () => {
  it("is written as JSON writes it, and again once it is gone", () => {
    const parts: unknown[] & { toJSON?: () => string } = [{ type: "text", text: "a" }];
    const messages = [{ role: "user", content: parts }];
    expect(sentFingerprint(messages)).toBe(whole(messages));
    parts.toJSON = () => "parts";
    expect(sentFingerprint(messages)).toBe(whole(messages));
    delete parts.toJSON;
    expect(sentFingerprint(messages)).toBe(whole(messages));
  });
});
