// Clients resend their whole history every turn. Through the proxies, with a session (x-session-id, or
// the content-keyed one without), a pass runs once per threshold crossing, each request in between
// carries the previous upstream request as its exact prefix (the provider's prompt cache holds), and a
// message keeps its reference (its index in the client's history) in every pass.
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SYSTEM_NOTE, plan, recall, type ChatMessage } from "../../src/index.js";
import { dialects, fromOpenAI } from "../../src/convert.js";
import { app } from "../../workers/app.js";
import type { SessionObject } from "../../workers/session.js";
import { fingerprintOf, rememberedFingerprint } from "../../workers/span.js";
import { trajectories } from "../portable/fixtures.gen.js";

const auth = { authorization: "Bearer test-token", "content-type": "application/json" };
const WINDOW = 32_000;
const session = trajectories.find((t) => t.name.startsWith("claude-code-spotter__4d5611e5-241a"))!.messages as ChatMessage[];

afterEach(() => vi.restoreAllMocks());

type Dialect = "openai" | "anthropic";
interface Sent {
  messages: unknown[];
  system?: unknown;
  mode: string;
  session: string | null;
}

/** The client's requests: its history up to each answer of the model, as it resends it every turn. */
function requests(messages: unknown[]): unknown[][] {
  const out: unknown[][] = [];
  messages.forEach((m, i) => i > 0 && (m as { role: string }).role === "assistant" && out.push(messages.slice(0, i)));
  return out;
}

/** A client talking to the worker turn by turn; the upstream records what it receives. */
function client(dialect: Dialect, headers: Record<string, string>) {
  const bodies: { messages: unknown[]; system?: unknown }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return dialect === "openai"
      ? Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }] })
      : Response.json({ type: "message", role: "assistant", content: [{ type: "text", text: "ok" }] });
  });
  const upstream = { ...env, UPSTREAM_BASE_URL: "http://upstream.test/v1", ANTHROPIC_UPSTREAM_BASE_URL: "http://upstream.test" };
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  return async (messages: unknown[], system?: string): Promise<Sent> => {
    const body = dialect === "openai" ? { model: "gpt-4o", messages } : { model: "claude-sonnet-4", max_tokens: 1000, messages, system };
    const path = dialect === "openai" ? "/v1/chat/completions" : "/v1/messages";
    const res = await app.request(`http://localhost${path}`, { method: "POST", headers: { ...auth, "x-context-window": String(WINDOW), ...headers }, body: JSON.stringify(body) }, upstream, ctx);
    expect(res.status).toBe(200);
    await res.text();
    const sent = bodies.at(-1)!;
    return { messages: sent.messages, system: sent.system, mode: res.headers.get("x-compaction-mode")!, session: res.headers.get("x-compaction-session") };
  };
}

const isPrefix = (a: unknown[], b: unknown[]) => a.length <= b.length && a.every((m, i) => JSON.stringify(m) === JSON.stringify(b[i]));
const passed = (mode: string) => mode !== "noop" && mode !== "reused";

/** `[output pruned #N]` stand-ins by tool call id, in an upstream body. */
function citations(messages: unknown[]): [id: string, ref: string][] {
  const out: [string, string][] = [];
  const ref = (text: unknown) => (typeof text === "string" ? /^\[output pruned (#[\d.]+)\]/.exec(text)?.[1] : undefined);
  for (const m of messages as { role: string; content: unknown; tool_call_id?: string }[]) {
    if (m.role === "tool" && ref(m.content)) out.push([m.tool_call_id!, ref(m.content)!]);
    if (m.role === "user" && Array.isArray(m.content)) {
      for (const b of m.content as { type: string; tool_use_id: string; content: unknown }[]) {
        const text = Array.isArray(b.content) ? (b.content as { text?: string }[])[0]?.text : b.content;
        if (b.type === "tool_result" && ref(text)) out.push([b.tool_use_id, ref(text)!]);
      }
    }
  }
  return out;
}

/** Where each tool call's result sits in the client's history. */
function resultIndex(messages: unknown[]): Map<string, number> {
  const at = new Map<string, number>();
  (messages as { role: string; content: unknown; tool_call_id?: string }[]).forEach((m, i) => {
    if (m.tool_call_id) at.set(m.tool_call_id, i);
    if (Array.isArray(m.content)) for (const b of m.content as { type: string; tool_use_id?: string }[]) if (b.type === "tool_result") at.set(b.tool_use_id!, i);
  });
  return at;
}

async function drive(dialect: Dialect, headers: Record<string, string>) {
  const converted = dialect === "openai" ? { messages: session as unknown[], system: undefined } : fromOpenAI(session, "anthropic");
  const send = client(dialect, headers);
  const options = { contextWindow: WINDOW, maxOutputTokens: dialect === "anthropic" ? 1000 : undefined, dialect: dialects[dialect], system: converted.system };
  const sent: Sent[] = [];
  let crossings = 0;
  let retried = 0;
  let previous: { request: unknown[]; sent: Sent } | undefined;
  for (const request of requests(converted.messages)) {
    const out = await send(request, converted.system);
    // What the worker had to judge: the last upstream transcript with the new turns appended.
    const judged = previous ? [...previous.sent.messages, ...request.slice(previous.request.length)] : request;
    const over = plan(judged, { ...options, system: previous?.sent.system ?? converted.system }).tokens;
    if (over.total > over.threshold) crossings++;
    if (passed(out.mode)) expect(over.total, "a pass ran under the threshold").toBeGreaterThan(over.threshold);
    if (passed(out.mode) && retried++ < 3) {
      // The client retries the request that compacted: the same bytes go upstream, no new pass.
      const again = await send(request, converted.system);
      expect(again.mode).toBe("reused");
      expect(JSON.stringify([again.messages, again.system])).toBe(JSON.stringify([out.messages, out.system]));
    }
    sent.push(out);
    previous = { request, sent: out };
  }
  return { sent, crossings, original: converted.messages };
}

function check({ sent, crossings, original }: Awaited<ReturnType<typeof drive>>) {
  const passes = sent.filter((s) => passed(s.mode)).length;
  expect(passes).toBeGreaterThanOrEqual(2);
  expect(passes).toBeLessThanOrEqual(crossings);
  // Between passes, every request carries the previous upstream request as its exact prefix.
  const between = sent.slice(1).map((s, k) => [sent[k], s] as const).filter(([, s]) => !passed(s.mode));
  const kept = between.filter(([a, b]) => isPrefix(a.messages, b.messages) && JSON.stringify(a.system) === JSON.stringify(b.system)).length;
  expect(kept / between.length).toBeGreaterThanOrEqual(0.9);
  expect(sent.filter((s) => s.mode === "reused").length).toBeGreaterThan(sent.length / 2);
  // A pruned output is cited by one reference in every request: its index in the client's history.
  const at = resultIndex(original);
  const refs = new Map<string, Set<string>>();
  for (const s of sent) for (const [id, ref] of citations(s.messages)) refs.set(id, (refs.get(id) ?? new Set()).add(ref));
  expect(refs.size).toBeGreaterThan(5);
  for (const [id, seen] of refs) expect([...seen], id).toEqual([`#${at.get(id)}`]);
  return { passes, requests: sent.length, share: kept / between.length };
}

describe("one pass per threshold crossing, the prefix stable in between", () => {
  for (const dialect of ["openai", "anthropic"] as const) {
    it(`${dialect}: with x-session-id`, { timeout: 300_000 }, async () => {
      const id = `prefix-${dialect}-${crypto.randomUUID()}`;
      const run = await drive(dialect, { "x-session-id": id });
      check(run);
      expect(new Set(run.sent.map((s) => s.session))).toEqual(new Set([id]));
    });

    it(`${dialect}: without a session id, in the session its content picks`, { timeout: 300_000 }, async () => {
      const token = "test-token";
      const run = await drive(dialect, {});
      check(run);
      const keys = new Set(run.sent.map((s) => s.session).filter(Boolean));
      expect(keys.size).toBe(1);
      const [key] = keys;
      expect(key).toMatch(/^auto-[0-9a-f]{40}$/);
      expect(key).not.toContain(token);
      // Readable as any session, and a different client (credential) gets another one.
      const snap = await runInDurableObject(env.SESSIONS.get(env.SESSIONS.idFromName(key!)), (o: SessionObject) => o.snapshot());
      expect(snap.reports.length).toBeGreaterThanOrEqual(2);
      expect(snap.span?.replaces).toBeGreaterThan(0);
    });
  }
});

describe("the session archive's evictions are reported", () => {
  it("names the evicted references in the warnings of the pass that evicted them and in the session", async () => {
    const id = `evict-${crypto.randomUUID()}`;
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(id));
    const passes = await runInDurableObject(stub, async (instance: SessionObject) => {
      instance.archiveCap = 60_000; // a few entries: the first pass fills it, the second evicts
      const at = (n: number) => session.slice(0, n);
      const out = [];
      for (const n of [120, 200]) {
        const r = (await instance.rewrite(at(n), { contextWindow: WINDOW })) as { result: { report: { mode: string; warnings: string[] } } };
        out.push(r.result.report);
      }
      return out;
    });
    expect(passes.map((p) => p.mode).every((m) => m !== "noop" && m !== "reused")).toBe(true);
    const said = passes.flatMap((p) => p.warnings).filter((w) => w.startsWith("session archive:"));
    expect(said.length).toBeGreaterThan(0);
    const [, count, first, last] = /^session archive: (\d+) oldest entries \((#\d+)–(#\d+)\) evicted over its 60000 characters/.exec(said.at(-1)!)!;
    const res = await SELF.fetch(`http://localhost/v1/sessions/${id}`, { headers: auth });
    const snap = (await res.json()) as { evicted: { refs: string; count: number; at: string }[] };
    expect(snap.evicted[0]).toMatchObject({ refs: `${first}–${last}`, count: Number(count) });
    expect(Date.parse(snap.evicted[0].at)).not.toBeNaN();
    const gone = await SELF.fetch(`http://localhost/v1/sessions/${id}/archive/${first.slice(1)}`, { headers: auth });
    expect(gone.status).toBe(404);
  });
});

describe("what does not start with the stored span", () => {
  const other = trajectories.find((t) => t.name.startsWith("claude-code-spotter__258c7280"))!.messages as ChatMessage[];
  type Out = { result: { messages: ChatMessage[]; report: { mode: string }; archive?: Record<string, unknown> } };

  it("another conversation gets its own pass, numbered after the last one's: no reference of either is reused", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`two-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (instance: SessionObject) => {
      const a = (await instance.rewrite(session.slice(0, 120), { contextWindow: WINDOW })) as Out;
      expect(a.result.report.mode).not.toBe("noop");
      const aRefs = Object.keys(a.result.archive!);
      const b = (await instance.rewrite(other.slice(0, 150), { contextWindow: WINDOW })) as Out;
      expect(b.result.report.mode).not.toMatch(/noop|reused/);
      for (const k of Object.keys(b.result.archive!)) expect(Number(k.slice(1)), k).toBeGreaterThanOrEqual(120);
      // A's entries are still A's messages.
      expect(await instance.archived(aRefs[0])).toBe(recallText(aRefs[0], a.result.archive!));
      // Back to the first conversation: not B's span, so a pass of its own, numbered after B's.
      const again = (await instance.rewrite(session.slice(0, 125), { contextWindow: WINDOW })) as Out;
      expect(again.result.report.mode).not.toMatch(/noop|reused/);
      for (const k of Object.keys(again.result.archive!)) expect(Number(k.slice(1)), k).toBeGreaterThanOrEqual(270);
    });
  });

  it("Anthropic: a cache breakpoint the client moved goes where the client put it, the span still substituted", async () => {
    const { messages, system } = fromOpenAI(session, "anthropic");
    const marked = (request: unknown[]) => {
      const last = structuredClone(request.at(-1)) as { content: string | { type: string; text?: string; cache_control?: unknown }[] };
      const blocks = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
      blocks[blocks.length - 1].cache_control = { type: "ephemeral" };
      return [...request.slice(0, -1), { ...last, content: blocks }];
    };
    const breakpoints = (m: unknown) => JSON.stringify(m).split('"cache_control"').length - 1;
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`cache-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (instance: SessionObject) => {
      const options = { contextWindow: WINDOW, dialect: "anthropic" as const, system };
      const ends = requests(messages).map((r) => r.length);
      let k = ends.findIndex((n) => n >= 100);
      let first: Out;
      do first = (await instance.rewrite(marked(messages.slice(0, ends[k++])), options)) as Out;
      while (first.result.report.mode === "noop");
      const next = (await instance.rewrite(marked(messages.slice(0, ends[k])), options)) as Out;
      expect(next.result.report.mode).toBe("reused");
      expect(breakpoints(next.result.messages)).toBe(1);
      const unmarked = (m: unknown) => JSON.parse(JSON.stringify(m), (key, v) => (key === "cache_control" ? undefined : v));
      expect(unmarked(next.result.messages.slice(0, first.result.messages.length))).toEqual(unmarked(first.result.messages));
    });
  });
});

describe("what still starts with the stored span", () => {
  it("OpenAI: a system message the client changed is sent as it is now, and no new pass", async () => {
    const sys = (day: string) => ({ role: "system" as const, content: `You are a coding agent. Today is ${day}.` });
    const ends = requests(session).map((r) => r.length);
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`system-msg-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (instance: SessionObject) => {
      type Out = { result: { report: { mode: string }; messages: ChatMessage[] } };
      const at = (k: number, day: string) => instance.rewrite([sys(day), ...session.slice(0, ends[k])], { contextWindow: WINDOW }) as Promise<Out>;
      let k = ends.findIndex((n) => n >= 100);
      let first: Out;
      do first = await at(k++, "Monday");
      while (first.result.report.mode === "noop");
      const next = await at(k, "Tuesday");
      expect(next.result.report.mode).toBe("reused");
      expect(next.result.messages[0]).toEqual(sys("Tuesday"));
      expect(next.result.messages.slice(1, first.result.messages.length)).toEqual(first.result.messages.slice(1));
      // One more leading system message is another history: its own pass.
      const more = (await instance.rewrite([sys("Tuesday"), sys("Tuesday"), ...session.slice(0, ends[k + 1])], { contextWindow: WINDOW })) as Out;
      expect(more.result.report.mode).not.toBe("reused");
    });
  });

  it("Anthropic: a system prompt the client changed is sent as it is now, with the note the span needs, and no new pass", async () => {
    const { messages } = fromOpenAI(session, "anthropic");
    const ends = requests(messages).map((r) => r.length);
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`system-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (instance: SessionObject) => {
      type Out = { result: { report: { mode: string }; system?: string } };
      const at = (k: number, system: string) => instance.rewrite(messages.slice(0, ends[k]), { contextWindow: WINDOW, dialect: "anthropic", system }) as Promise<Out>;
      let k = ends.findIndex((n) => n >= 100);
      let first: Out;
      do first = await at(k++, "You are a coding agent. Today is Monday.");
      while (!first.result.system?.includes(SYSTEM_NOTE) && k < ends.length - 1); // the first pass that writes a handoff
      expect(first.result.system).toContain(SYSTEM_NOTE);
      const next = await at(k, "You are a coding agent. Today is Tuesday.");
      expect(next.result.report.mode).toBe("reused");
      expect(next.result.system).toBe(`You are a coding agent. Today is Tuesday.${first.result.system!.slice("You are a coding agent. Today is Monday.".length)}`);
    });
  });
});

function recallText(ref: string, archive: Record<string, unknown>): string {
  return recall(archive as never, ref)!;
}

describe("requests parsed anew adopt the objects of the last one (their token counts are kept)", () => {
  type Out = { result: { messages: unknown[]; report: { mode: string } } };
  const parsed = (m: unknown[]) => JSON.parse(JSON.stringify(m)) as unknown[];

  it("under the threshold and after a pass: each message that reads the same is the last request's object, the JSON unchanged", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`adopt-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (instance: SessionObject) => {
      const at = async (n: number, contextWindow: number) => (await instance.rewrite(parsed(session.slice(0, n)), { contextWindow })) as Out;
      const a = await at(40, 1_000_000);
      const b = await at(42, 1_000_000);
      expect(b.result.report.mode).toBe("noop");
      expect(b.result.messages.slice(0, 40).every((m, i) => m === a.result.messages[i])).toBe(true);
      expect(JSON.stringify(b.result.messages)).toBe(JSON.stringify(session.slice(0, 42)));
      // After a pass the next request's input is the stored span (read from storage anew) and its new turns.
      const c = await at(120, WINDOW);
      expect(passed(c.result.report.mode)).toBe(true);
      const d = await at(122, WINDOW);
      expect(d.result.report.mode).toBe("reused");
      const kept = c.result.messages.length;
      expect(d.result.messages.slice(0, kept).every((m, i) => m === c.result.messages[i])).toBe(true);
      expect(JSON.stringify(d.result.messages.slice(0, kept))).toBe(JSON.stringify(c.result.messages));
    });
  });
});

describe("the span's fingerprint, remembered for the objects it read", () => {
  it("equals fingerprintOf; a request starting with the same objects is not read again, one parsed anew or another length is", () => {
    let reads = 0;
    const watched = (m: object) => ({ ...m, toJSON: () => (reads++, m) });
    const messages = session.slice(0, 30).map(watched);
    const fingerprint = rememberedFingerprint();
    expect(fingerprint(messages, 20)).toBe(fingerprintOf(session.slice(0, 30), 20));
    reads = 0;
    expect(fingerprint([...messages, watched(session[30])], 20)).toBe(fingerprintOf(session, 20));
    expect(reads).toBe(0);
    expect(fingerprint(session.slice(0, 30).map(watched), 20)).toBe(fingerprintOf(session, 20));
    expect(reads).toBe(20);
    expect(fingerprint(messages, 25)).toBe(fingerprintOf(session, 25));
    expect(reads).toBe(45);
  });
});
