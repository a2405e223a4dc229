// Review before commit (issue 30 item 1): `propose` runs a pass and applies nothing; `accept` applies it,
// with the handoff as the pass wrote it or as a person edited it (redacted and checked like a model's).
import { compactPass } from "./compact.js";
import type { Review } from "./pass.js";
import { removedIndexes } from "./plan/kept.js";
import type { Plan } from "./plan/types.js";
import type { Compacted, CompactOptions, CompactResult, DefaultWritten, OpenAIChatInput, Proposal } from "./types.js";

/** What only `accept` reads of a proposal: the pass's result, and how to write it again with an edit. */
const held = new WeakMap<object, { result: CompactResult<unknown>; review?: Review<unknown> }>();

/** What a pass would do to `messages` (plan, handoff, messages, archive, report, the next state), applying nothing. */
export function propose<M extends D, D = OpenAIChatInput, W = DefaultWritten<D>>(messages: readonly M[], options: CompactOptions<D, W>): Promise<Proposal<Compacted<M, W>>> {
  return proposed<D>(messages, options) as Promise<Proposal<Compacted<M, W>>>;
}

/** The proposal, on the dialect's message type. */
async function proposed<M>(messages: unknown, options: CompactOptions<M, unknown>): Promise<Proposal<M>> {
  let plan: Plan | undefined;
  let review: Review<M> | undefined;
  const onEvent: CompactOptions<M>["onEvent"] = (e) => {
    if (e.type === "plan") plan = e.plan;
    options.onEvent?.(e);
  };
  const result = await compactPass(messages, { ...options, onEvent }, (r) => (review = r));
  const proposal: Proposal<M> = {
    plan: plan!,
    replaces: review ? removedIndexes(plan!) : [],
    messages: result.messages,
    report: result.report,
    state: result.state,
  };
  if (review) proposal.handoff = review.handoff;
  if (result.archive) proposal.archive = result.archive;
  if ("system" in result) proposal.system = result.system;
  held.set(proposal, { result: result as CompactResult<unknown>, review: review as Review<unknown> | undefined });
  return proposal;
}

/**
 * The pass a proposal describes, as `compact` returns it; with `handoff`, written again around that
 * summary (redacted; what it lost of the unresolved errors or the latest request appended, as for a model's).
 */
export function accept<M>(proposal: Proposal<M>, edit: { handoff?: string } = {}): CompactResult<M> {
  const h = held.get(proposal);
  if (!h) throw new RangeError("context-compactor: accept takes a proposal returned by propose (in this process, not a copy)");
  if (edit.handoff === undefined || edit.handoff === proposal.handoff) return h.result as CompactResult<M>;
  if (typeof edit.handoff !== "string") throw new RangeError("context-compactor: the edited handoff must be a string");
  if (!h.review) throw new RangeError(`context-compactor: this proposal writes no handoff (mode ${proposal.report.mode}): there is nothing to edit`);
  return h.review.revise(edit.handoff) as CompactResult<M>;
}
