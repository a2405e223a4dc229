// One Durable Object per session: the compactor state and recent reports in SQLite, and a queue so
// that two compactions of one session never run at once (the second waits for the first's state).
import { DurableObject } from "cloudflare:workers";
import { compact, normalizeRef, recall, type Archive, type CompactOptions, type CompactorState, type CompactResult, type RecallOptions } from "../src/index.js";
import { coreOptions, type HttpOptions } from "./options.js";
import { calibrate, promptTokensOf } from "../src/state.js";
import { summarizerFor, type Env } from "./env.js";
import { errorData, type ErrorData } from "./errors.js";

const KEEP_REPORTS = 20;
/** Characters of archived JSON a session keeps; over it, the oldest entries go first. */
export const ARCHIVE_CAP = 20_000_000;
/** An entry over this many UTF-8 bytes is not stored (SQLite rows stop at 2 MB): the stand-in it replaced says what it was. */
const ARCHIVE_ROW = 1_900_000;
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

export class SessionObject extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, report TEXT NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS archive (id INTEGER PRIMARY KEY AUTOINCREMENT, ref TEXT UNIQUE NOT NULL, size INTEGER NOT NULL, entry TEXT NOT NULL)");
  }

  /** Keeps a pass's archive within the cap, the oldest entries evicted first; returns the refs not stored. */
  private keepArchive(archive: Archive | undefined): string[] {
    const skipped: string[] = [];
    for (const [ref, entry] of Object.entries(archive ?? {})) {
      const json = JSON.stringify(entry);
      const size = utf8Bytes(json); // SQLite's limit is in bytes: 800k CJK characters are 2.4 MB
      if (size > ARCHIVE_ROW) skipped.push(ref);
      else this.ctx.storage.sql.exec("INSERT OR REPLACE INTO archive (ref, size, entry) VALUES (?, ?, ?)", ref, size, json);
    }
    // Evict from the oldest until what stays fits the cap.
    this.ctx.storage.sql.exec(
      "DELETE FROM archive WHERE id IN (SELECT id FROM (SELECT id, SUM(size) OVER (ORDER BY id DESC) AS kept FROM archive) WHERE kept > ?)",
      ARCHIVE_CAP,
    );
    return skipped;
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
   * come back as error data: an exception would cross RPC as a plain Error (a 500) and be logged
   * with its message, which may quote the input.
   */
  async compact(messages: unknown[], options: HttpOptions, onEvent?: CompactOptions["onEvent"]): Promise<{ result: CompactResult<unknown> } | { error: ErrorData }> {
    try {
      return { result: await this.compactInTurn(messages, options, onEvent) };
    } catch (err) {
      return { error: errorData(err) };
    }
  }

  private compactInTurn(messages: unknown[], options: HttpOptions, onEvent?: CompactOptions["onEvent"]): Promise<CompactResult<unknown>> {
    return this.serial(async () => {
      const state = this.read<CompactorState>("state");
      const result = await compact(messages, { ...coreOptions(options), state, summarizer: summarizerFor(this.env), onEvent });
      // One transaction: the state, the archive and the report land together or not at all.
      this.ctx.storage.transactionSync(() => {
        this.write("state", result.state);
        // The estimate before calibration, to compare with what the provider will count.
        this.write("lastEstimate", result.report.tokensAfter / (state?.calibration?.ratio ?? 1));
        const skipped = this.keepArchive(result.archive);
        if (skipped.length) result.report.warnings.push(`session archive: ${skipped.length} entries over ${ARCHIVE_ROW} bytes not kept (${skipped.join(", ")})`);
        if (result.report.mode !== "noop") {
          this.ctx.storage.sql.exec("INSERT INTO reports (at, report) VALUES (?, ?)", Date.now(), JSON.stringify(result.report));
          this.ctx.storage.sql.exec("DELETE FROM reports WHERE id NOT IN (SELECT id FROM reports ORDER BY id DESC LIMIT ?)", KEEP_REPORTS);
        }
      });
      return result;
    });
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

  async snapshot(): Promise<{ state: CompactorState | null; reports: unknown[] }> {
    const reports = this.ctx.storage.sql
      .exec<{ at: number; report: string }>("SELECT at, report FROM reports ORDER BY id DESC")
      .toArray()
      .map((r) => ({ at: new Date(r.at).toISOString(), ...JSON.parse(r.report) }));
    return { state: this.read<CompactorState>("state") ?? null, reports };
  }
}
