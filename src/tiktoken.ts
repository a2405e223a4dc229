// context-compactor/tiktoken: exact token counts from js-tiktoken's pure-JS `lite` entry (no WebAssembly).
// A separate entry point, so the core bundle never carries the ~1 MB of ranks.
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import o200k_base from "js-tiktoken/ranks/o200k_base";

/**
 * A `countTokens` for the options: exact counts for the given BPE ranks (o200k_base by default,
 * the encoding of GPT-4o and later). Special-token text is counted as plain text.
 */
export function tiktokenCounter(encoding: TiktokenBPE = o200k_base): (text: string) => number {
  const encoder = new Tiktoken(encoding);
  return (text) => (text ? encoder.encode(text, [], []).length : 0);
}

export type { TiktokenBPE };
