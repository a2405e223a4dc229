// Issue 30 items 1 and 5 in the worker: proposals a session holds for review, accepted as proposed or
// edited, expiring when the session moves on; a stall shows in x-compaction-mode.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../workers/app.js";
import { trajectories } from "../portable/fixtures.gen.js";

const auth = { authorization: "Bearer test-token", "content-type": "application/json" };
/** A POST with a JSON body, or with none at all (as `curl -X POST` sends it). */
const post = (path: string, body?: unknown) =>
  SELF.fetch(`http://localhost${path}`, body === undefined ? { method: "POST", headers: { authorization: auth.authorization } } : { method: "POST", headers: auth, body: JSON.stringify(body) });
const big = trajectories.find((t) => t.name.startsWith("claude-code-spotter__4d5611e5-241a"))!.messages;
const OPTIONS = { contextWindow: 32_000 };

afterEach(() => vi.restoreAllMocks());

interface ProposalBody {
  id: string;
  handoff?: string;
  replaces: number[];
  messages: unknown[];
  report: { mode: string; tokensAfter: number };
  plan: { shouldCompact: boolean };
}
const session = async (id: string) => (await (await SELF.fetch(`http://localhost/v1/sessions/${id}`, { headers: auth })).json()) as { state: { compactions: number; previousSummary?: string } | null; reports: unknown[] };

describe("proposals", () => {
  it("a proposal changes nothing in the session; accepting it applies exactly what it showed", async () => {
    const id = "review-accept";
    const res = await post(`/v1/sessions/${id}/proposals`, { messages: big, options: OPTIONS });
    expect(res.status).toBe(200);
    const p = (await res.json()) as ProposalBody;
    expect(res.headers.get("x-compaction-mode")).toBe(p.report.mode);
    expect(p.report.mode).toBe("summary");
    expect(p.handoff).toBeTruthy();
    expect(p.replaces.length).toBeGreaterThan(0);
    expect((await session(id)).state).toBeNull(); // nothing applied yet
    const accepted = await post(`/v1/sessions/${id}/proposals/${p.id}/accept`);
    expect(accepted.status).toBe(200);
    const r = (await accepted.json()) as { messages: unknown[]; report: { mode: string } };
    expect(accepted.headers.get("x-compaction-mode")).toBe("summary");
    expect(r.messages).toEqual(p.messages);
    const s = await session(id);
    expect(s.state?.compactions).toBe(1);
    expect(s.state?.previousSummary).toBe(p.handoff);
    expect(s.reports).toHaveLength(1);
    // Accepted once: gone.
    expect((await post(`/v1/sessions/${id}/proposals/${p.id}/accept`)).status).toBe(404);
  });

  it("an edited handoff is redacted and checked before it enters the session", async () => {
    const id = "review-edit";
    const p = (await (await post(`/v1/sessions/${id}/proposals`, { messages: big, options: OPTIONS })).json()) as ProposalBody;
    const key = "AKIAZ7Q3R4M5N6P7W2XY";
    const res = await post(`/v1/sessions/${id}/proposals/${p.id}/accept`, { handoff: `## Active task\n- deploy with aws_access_key_id = ${key}` });
    expect(res.status).toBe(200);
    const r = (await res.json()) as { report: { summary: { edited: boolean; check: unknown } }; state: { previousSummary: string } };
    expect(JSON.stringify(r)).not.toContain(key);
    expect(r.report.summary.edited).toBe(true);
    expect(r.report.summary.check).toBeDefined();
    expect((await session(id)).state?.previousSummary).toContain("## Active task\n- deploy with");
  });

  it("a proposal expires (409) once the session moves on, and an unknown one is a 404", async () => {
    const id = "review-expire";
    const first = (await (await post(`/v1/sessions/${id}/proposals`, { messages: big, options: OPTIONS })).json()) as ProposalBody;
    const second = (await (await post(`/v1/sessions/${id}/proposals`, { messages: big, options: OPTIONS })).json()) as ProposalBody;
    expect(first.id).not.toBe(second.id);
    // A pass in the same session: the transcript moved on.
    expect((await post("/v1/compact", { messages: big, options: OPTIONS, sessionId: id })).status).toBe(200);
    const res = await post(`/v1/sessions/${id}/proposals/${first.id}/accept`);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { type: "proposal_expired", message: expect.stringMatching(/moved on since it was made/) } });
    const unknown = await post(`/v1/sessions/${id}/proposals/nope/accept`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { type: "not_found" } });
  });

  it("bad input is a 400 naming the problem", async () => {
    const p = (await (await post(`/v1/sessions/review-bad/proposals`, { messages: big, options: OPTIONS })).json()) as ProposalBody;
    const empty = await post(`/v1/sessions/review-bad/proposals/${p.id}/accept`, { handoff: "  " });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { message: expect.stringMatching(/the edited handoff is empty/) } });
    const extra = await post(`/v1/sessions/review-bad/proposals/${p.id}/accept`, { handoff: "x", force: true });
    expect(extra.status).toBe(400);
    expect((await post(`/v1/sessions/review-bad/proposals`, { messages: big })).status).toBe(400);
  });
});

describe("a stall through the proxy", () => {
  it("an agent loop that cannot get under the threshold is answered with x-compaction-mode: stalled until the user speaks", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }] }));
    const upstream = { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1" };
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(" ");
    let history: unknown[] = [{ role: "user", content: `Refactor the parser. ${words(3000, "req")}` }];
    const modes: string[] = [];
    const send = async () => {
      const res = await app.request("http://localhost/v1/chat/completions", { method: "POST", headers: { ...auth, "x-session-id": "review-stall", "x-context-window": "12000" }, body: JSON.stringify({ model: "gpt-4o", messages: history }) }, upstream, ctx);
      expect(res.status).toBe(200);
      await res.text();
      modes.push(res.headers.get("x-compaction-mode")!);
    };
    for (let k = 0; k < 8; k++) {
      history = [
        ...history,
        { role: "assistant", content: null, tool_calls: [{ id: `c${k}`, type: "function", function: { name: "grep", arguments: `{"q":"${k}"}` } }] },
        { role: "tool", tool_call_id: `c${k}`, content: words(900, `out${k}_`) },
      ];
      await send();
    }
    expect(modes).toContain("stalled");
    expect(modes.at(-1)).toBe("stalled");
    history = [...history, { role: "assistant", content: "Grep is done." }, { role: "user", content: "Now write the tests." }];
    await send();
    expect(modes.at(-1)).not.toBe("stalled");
  });
});
