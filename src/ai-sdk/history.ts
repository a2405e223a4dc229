// A conversation whose compacted past persists: the AI SDK hands every step (and every middleware
// call) the whole original transcript, so the compacted base must stand in for the prefix it replaced,
// call after call, or compaction would be redone, and the prompt cache broken, at every step.
import { ARCHIVE_LIMIT } from "../archive/index.js";
import { createCompactor, type Compactor } from "../compactor.js";
import { fingerprint } from "../fingerprint.js";
import type { ModelMessage } from "../dialects/ai-sdk.js";
import type { Dialect } from "../dialects/view.js";
import type { Archive } from "../archive/types.js";
import type { CompactReport } from "../report/types.js";
import type { CompactorState } from "../state.js";
import type { CompactionEvent, CompactOptions } from "../types.js";

/** What a store keeps per conversation: plain JSON. */
export interface SavedCompaction {
  state: CompactorState;
  /** The compacted messages that stand for the first `replaced` original messages. */
  base: ModelMessage[];
  replaced: number;
  /** Fingerprint of those original messages, to recognise them in a later run. */
  fingerprint: string;
  /**
   * What the passes removed, by the references their messages cite (`#12`, `#1.45`), merged across
   * passes, for `recall`; over `archiveLimit` characters of JSON the oldest entries are evicted.
   */
  archive?: Archive;
}

/** Where compaction persists between runs (a `Map` will do; KV, a database or Durable Object storage too). */
export interface CompactionStore {
  get(key: string): SavedCompaction | undefined | PromiseLike<SavedCompaction | undefined>;
  set(key: string, value: SavedCompaction): unknown;
}

/** Everything the compactor takes except the dialect and state, which the integration owns. */
export type AiSdkCompactionOptions = Omit<CompactOptions<ModelMessage>, "dialect" | "state" | "onEvent"> & {
  /** Keeps the compacted base and the state across runs (and processes). */
  store?: CompactionStore;
  /** The conversation's key in `store`; default "default". */
  sessionId?: string;
  /** The compactor's events, and `{ type: "applied" }` each time a compaction pass becomes the new base. */
  onEvent?: (event: AiSdkCompactionEvent) => void;
  /**
   * Tool outputs over this many tokens are trimmed (`trimToolOutput`) when they first appear, the whole
   * archived (in the store's archive too); an `{ type: "trimmed" }` event says so. Off by default.
   */
  maxToolOutputTokens?: number;
};

/** `applied`: a pass became the new base; `archive` is what that pass removed (merge them with `Object.assign`). */
export type AiSdkCompactionEvent =
  | CompactionEvent
  | { type: "applied"; report: CompactReport; replaced: number; archive?: Archive }
  /** New tool outputs trimmed over `maxToolOutputTokens`: how many, and their whole outputs by the references their stand-ins cite. */
  | { type: "trimmed"; outputs: number; archive: Archive };

/** A store entry as written by `save`, or a clear error naming the key and what is wrong. */
function checked(value: unknown, key: string): SavedCompaction | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value as Partial<SavedCompaction>;
  const problem = !Array.isArray(v.base)
    ? '"base" is not an array of messages'
    : !(Number.isInteger(v.replaced) && v.replaced! >= 0)
      ? '"replaced" is not a count of messages'
      : typeof v.fingerprint !== "string"
        ? '"fingerprint" is not a string'
        : typeof v.state !== "object" || v.state === null
          ? '"state" is not a compactor state'
          : v.archive !== undefined && (typeof v.archive !== "object" || v.archive === null || Array.isArray(v.archive))
            ? '"archive" is not an archive'
            : undefined;
  if (problem) throw new RangeError(`context-compactor: store entry "${key}" is not a saved compaction: ${problem}`);
  return v as SavedCompaction;
}

/**
 * The stored archive with a pass's merged in, within `limit` characters of JSON: the oldest entries
 * (earlier passes first) are evicted, and named. Reading the entries redacts them, as a store keeps them.
 */
function mergeArchives(stored: Archive | undefined, added: Archive | undefined, limit: number): { archive?: Archive; evicted: string[] } {
  if (!added) return { archive: stored, evicted: [] };
  const entries = Object.entries({ ...stored, ...added });
  const sizes = entries.map(([ref, e]) => ref.length + JSON.stringify(e).length + 4);
  let size = sizes.reduce((a, b) => a + b, 2);
  let k = 0;
  for (; size > limit && k < entries.length; k++) size -= sizes[k];
  return { archive: Object.fromEntries(entries.slice(k)), evicted: entries.slice(0, k).map(([ref]) => ref) };
}

export interface History {
  /** The messages to send for this transcript: the compacted base in place of its prefix, compacted again when due. */
  prepare(messages: ModelMessage[], signal?: AbortSignal): Promise<ModelMessage[]>;
  /** Provider usage of the call that sent what `prepare` last returned: calibrates the estimate. */
  observeUsage(usage: unknown): Promise<void>;
}

export function createHistory(options: AiSdkCompactionOptions, dialect: Dialect<ModelMessage>): History {
  const { store, sessionId = "default", onEvent, maxToolOutputTokens, ...rest } = options;
  if (maxToolOutputTokens !== undefined && !(maxToolOutputTokens > 0)) throw new RangeError("context-compactor: maxToolOutputTokens must be a number of tokens > 0");
  // Each message as sent, once its outputs were trimmed: the same object step after step.
  const sent = new WeakMap<ModelMessage, ModelMessage>();
  let saved: SavedCompaction | undefined;
  let compactor: Compactor<ModelMessage>;
  // The original prefix objects last seen: within a run the SDK passes the same objects every step.
  let originals: ModelMessage[] = [];

  /** The saved compaction (from the store on first use) and a compactor holding its state. */
  async function load(): Promise<SavedCompaction> {
    if (saved) return saved;
    const stored = store ? checked(await store.get(sessionId), sessionId) : undefined;
    compactor = createCompactor<ModelMessage>({ ...rest, dialect, onEvent, state: stored?.state });
    saved = stored ?? { state: compactor.state, base: [], replaced: 0, fingerprint: fingerprint([]) };
    return saved;
  }

  /** Whether `messages` begin with the original prefix the saved base stands for. */
  function startsWithReplaced(messages: ModelMessage[], s: SavedCompaction): boolean {
    if (messages.length < s.replaced) return false;
    if (originals.length === s.replaced && originals.every((m, i) => messages[i] === m)) return true;
    return fingerprint(messages.slice(0, s.replaced)) === s.fingerprint;
  }

  async function save(next: SavedCompaction): Promise<void> {
    saved = next;
    await store?.set(sessionId, next);
  }

  /** The messages with new tool outputs over maxToolOutputTokens trimmed, their whole archived (trim.ts loads on first use). */
  async function trimmed(messages: ModelMessage[], s: SavedCompaction): Promise<ModelMessage[]> {
    const fresh = messages.filter((m) => !sent.has(m));
    if (!maxToolOutputTokens || !fresh.length) return maxToolOutputTokens ? messages.map((m) => sent.get(m)!) : messages;
    const { trimResults } = await import("../prune/trim.js");
    const t = trimResults(fresh, dialect, { maxTokens: maxToolOutputTokens, countTokens: rest.countTokens });
    fresh.forEach((m, i) => sent.set(m, t.messages[i]));
    // Reported once: a provider-level prompt is rebuilt (new objects) at every step.
    const archive = Object.fromEntries(Object.entries(t.archive).filter(([ref]) => !s.archive || !Object.hasOwn(s.archive, ref)));
    const outputs = Object.keys(archive).length;
    if (outputs) {
      await save({ ...s, archive: mergeArchives(s.archive, archive, rest.archiveLimit ?? ARCHIVE_LIMIT).archive });
      onEvent?.({ type: "trimmed", outputs, archive });
    }
    return messages.map((m) => sent.get(m)!);
  }

  return {
    async prepare(input, signal) {
      const messages = await trimmed(input, await load());
      const s = await load();
      const substituted = s.replaced > 0 && startsWithReplaced(messages, s);
      if (substituted) originals = messages.slice(0, s.replaced);
      const current = substituted ? [...s.base, ...messages.slice(s.replaced)] : messages;
      if (!compactor.shouldCompact(current)) return current;
      const result = await compactor.compact(current, { signal });
      if (result.report.mode === "noop" || result.report.mode === "aborted" || result.report.mode === "stalled") {
        await save({ ...s, state: compactor.state }); // a back-off or strike still counts next time
        return current;
      }
      originals = messages.slice();
      const limit = rest.archiveLimit ?? ARCHIVE_LIMIT;
      const { archive, evicted } = mergeArchives(s.archive, result.archive, limit);
      if (evicted.length) result.report.warnings.push(`archive: ${evicted.length} oldest stored entries (${evicted[0]}–${evicted.at(-1)}) evicted from the store over archiveLimit ${limit}`);
      await save({ state: compactor.state, base: result.messages, replaced: messages.length, fingerprint: fingerprint(messages), ...(archive && { archive }) });
      onEvent?.({ type: "applied", report: result.report, replaced: messages.length, archive: result.archive });
      return result.messages;
    },
    async observeUsage(usage) {
      if (!saved) return;
      compactor.observeUsage(usage);
      await save({ ...saved, state: compactor.state });
    },
  };
}
