// Tool outputs trimmed at insertion by the proxies (issue 30): over the request's budget (its
// x-compaction-max-tool-output-tokens header, else MAX_TOOL_OUTPUT_TOKENS; off by default), each output
// is cut by trimResults before the session sees the request. The cut is a pure function of the output,
// so an output is trimmed the first time it appears and to the same bytes on every later request: the
// provider's cached prefix never changes. The whole outputs go to the session's archive.
import { dialects } from "../src/convert.js";
import { trimResults, type TrimmedResults } from "../src/prune/trim.js";
import type { Env } from "./env.js";
import type { HttpOptions } from "./options.js";

export const TRIM_HEADER = "x-compaction-max-tool-output-tokens";
export const BYTES_HEADER = "x-compaction-max-request-bytes";

/** A request's budget: its header, else the setting; undefined when neither is set ("off" turns a configured default off). */
function budget(headers: Headers, header: string, setting: string, value: string | undefined, unit: string): number | undefined {
  const v = headers.get(header) ?? value;
  if (v === undefined || v === "" || v === "off") return undefined;
  const n = Number(v);
  if (!(Number.isInteger(n) && n > 0)) throw new RangeError(`context-compactor: ${header} (or ${setting}) must be a whole number of ${unit} > 0 or "off", not ${JSON.stringify(v.slice(0, 40))}`);
  return n;
}

/** The request's tool-output budget (tokens), or undefined when trimming is off. */
export const toolOutputBudget = (env: Env, headers: Headers) => budget(headers, TRIM_HEADER, "MAX_TOOL_OUTPUT_TOKENS", env.MAX_TOOL_OUTPUT_TOKENS, "tokens");

/** The request's byte budget (`maxRequestBytes`: a provider's request cap, images counted by their size), or undefined. */
export const requestBytesBudget = (env: Env, headers: Headers) => budget(headers, BYTES_HEADER, "MAX_REQUEST_BYTES", env.MAX_REQUEST_BYTES, "bytes");

/** `messages` with their outputs over `maxTokens` trimmed, in the options' dialect; as they are without a budget. */
export function trimmedFor(messages: unknown[], options: HttpOptions, maxTokens: number | undefined): TrimmedResults<unknown> {
  if (!maxTokens) return { messages, trimmed: 0, archive: {} };
  return trimResults(messages, dialects[options.dialect ?? "openai"] as never, { maxTokens });
}
