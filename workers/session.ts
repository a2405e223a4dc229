// One Durable Object per session: the compactor state and recent reports in SQLite, and a queue so
// that two compactions of one session never run at once (the second waits for the first's state).
import { DurableObject } from "cloudflare:workers";
import { compact, type CompactOptions, type CompactorState, type CompactResult } from "../src/index.js";
import { coreOptions, type HttpOptions } from "./options.js";
import { calibrate, promptTokensOf } from "../src/state.js";
import { summarizerFor, type Env } from "./env.js";
import { errorData, type ErrorData } from "./errors.js";

const KEEP_REPORTS = 20;

export class SessionObject extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, report TEXT NOT NULL)");
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
      this.write("state", result.state);
      // The estimate before calibration, to compare with what the provider will count.
      this.write("lastEstimate", result.report.tokensAfter / (state?.calibration?.ratio ?? 1));
      if (result.report.mode !== "noop") {
        this.ctx.storage.sql.exec("INSERT INTO reports (at, report) VALUES (?, ?)", Date.now(), JSON.stringify(result.report));
        this.ctx.storage.sql.exec("DELETE FROM reports WHERE id NOT IN (SELECT id FROM reports ORDER BY id DESC LIMIT ?)", KEEP_REPORTS);
      }
      return result;
    });
  }

  /** Provider usage for the request last compacted: calibrates the session's estimate. */
  observeUsage(usage: unknown): Promise<void> {
    return this.serial(async () => {
      const provider = promptTokensOf(usage);
      const estimated = this.read<number>("lastEstimate");
      const state = this.read<CompactorState>("state");
      if (provider !== undefined && estimated !== undefined && state) this.write("state", calibrate(state, provider, estimated));
    });
  }

  async snapshot(): Promise<{ state: CompactorState | null; reports: unknown[] }> {
    const reports = this.ctx.storage.sql
      .exec<{ at: number; report: string }>("SELECT at, report FROM reports ORDER BY id DESC")
      .toArray()
      .map((r) => ({ at: new Date(r.at).toISOString(), ...JSON.parse(r.report) }));
    return { state: this.read<CompactorState>("state") ?? null, reports };
  }
}
