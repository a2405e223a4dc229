// Adoption: a caller that parses each request anew (a server, a worker's session) hands back the
// objects of its previous request where a message reads the same, so that the token count kept by
// message object (src/estimate) is found and only what is new is counted. Not on `plan`'s path, nor
// exported by the package (its bundle has no room): the worker's session imports it, and a pass that
// rewrites adopts the estimate's views (`keptViews`).
import type { MessageView } from "../dialects/view.js";
import { counted, same } from "./index.js";

/**
 * Whether two values write the same JSON, key order included: arrays, plain objects and primitives
 * compared in depth; any other object (a Date, a Uint8Array) only when it is the same object.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(a);
  if (proto !== Object.getPrototypeOf(b) || (proto !== Object.prototype && proto !== null)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k !== others[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * `messages`, each one that reads the same as the message at its index in `previous` (the same JSON,
 * key order included) replaced by that earlier object: a new array when one was, else `messages`
 * itself (an SDK's own objects, the same as last time, change nothing). Linear: a changed message
 * costs up to its first difference. Anything but an array is returned as given, for validation to refuse.
 */
export function adoptUnchanged<M>(previous: readonly M[] | undefined, messages: readonly M[]): readonly M[] {
  let out: M[] | undefined;
  const n = previous && Array.isArray(messages) ? Math.min(previous.length, messages.length) : 0;
  for (let i = 0; i < n; i++) {
    const before = previous![i];
    if (before !== messages[i] && sameJson(before, messages[i])) (out ??= [...messages])[i] = before;
  }
  return out ?? messages;
}

/**
 * Each view the estimate keeps for its message where it reads as the pass's own does (the message given
 * again, or adopted by a worker's session; else the pass's view): what a pass learns of a view by its
 * identity (an output's exit status, its one-liner's facts) is then learnt once across passes.
 */
export const keptViews = (views: MessageView[], messages: readonly unknown[]) =>
  views.map((v, i) => {
    const kept = counted.get(messages[i] as object)?.[0];
    return kept && (kept === v || same(kept, v)) ? kept : v; // (the view this pass's plan counted is kept: the same object)
  });
