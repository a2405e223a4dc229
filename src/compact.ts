// One pass: validate → estimate & plan → prune → summarize → assemble → report.
import { sniffDialect } from "./dialects/detect.js";
import type { Dialect } from "./dialects/view.js";
import { BUILT_IN, PASS, prepare } from "./prepare.js";
import { ANTHROPIC_CACHE_RATES, OPENAI_CACHE_RATES } from "./report/rates.js";
import type { Prepared } from "./plan/prepared.js";
import type { Plan } from "./plan/types.js";
import type { CompactMode, CompactReport } from "./report/types.js";
import type { Compacted, CompactOptions, CompactResult, DefaultWritten, OpenAIChatInput } from "./types.js";

/** Pruning, summarizing and writing the result: loaded with the first pass that rewrites. */
type Rewrite = typeof import("./pass.js");
/** Handed what `accept` needs to write a pass again with an edited handoff (src/review.ts). */
type Review<M> = (r: import("./pass.js").Review<M>) => void;

/** A transcript that is plainly in another built-in format than the dialect that reads it: never a silent mis-read. */
function misread(dialect: Dialect<unknown>, input: unknown[]): string[] {
  const seen = Object.hasOwn(BUILT_IN, dialect.name) ? sniffDialect(input) : undefined;
  return seen && seen !== dialect.name
    ? [`these messages look like the ${seen} format but were read as ${dialect.name}: pass dialect: ${BUILT_IN[seen]} (tool calls and results may have been missed)`]
    : [];
}

function baseReport(p: Prepared<unknown>, mode: CompactMode, started: number): CompactReport {
  const { plan: pl, input } = p;
  return {
    mode,
    tokensBefore: pl.tokens.total,
    tokensAfter: pl.tokens.total,
    messagesBefore: input.length,
    messagesAfter: input.length,
    partitions: { head: pl.head, middle: pl.middle, tail: pl.tail },
    droppedMessages: 0,
    firstChangedIndex: -1,
    warnings: [...p.warnings],
    durationMs: Date.now() - started,
    reason: pl.reason,
    pruned: [],
    failures: [],
    sanitized: { removedOrphanResults: [], stubbedCalls: [], rewritten: [], messagesDropped: 0, messagesAdded: 0 },
  };
}

function unchanged<M>(p: Prepared<M>, mode: "noop" | "aborted", started: number, why?: string): CompactResult<M> {
  const { stalled } = p.plan;
  const report = baseReport(p as Prepared<unknown>, stalled ? "stalled" : mode, started);
  if (stalled) report.stalled = stalled;
  if (why) report.warnings.push(why);
  const r: CompactResult<M> = { messages: p.input, state: p.state, report };
  // A system prompt kept beside the messages comes back beside them, as it was (src/pass.ts adds the note).
  if (p.system !== undefined) [r.system, report.systemChanged] = [p.system, false];
  return r;
}

/** The rewriting code once loaded: a later pass skips the loader (with a transpiling loader, ~0.2 ms a call). */
let rewriteCode: Promise<Rewrite> | undefined;

/**
 * Why the rewriting code did not load, safe to report: the loader may quote a signed URL, token and all.
 * Redaction loads only with a pass that rewrites too; when it cannot load either, the reason is left out.
 */
async function loadError(error: unknown): Promise<string> {
  try {
    const { redactor } = await import("./redact/index.js");
    return ` (${redactor.redactMessage(error instanceof Error ? error.message : String(error))})`;
  } catch {
    return "";
  }
}

/**
 * A transcript at this share of its threshold will soon be compacted: a no-op pass starts loading the
 * rewriting code and the summary stage, so that the pass that rewrites finds them loaded (the app
 * meanwhile waits for its model; in a fresh Node process the loading is ~5 ms of a first pass).
 */
const NEAR_THRESHOLD = 0.8;

/**
 * Starts loading what a pass that rewrites needs when the plan finds the transcript near its threshold
 * (a no-op pass, `Compactor.shouldCompact`). A failed load is forgotten here and the pass that needs it
 * calls import() again (a runtime that remembers a failed module, as browsers do for a page, fails it
 * again: the pass then writes the marker, as it would had its own load failed).
 */
export function prefetchNear({ tokens }: Plan): void {
  if (rewriteCode || tokens.total < NEAR_THRESHOLD * tokens.threshold) return;
  (rewriteCode = import("./pass.js")).catch(() => (rewriteCode = undefined)); // attached first: forgotten before a later pass asks
  import("./summarize/stage.js").catch(() => {}); // its own loader (src/summarize/load.ts) then finds it loaded
}

/**
 * One compaction pass. Under the threshold it is a no-op that returns the same array. `M`, the
 * caller's message type (an SDK's own), must be one the dialect reads (`D`); the result is `M[]`,
 * widened with what the dialect writes (`W`) only when `M` does not hold it.
 */
export function compact<M extends D, D = OpenAIChatInput, W = DefaultWritten<D>>(
  messages: readonly M[],
  options: CompactOptions<D, W>,
): Promise<CompactResult<Compacted<M, W>>> {
  return compactPass<D>(messages, options) as Promise<CompactResult<Compacted<M, W>>>;
}

/** The pass on the dialect's message type, and for `propose` what accepting it with an edited handoff needs. */
export async function compactPass<M>(messages: unknown, options: CompactOptions<M, unknown>, review?: Review<M>): Promise<CompactResult<M>> {
  const started = Date.now();
  const p = prepare<M>(messages, options, PASS);
  p.warnings.push(...misread(p.dialect as Dialect<unknown>, p.input)); // a pass's word, not the plan's: `{ plan }` skips the sniffing
  const emit = options.onEvent ?? (() => {});
  emit({ type: "plan", plan: p.plan });
  if (!p.plan.shouldCompact) {
    prefetchNear(p.plan);
    return unchanged(p, "noop", started);
  }
  if (options.signal?.aborted) return unchanged(p, "aborted", started, "aborted before compaction started");

  // Pruning, summarizing and writing the result load with the first pass that rewrites.
  let rewrite: Rewrite;
  try {
    rewrite = await (rewriteCode ??= import("./pass.js"));
  } catch (error) {
    rewriteCode = undefined; // a later pass tries again
    return unchanged(p, "noop", started, `the compaction code could not be loaded${await loadError(error)}: kept as it was`);
  }
  // The default cache rates are picked here, not in the lazily loaded report: a module that both an
  // import() and the entry reach goes into every bundle of the entry, `{ plan }`'s too (esbuild shares it).
  const rates = options.cacheRates ?? (p.dialect.name === "anthropic" ? ANTHROPIC_CACHE_RATES : OPENAI_CACHE_RATES);
  const done = await rewrite.rewritten(p, options as CompactOptions<M>, emit, (m) => baseReport(p as Prepared<unknown>, m, started), started, rates, review);
  return done === "aborted" ? unchanged(p, "aborted", started, "aborted while summarizing") : done;
}
