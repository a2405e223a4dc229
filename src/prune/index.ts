// prune: deterministic savings in the middle before any model runs.
import { callsOfResults } from "../dialects/pairs.js";
import type { Dialect, MessageView, ToolCallView, ToolResultView } from "../dialects/view.js";
import { rewrittenTokens } from "../estimate/rewritten.js";
import { lastOf, sum } from "../plan/index.js";
import { keptTokens } from "../plan/kept.js";
import { IMAGE_PRUNE_MIN, PRUNE_MIN_CHARS, SHRINK_MIN_CHARS, STAND_IN, prunableOutput, shrinkable, type Settings } from "../options.js";
import type { PassRedactor } from "../redact/index.js";
import { windowed } from "../redact/window.js";
import type { Plan } from "../plan/types.js";
import type { PrunedItem } from "./types.js";
import { refOf, type Refs } from "../refs.js";
import { pruneReasoning } from "./reasoning.js";
import { shrinkOutput } from "./shrink.js";
import { describeCall, exitOf, redactedArguments, type ArgumentTrees, type Parsing, type Redaction } from "../facts/call.js";
import { IMAGE_STUB } from "../facts/call.js";
import { duplicateLine, outputFacts, prunedOutputLine, shrinkArguments, type OutputFacts } from "./stand-ins.js";

/** Redaction for one pass: each text and each call's arguments redacted once. */
type Once = Redaction & { argumentsOf(call: ToolCallView): ArgumentTrees | undefined };

/** Quoting that reads nothing: a drafted line quotes raw text, for its size alone, and never leaves a pass. */
const DRAFT: Redaction = { redact: (text) => text, redactFrom: (text, from) => text.slice(from), readTo: () => undefined, readFrom: () => 0 };

/**
 * A call's arguments are parsed and redacted to describe the call and again to shrink it: once (drafted
 * or not). Kept by the call's view, not its text: a string parsed anew is hashed on its first use as a
 * key (~0.1 ms a pass at 128k), and the redaction of the same text in another call is memoized anyway.
 */
function parsedOnce(r: Redaction): Once {
  const trees = new Map<ToolCallView, ArgumentTrees | undefined>();
  const once: Once = { ...r, argumentsOf: (c) => (trees.has(c) ? trees.get(c) : trees.set(c, redactedArguments(c.arguments, once)).get(c)) };
  return once;
}

export interface PruneResult<M> {
  /** The whole transcript with middle messages replaced where pruned (others by identity). */
  messages: M[];
  /** Reasoning removed from old turns, by message index (archived with the message). */
  reasoning: Map<number, string[]>;
  views: MessageView[];
  perMessage: number[];
  total: number;
  items: PrunedItem[];
}

/** Where the newest copy of a tool output worth deduplicating is: a message index, or undefined. */
type Newest = (text: string) => number | undefined;

/**
 * The newest copy of each tool output worth deduplicating, by length first: a map by text hashes every
 * output (a read of each: ~0.2 ms a pass at 128k), and most lengths are one output's. Texts that share
 * a length are mapped by text (any number of them in linear time).
 */
export function newestCopies(views: MessageView[]): Newest {
  const byLength = new Map<number, [text: string, at: number] | Map<string, number>>();
  views.forEach((m, i) => {
    for (const { text } of m.results) {
      if (text.length < PRUNE_MIN_CHARS) continue;
      const one = byLength.get(text.length);
      if (one instanceof Map) one.set(text, i);
      else byLength.set(text.length, !one || one[0] === text ? [text, i] : new Map([one, [text, i]]));
    }
  });
  return (text) => {
    const one = byLength.get(text.length);
    return one instanceof Map ? one.get(text) : one?.[0] === text ? one[1] : undefined;
  };
}

/** `[output pruned #212] …`: the one-liner cites where the archive keeps the whole output. */
function cited(line: string, ref: string): string {
  return line.replace("]", ` ${ref}]`);
}

/**
 * What is known of each output's one-liner that redaction does not change (`OutputFacts`), by its view:
 * a pass's draft and its write read it once, and a later pass given the same message object (an SDK's
 * next call, a worker's session adopting the last request's objects) has the same view (src/pass.ts).
 */
const known = new WeakMap<ToolResultView, OutputFacts>();

/** One-liners for the unprotected tool results of message `i` worth pruning, by result index. */
function prunedResults(i: number, m: MessageView, calls: (ToolCallView | undefined)[], newest: Newest, isProtected: (name?: string) => boolean, pass: Refs, once: Once, pictures: boolean) {
  const ref = refOf(i, pass);
  const outputs = new Map<number, string>();
  let duplicate = false;
  m.results.forEach((r, k) => {
    const call = calls[k];
    // An earlier pass's stand-in stays as it is: the output it replaced is archived under the reference it cites.
    if (isProtected(call?.name) || r.text.startsWith(STAND_IN)) return;
    // The call is described (its arguments parsed and redacted) only for an output that gets a line.
    const target = () => describeCall(call?.name, call?.arguments, once, call?.arguments ? once.argumentsOf(call) : undefined);
    const later = r.text.length >= PRUNE_MIN_CHARS ? newest(r.text) : undefined;
    if (later !== undefined && later > i) {
      outputs.set(k, cited(duplicateLine(target(), refOf(later, pass)), ref));
      duplicate = true;
    } else if (prunableOutput(r, pictures)) {
      const facts = known.get(r) ?? known.set(r, outputFacts(r.text, r.images, () => exitOf(r))).get(r);
      outputs.set(k, cited(prunedOutputLine(target(), r.text, r.images, once, facts), ref));
    }
  });
  return { outputs, duplicate };
}

function shrunkCalls(m: MessageView, isProtected: (name?: string) => boolean, once: Once): Map<number, string> {
  const shrunk = new Map<number, string>();
  m.toolCalls.forEach((c, k) => {
    if (c.arguments.length <= SHRINK_MIN_CHARS || isProtected(c.name)) return;
    const smaller = shrinkArguments(c.arguments, once, once.argumentsOf(c));
    if (smaller !== undefined) shrunk.set(k, smaller);
  });
  return shrunk;
}

/**
 * Prunes the middle; with `tail`, then the tail's tool calls and results, oldest first, only while
 * what compaction keeps verbatim is over the prune target (the latest request never, nor results the
 * model has not read yet). `pass` (compactions before this one) makes the references the one-liners
 * cite unique across passes. Redaction is handed in (see src/pass.ts). A `draft` quotes raw text in
 * the middle's one-liners and shrunk arguments (DRAFT: for their sizes, reading nothing): a pass
 * that summarizes the middle never sends them, and prunes again where they would leave, with what the
 * draft learnt of each output (`known`).
 */
export function prune<M>(messages: M[], views: MessageView[], plan: Plan, s: Settings, dialect: Dialect<M>, redaction: PassRedactor & Parsing, tail = false, pass: Refs = 0, draft = false): PruneResult<M> {
  const out = messages.slice();
  const outViews = views.slice();
  const perMessage = plan.tokens.perMessage.slice();
  const items: PrunedItem[] = [];
  const calls = callsOfResults(views);
  const newest = newestCopies(views);
  const isProtected = (name?: string) => name !== undefined && s.protectedTools.has(name);
  const pictures = s.imageTokens > IMAGE_PRUNE_MIN; // a stub must save something: its own words cost about 8 tokens
  const once = parsedOnce(windowed(redaction));
  const quote = draft ? parsedOnce({ ...DRAFT, parse: redaction.parse }) : once; // its trees read again by the checkpoint

  /** Prunes message `i`, its one-liners and shrunk arguments quoting through `r` (a draft in the middle, else redacted). */
  const pruneAt = (i: number, r: Once) => {
    const m = views[i];
    let next = messages[i];
    let kind: PrunedItem["kind"] | undefined;

    // (a message without results or calls makes no maps, nor a reference: about half of them)
    const results = m.results.length ? prunedResults(i, m, calls[i], newest, isProtected, pass, r, pictures) : undefined;
    const shrunk = m.toolCalls.length ? shrunkCalls(m, isProtected, r) : undefined;
    if (results?.outputs.size) {
      next = dialect.withResults(next, results.outputs);
      kind = results.duplicate ? "duplicate" : "tool_output";
    }
    if (shrunk?.size) {
      next = dialect.withArguments(next, shrunk);
      kind ??= "arguments";
    }
    if (m.images + m.attachments > 0 && pictures) {
      next = dialect.withoutImages(next, IMAGE_STUB);
      kind ??= "image";
    }

    if (kind) keep(i, next, kind);
  };
  const keep = (i: number, next: M, kind: PrunedItem["kind"]) => {
    const view = dialect.view(next);
    const tokens = rewrittenTokens(view, s, messages[i]); // its unchanged texts not counted again
    if (tokens >= perMessage[i]) return; // a stand-in that saves nothing is not worth the change
    out[i] = next;
    outViews[i] = view;
    items.push({ index: i, kind, tokensBefore: perMessage[i], tokensAfter: tokens });
    perMessage[i] = tokens;
  };

  for (let i = plan.middle.start; i < plan.middle.end; i++) if (!plan.pinned.includes(i)) pruneAt(i, quote); // the pinned request stays verbatim
  /** Shrinks the long outputs of message `i` to save about `excess` of its tokens. */
  const shrinkAt = (i: number, excess: number) => {
    const share = Math.max(0, perMessage[i] - excess) / perMessage[i];
    const outputs = new Map<number, string>();
    views[i].results.forEach((r, k) => {
      if (shrinkable(r.text)) outputs.set(k, shrinkOutput(once.redact(r.text), r.text.length * share, refOf(i, pass)));
    });
    if (outputs.size) keep(i, dialect.withResults(messages[i], outputs), "shrunk");
  };

  let kept = tail ? keptTokens(plan) : 0;
  // What the caller pinned (options.pin) is never pruned, in the tail either.
  const pinned = (i: number) => plan.userPinned?.includes(i) === true;
  // The last assistant turn and the results after it are in flight (the model has not read the
  // results, and its own calls explain them): never pruned.
  const unread = lastOf(views, "assistant");
  for (let i = plan.tail.start; tail && i < plan.tail.end && kept > plan.pruneTarget; i++) {
    if (i === plan.latestUserIndex || pinned(i) || !(views[i].toolCalls.length || views[i].results.length)) continue;
    if (i >= unread) continue;
    const before = perMessage[i];
    pruneAt(i, once);
    kept -= before - perMessage[i];
  }
  // Unless the request would not fit the window even so: a provider would refuse it. Then the unread
  // outputs are shrunk, largest first, until what is kept meets the prune target.
  if (tail && kept > plan.effectiveWindow) {
    const largest = views.map((_, i) => i).filter((i) => i > unread && i >= plan.tail.start && !pinned(i)).sort((a, b) => perMessage[b] - perMessage[a]);
    for (const i of largest) {
      const before = perMessage[i];
      if (kept > plan.pruneTarget) shrinkAt(i, kept - plan.pruneTarget);
      kept -= before - perMessage[i];
    }
  }

  const reasoning = new Map<number, string[]>();
  pruneReasoning({ messages: out, views: outViews, perMessage, items, reasoning }, plan, dialect, s);
  const total = plan.fixedTokens + sum(perMessage);
  return { messages: out, views: outViews, perMessage, total, items, reasoning };
}
