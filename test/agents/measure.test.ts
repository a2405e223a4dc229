// The agents suite's measures on made-up upstream records: a reused compaction keeps the prefix, a
// new pass per request leaves nothing between compactions, and a secret counts only inside what a
// compaction wrote (not in raw output the agent itself sends again).
import { describe, expect, it } from "vitest";
import { prefixShare, secretInProducts } from "./measure.js";
import { plantSecrets, type Recorded, type Session } from "./upstream.js";

const rec = (messages: unknown[], compacted = false): Recorded => {
  const body = { model: "m", tools: [{ type: "function", function: { name: "read", parameters: { type: "object", properties: { filePath: {} } } } }], messages };
  return { api: "chat", method: "POST", path: "/v1/chat/completions", headers: {}, text: JSON.stringify(body), body, main: true, compacted };
};
const u = (content: string) => ({ role: "user", content });
const HANDOFF = u("[CONTEXT HANDOFF — reference only] read files 0-2");

describe("prefix share between compactions", () => {
  it("counts a reused compaction as kept, and a pass on every request as nothing between compactions", () => {
    const main = [rec([u("a")]), rec([u("a"), u("b")]), rec([HANDOFF, u("c")], true), rec([HANDOFF, u("c"), u("d")], true), rec([HANDOFF, u("c"), u("d"), u("e")], true)];
    expect(prefixShare(main, ["noop", "noop", "prune", "reused", "reused"])).toMatchObject({ eligible: 2, kept: 2, passes: 1, share: 1 });
    expect(prefixShare(main, ["noop", "noop", "prune", "prune", "prune"])).toMatchObject({ eligible: 0, passes: 3 });
    const renumbered = [...main.slice(0, 3), rec([u("[CONTEXT HANDOFF — reference only] read files 0-2 (#1.7)"), u("c"), u("d")], true)];
    expect(prefixShare(renumbered, ["noop", "noop", "prune", "reused"])).toMatchObject({ eligible: 1, kept: 0, share: 0 });
  });
});

describe("a secret in compaction products", () => {
  const secrets = plantSecrets();
  const session = (requests: Recorded[]) => ({ requests, secrets }) as unknown as Session;
  const raw = u(`cat big-file-1.txt\n${secrets[0].line}`);
  it("is not counted in raw output the agent sends again, and is counted by its first characters in a handoff", () => {
    expect(secretInProducts(session([rec([u("go"), raw]), rec([u("go"), raw, HANDOFF], true)]))).toEqual([]);
    const partial = u(`[CONTEXT HANDOFF — reference only] ${secrets[0].name}=${secrets[0].body.slice(0, 4)}…[REDACTED]`);
    expect(secretInProducts(session([rec([u("go"), raw]), rec([u("go"), partial], true)]))[0]).toMatch(/AWS_SECRET_ACCESS_KEY/);
    const newest = rec([u("go"), HANDOFF, raw], true);
    expect(secretInProducts(session([rec([u("go")]), newest]), [rec([u("go"), u("x"), raw])])).toEqual([]); // the agent sent it: raw, not a product
    const pruned = u(`[output pruned] cat big-file-1.txt → 3000 lines; GITHUB_TOKEN=ghp_${secrets[1].body}`);
    expect(secretInProducts(session([rec([u("go"), raw]), rec([u("go"), pruned], true)]))[0]).toMatch(/GITHUB_TOKEN/);
  });
});
