// One Durable Object per session: the compactor state and recent reports in SQLite, and a queue so
// that two compactions of one session never run at once (the second waits for the first's state).
import { DurableObject } from "cloudflare:workers";
import { accept, compact, normalizeRef, plan, propose, recall, redact, SYSTEM_NOTE, type Archive, type CompactOptions, type CompactorState, type CompactResult, type Proposal, type RecallOptions } from "../src/index.js";
import { coreOptions, type HttpOptions } from "./options.js";
import { calibrate, promptTokensOf } from "../src/state.js";
import { firstChangedIndex } from "../src/report/index.js";
import { passSettings, type Env } from "./env.js";
import { ErrorAnswer, outcomeOf, type Outcome } from "./errors.js";
import { rememberedFingerprint, spanOf, substitute, whole, type Span } from "./span.js";
import { trimmedFor } from "./trim.js";
import { adoptUnchanged } from "../src/estimate/adopt.js";

const KEEP_REPORTS = 20;
/** Proposals a session holds for review at once; older ones go first. */
const KEEP_PROPOSALS = 8;
/** Characters of archived JSON a session keeps by default (SESSION_ARCHIVE_CHARS); over it, the oldest entries go first. */
export const ARCHIVE_CAP = 20_000_000;
/** An entry over this many UTF-8 bytes is not stored (SQLite rows stop at 2 MB): the stand-in it replaced says what it was. */
const ARCHIVE_ROW = 1_900_000;
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** An eviction of the session's archive: the oldest references first and last (in the order archived), how many, when. */
export interface Eviction {
  refs: string;
  count: number;
  at: string;
}

/** The proxies' result: `reused` when the request was rewritten by substitution alone, with no pass. */
export type SessionResult = Omit<CompactResult<unknown>, "report"> & {
  report: Omit<CompactResult<unknown>["report"], "mode"> & { mode: CompactResult<unknown>["report"]["mode"] | "reused" };
  /** Tool outputs of the request trimmed over its maxToolOutputTokens (workers/trim.ts). */
  trimmed?: number;
};

/** What a different conversation must not inherit from the last one: its summary, strikes, back-off. */
function ownConversation(state: CompactorState): CompactorState {
  const { previousSummary: _, backoffUntilTokens: __, ...rest } = state;
  return { ...rest, strikes: 0, fallbackStreak: 0 };
}

/** A proposal as the worker answers it: the core's, with its id in this session. */
export type ProposalAnswer = Omit<Proposal<unknown>, "state"> & { id: string };

export class SessionObject extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Proposals awaiting review, with the session's state they were made from. In memory: a proposal
   * holds what accepting an edit needs, which is not data; one lost with the object is gone (404).
   */
  private proposals = new Map<string, { proposal: Proposal<unknown>; from: string }>();
  /** Characters of archived JSON kept (tests lower it). */
  archiveCap: number;
  /**
   * The last request's messages and the last pass's messages, in memory: each request arrives parsed
   * anew, and its messages that read the same as the last one's at their index (the same JSON) are
   * given that earlier object, whose token count is kept (src/estimate): only what is new is counted.
   */
  private last: { request?: readonly unknown[]; input?: readonly unknown[] } = {};
  /** The span's fingerprint of the last request's messages, kept while the next one starts with the same objects. */
  private fingerprint = rememberedFingerprint();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.archiveCap = Number(env.SESSION_ARCHIVE_CHARS) || ARCHIVE_CAP;
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, report TEXT NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS archive (id INTEGER PRIMARY KEY AUTOINCREMENT, ref TEXT UNIQUE NOT NULL, size INTEGER NOT NULL, entry TEXT NOT NULL)");
  }

  /**
   * Keeps a pass's archive, the oldest entries evicted first over the cap. A reference already kept
   * stays as it was first archived (a later pass may see that message only as its stand-in). Returns
   * the references not stored and those evicted, oldest first.
   */
  private keepArchive(archive: Archive | undefined): { skipped: string[]; evicted: string[] } {
    const skipped: string[] = [];
    for (const [ref, entry] of Object.entries(archive ?? {})) {
      const json = JSON.stringify(entry);
      const size = utf8Bytes(json); // SQLite's limit is in bytes: 800k CJK characters are 2.4 MB
      if (size > ARCHIVE_ROW) skipped.push(ref);
      else this.ctx.storage.sql.exec("INSERT OR IGNORE INTO archive (ref, size, entry) VALUES (?, ?, ?)", ref, size, json);
    }
    const over = "SELECT id, ref FROM (SELECT id, ref, SUM(size) OVER (ORDER BY id DESC) AS kept FROM archive) WHERE kept > ?";
    const evicted = this.ctx.storage.sql.exec<{ ref: string }>(`${over} ORDER BY id`, this.archiveCap).toArray().map((r) => r.ref);
    if (evicted.length) this.ctx.storage.sql.exec(`DELETE FROM archive WHERE id IN (SELECT id FROM (${over}))`, this.archiveCap);
    return { skipped, evicted };
  }

  /**
   * Archives the whole of trimmed outputs not archived yet (an output is trimmed again, the same, on
   * every request), redacted as everything the archive route serves.
   */
  private keepTrimmed(archive: Archive): void {
    const known = (ref: string) => this.ctx.storage.sql.exec("SELECT 1 FROM archive WHERE ref = ?", ref).toArray().length > 0;
    const fresh = Object.entries(archive).filter(([ref]) => !known(ref));
    this.keepArchive(Object.fromEntries(fresh.map(([ref, e]) => [ref, { ...e, results: e.results?.map(redact) }])));
  }

  /** Stores a pass's archive and says in its report what was not kept or was evicted (and, for evictions, in the session). */
  private archiveOf(result: CompactResult<unknown>): void {
    const { skipped, evicted } = this.keepArchive(result.archive);
    const warnings = result.report.warnings;
    if (skipped.length) warnings.push(`session archive: ${skipped.length} entries over ${ARCHIVE_ROW} bytes not kept (${skipped.join(", ")})`);
    if (!evicted.length) return;
    const eviction: Eviction = { refs: `${evicted[0]}–${evicted.at(-1)}`, count: evicted.length, at: new Date().toISOString() };
    warnings.push(`session archive: ${eviction.count} oldest entries (${eviction.refs}) evicted over its ${this.archiveCap} characters: earlier handoffs that cite them can no longer be read back`);
    this.write("evicted", [eviction, ...(this.read<Eviction[]>("evicted") ?? [])].slice(0, KEEP_REPORTS));
  }

  private keepReport(result: CompactResult<unknown>): void {
    if (result.report.mode === "noop" || result.report.mode === "stalled") return; // a stall is reported by the pass that stalls
    this.ctx.storage.sql.exec("INSERT INTO reports (at, report) VALUES (?, ?)", Date.now(), JSON.stringify(result.report));
    this.ctx.storage.sql.exec("DELETE FROM reports WHERE id NOT IN (SELECT id FROM reports ORDER BY id DESC LIMIT ?)", KEEP_REPORTS);
  }

  /** An archived entry of this session as text (in pieces), or undefined. */
  async archived(ref: string, options?: RecallOptions): Promise<string | undefined> {
    const key = normalizeRef(ref);
    const row = this.ctx.storage.sql.exec<{ entry: string }>("SELECT entry FROM archive WHERE ref = ?", key).toArray()[0];
    return row ? recall({ [key]: JSON.parse(row.entry) }, key, options) : undefined;
  }

  private read<T>(k: string): T | undefined {
    const row = this.ctx.storage.sql.exec<{ v: string }>("SELECT v FROM kv WHERE k = ?", k).toArray()[0];
    return row ? (JSON.parse(row.v) as T) : undefined;
  }

  private write(k: string, v: unknown): void {
    this.ctx.storage.sql.exec("INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", k, JSON.stringify(v));
  }

  /** Runs `work` after every earlier call on this session has finished. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * One compaction pass with this session's state; `onEvent` sees progress as it happens. Failures
   * come back as error data (outcomeOf), as from every method a route calls.
   */
  compact(messages: unknown[], options: HttpOptions, onEvent?: CompactOptions["onEvent"]): Promise<Outcome<CompactResult<unknown>>> {
    return outcomeOf(() =>
      this.serial(async () => {
        const state = this.read<CompactorState>("state");
        const result = await compact(adoptUnchanged(this.last.input, messages), { ...coreOptions(options), state, ...passSettings(this.env), onEvent });
        this.last.input = result.messages; // what the client goes on from
        this.commit(result, state);
        return result;
      }),
    );
  }

  /** One transaction: the state, the archive and the report land together or not at all. */
  private commit(result: CompactResult<unknown>, before: CompactorState | undefined): void {
    this.ctx.storage.transactionSync(() => {
      this.write("state", result.state);
      // The estimate before calibration, to compare with what the provider will count.
      this.write("lastEstimate", result.report.tokensAfter / (before?.calibration?.ratio ?? 1));
      this.archiveOf(result);
      this.keepReport(result);
    });
  }

  /** What a pass would do with this session's state, applied by `accept` (POST …/proposals/:pid/accept) until the session moves on. */
  propose(messages: unknown[], options: HttpOptions): Promise<Outcome<ProposalAnswer>> {
    return outcomeOf(() =>
      this.serial(async () => {
        const state = this.read<CompactorState>("state");
        const proposal = await propose(messages, { ...coreOptions(options), state, ...passSettings(this.env) });
        const id = crypto.randomUUID();
        this.proposals.set(id, { proposal, from: JSON.stringify(state ?? null) });
        for (const old of [...this.proposals.keys()].slice(0, -KEEP_PROPOSALS)) this.proposals.delete(old);
        const { state: _, ...answer } = proposal;
        return { id, ...answer };
      }),
    );
  }

  /**
   * Applies a proposal, its handoff as proposed or edited: a 404 when the session holds no such
   * proposal, a 409 when the session's state changed since it was made (a pass, another proposal
   * accepted, usage observed: the transcript moved on).
   */
  accept(id: string, handoff?: string): Promise<Outcome<CompactResult<unknown>>> {
    return outcomeOf(() =>
      this.serial(async () => {
        const held = this.proposals.get(id);
        if (!held) throw new ErrorAnswer({ status: 404, type: "not_found", message: `this session holds no proposal ${id} (never made, already accepted, or dropped with the session's memory): propose again` });
        const state = this.read<CompactorState>("state");
        if (JSON.stringify(state ?? null) !== held.from) {
          this.proposals.delete(id);
          throw new ErrorAnswer({ status: 409, type: "proposal_expired", message: `proposal ${id} expired: the session moved on since it was made (a pass ran, another proposal was accepted, or usage was observed): propose again` });
        }
        const result = accept(held.proposal, { handoff });
        this.proposals.clear(); // the others were made from the state this one replaces
        this.commit(result, state);
        return result;
      }),
    );
  }

  /**
   * What a proxy sends upstream for the client's whole history: the stored span in place of the
   * messages it stands for when the request starts with them, and a pass only when that transcript is
   * over the threshold (or the request is another conversation's); an effective pass becomes the new
   * span. Messages are cited by their number in the client's history, the same in every pass.
   */
  rewrite(messages: unknown[], options: HttpOptions, maxToolOutputTokens?: number): Promise<Outcome<SessionResult>> {
    return outcomeOf(async () => {
      const t = trimmedFor(messages, options, maxToolOutputTokens);
      // Trimmed outputs are trimmed anew each request: adopted with the rest.
      const request = (this.last.request = adoptUnchanged(this.last.request, t.messages) as unknown[]);
      const result = await this.serial(() => this.rewriteInTurn(request, options));
      if (t.trimmed) {
        result.trimmed = t.trimmed;
        this.keepTrimmed(t.archive);
      }
      return result;
    });
  }

  private async rewriteInTurn(messages: unknown[], options: HttpOptions): Promise<SessionResult> {
    const span = this.read<Span>("span");
    const stored = this.read<CompactorState>("state");
    const core = coreOptions(options);
    const substituted = substitute(span, messages, this.fingerprint);
    const base = this.read<number>("nextRef") ?? 0;
    const given = substituted ?? whole(messages, base);
    // The span's own messages are read from storage anew: adopted too.
    const input = { ...given, messages: adoptUnchanged(this.last.input, given.messages) as unknown[] };
    // Another conversation (or an edited history) starts its own line: not the last one's summary.
    const state = span && !substituted && stored ? ownConversation(stored) : stored;
    const noted = Boolean(substituted && span!.noted);
    const system = noted && core.dialect?.appendSystemNote ? core.dialect.appendSystemNote(options.system, SYSTEM_NOTE) : options.system;
    const result = await compact(input.messages, { ...core, system, state, refIndexes: input.refs, ...passSettings(this.env) });
    this.last.input = result.messages; // the span the next request's input starts with
    const effective = result.report.mode !== "noop" && result.report.mode !== "aborted" && result.report.mode !== "stalled";
    this.ctx.storage.transactionSync(() => {
      if (effective || !span || substituted) this.write("state", result.state);
      this.write("lastEstimate", result.report.tokensAfter / (state?.calibration?.ratio ?? 1));
      if (!effective) return;
      const next = substituted ? span!.next + messages.length - span!.n : base + messages.length;
      const kept = JSON.stringify(spanOf(input, result.messages, messages, next, noted || Boolean(result.report.systemChanged), this.fingerprint));
      if (utf8Bytes(kept) <= ARCHIVE_ROW) this.ctx.storage.sql.exec("INSERT INTO kv (k, v) VALUES ('span', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", kept);
      else {
        this.ctx.storage.sql.exec("DELETE FROM kv WHERE k = 'span'");
        result.report.warnings.push(`session: the compacted transcript (${utf8Bytes(kept)} bytes of messages the pass wrote) is too large to keep: the next request gets a pass of its own`);
      }
      this.write("nextRef", Math.max(next, base));
      this.archiveOf(result);
      this.keepReport(result);
    });
    const out = result as SessionResult;
    if (substituted) {
      // The report speaks of the client's request, as without a session.
      if (!effective && result.report.mode !== "stalled") out.report.mode = "reused"; // a stall stays visible
      out.report.messagesBefore = messages.length;
      out.report.tokensBefore = plan(messages, { ...core, state: result.state }).tokens.total; // as a pass would count it
      out.report.firstChangedIndex = firstChangedIndex(messages, result.messages);
    }
    return out;
  }

  /**
   * Provider usage for a request this session compacted: calibrates the session's estimate against
   * that request's own uncalibrated estimate (given by the proxy), or the last one made.
   */
  observeUsage(usage: unknown, estimate?: number): Promise<void> {
    return this.serial(async () => {
      const provider = promptTokensOf(usage);
      const estimated = estimate ?? this.read<number>("lastEstimate");
      const state = this.read<CompactorState>("state");
      if (provider !== undefined && estimated !== undefined && state) this.write("state", calibrate(state, provider, estimated));
    });
  }

  /**
   * The context window the provider enforces for `model`, as an overflow error taught it (kv key
   * "windows"). With `tokens`, records that limit (the smallest seen stays) and reports the overflow
   * (`note`) among the session's reports; without, only reads.
   */
  async learnedWindow(model: string, tokens?: number, note?: string): Promise<number | undefined> {
    const windows = this.read<Record<string, number>>("windows") ?? {};
    if (tokens === undefined || !(tokens > 0)) return windows[model];
    const window = Math.min(tokens, windows[model] ?? tokens);
    this.write("windows", { ...windows, [model]: window });
    this.ctx.storage.sql.exec("INSERT INTO reports (at, report) VALUES (?, ?)", Date.now(), JSON.stringify({ mode: "overflow", model, window, warnings: [note ?? ""] }));
    return window;
  }

  async snapshot(): Promise<{ state: CompactorState | null; reports: unknown[]; evicted: Eviction[]; span: { replaces: number; messages: number } | null }> {
    const reports = this.ctx.storage.sql
      .exec<{ at: number; report: string }>("SELECT at, report FROM reports ORDER BY id DESC")
      .toArray()
      .map((r) => ({ at: new Date(r.at).toISOString(), ...JSON.parse(r.report) }));
    const span = this.read<Span>("span");
    return {
      state: this.read<CompactorState>("state") ?? null,
      reports,
      evicted: this.read<Eviction[]>("evicted") ?? [],
      span: span ? { replaces: span.n, messages: span.entries.length } : null,
    };
  }
}
