// maxRequestBytes: a request that is over its byte budget (screenshots: codex#41338, 53 of them, 32.9 MB
// against a 32 MB cap) loses its oldest images first, each message's stubbed whole, until it fits; never
// those of the latest user message nor of a pinned one. Each stub cites the message's reference (the
// message is archived under it) and is reported as a pruned "image".
import { refOf, type Refs } from "../refs.js";
import type { Dialect } from "../dialects/view.js";
import { utf8Bytes as size } from "../estimate/index.js";
import { rewrittenTokens } from "../estimate/rewritten.js";
import type { Settings } from "../options.js";
import type { Plan } from "../plan/types.js";
import type { PruneResult } from "./index.js";

/**
 * The request's bytes counted as plan counted them, for `messages` (each one the input kept by
 * identity costs what it did): their JSON array's brackets and commas too, `[]` when none are left.
 */
export function requestBytes<M>(messages: M[], input: M[], bytes: number[], plan: Plan): number {
  let total = plan.bytes! - bytes.reduce((a, b) => a + b, input.length + 1) + (messages.length || 1) + 1;
  const known = new Map(input.map((m, i) => [m, bytes[i]]));
  for (const m of messages) total += known.get(m) ?? size(m);
  return total;
}

/**
 * Stubs the images of `x`'s messages, oldest first, while the request is over `s.maxRequestBytes`
 * (in place of `x`'s arrays). Returns the bytes left; `x.messages` removed later by a summary only make
 * the request smaller, so what it counts is what the request takes at most.
 */
export function stubForBytes<M>(x: PruneResult<M>, input: M[], bytes: number[], plan: Plan, s: Settings, dialect: Dialect<M>, pass: Refs): number {
  let total = requestBytes(x.messages, input, bytes, plan);
  for (let i = 0; i < x.messages.length && total > s.maxRequestBytes!; i++) {
    const v = x.views[i];
    if (!(v.images + v.attachments) || i === plan.latestUserIndex || plan.pinned.includes(i) || plan.userPinned?.includes(i)) continue;
    const before = x.messages[i] === input[i] ? bytes[i] : size(x.messages[i]);
    const next = dialect.withoutImages(x.messages[i], `[{kind} omitted: the request was over maxRequestBytes; the rest of its message is archived as ${refOf(i, pass)}]`);
    const view = dialect.view(next);
    const tokens = rewrittenTokens(view, s, x.messages[i]); // its unchanged texts not counted again
    total -= before - size(next);
    const at = x.items.findIndex((it) => it.index === i);
    if (at >= 0) x.items[at] = { ...x.items[at], tokensAfter: tokens };
    else x.items.push({ index: i, kind: "image", tokensBefore: x.perMessage[i], tokensAfter: tokens });
    x.total += tokens - x.perMessage[i];
    [x.messages[i], x.views[i], x.perMessage[i]] = [next, view, tokens];
  }
  return total;
}
