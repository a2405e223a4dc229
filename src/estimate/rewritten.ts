// A message a pass rewrites (an output pruned, arguments shrunk, images stubbed) is counted again by
// the texts it changed only: each text it kept has its count in the entry of the message it was
// rewritten from (src/estimate keeps each text with its count). Loaded with the pass, never by `plan`.
import type { MessageView } from "../dialects/view.js";
import { counted, messageTokens, type EstimateSettings } from "./index.js";

/**
 * Tokens of `m`, the view of a message rewritten from the message `from`: what `messageTokens(m, s)`
 * answers, each text `from` had (counted by the same counter) read rather than counted again.
 */
export function rewrittenTokens(m: MessageView, s: EstimateSettings, from: unknown): number {
  const kept = counted.get(from as object);
  const known = kept?.[1] === s.basis.counter ? kept[5] : [];
  // A text kept is the same string (one comparison); one changed mostly differs in length.
  const count = (x: string) => {
    const i = known.indexOf(x);
    return i < 0 ? s.basis.count(x) : (known[i + 1] as number);
  };
  return messageTokens(m, { ...s, basis: { ...s.basis, count } });
}
