// trimToolOutput: a tool output over its budget cut when it is written into the transcript, the whole
// kept in an archive entry. Cut at insertion, it never changes later: the cached prefix stays warm, and
// an output too large for the window never gets in to break compaction itself. Its own module, loaded
// only by who imports it (the AI SDK middleware, the worker's proxies).
import { heuristicTokens } from "../estimate/index.js";
import { hash53 } from "../fingerprint.js";
import { cutOutput, notableLines } from "./shrink.js";
import type { Dialect } from "../dialects/view.js";
import type { Archive } from "../archive/types.js";

export interface TrimOptions {
  /** The most tokens the text put in the transcript may take (by `countTokens`). */
  maxTokens: number;
  /** Token counter; default the heuristic estimator `compact` uses. */
  countTokens?: (text: string) => number;
  /** The reference the stand-in cites; default `#out-<hash of the output>`, the same for the same output. */
  ref?: string;
}

export interface TrimmedToolOutput {
  /** What to put in the transcript: the output itself when it fits, else its head, tail and error lines with a stand-in citing `ref`. */
  text: string;
  trimmed: boolean;
  tokensBefore: number;
  tokensAfter: number;
  /** When trimmed: the reference the stand-in cites, and the archive entry holding the whole output under it (read it with `recall`). */
  ref?: string;
  archive?: Archive;
}

const WHY = "over maxToolOutputTokens when it was written";

/**
 * `text` within `maxTokens`: its first and last characters, every error and exit-status line between
 * them that fits (half the room is theirs), and a stand-in citing the archive entry that holds the
 * whole. Deterministic: the same output and options give the same bytes, request after request.
 */
export function trimToolOutput(text: string, options: TrimOptions): TrimmedToolOutput {
  const { maxTokens } = options ?? {};
  if (typeof text !== "string") throw new TypeError("context-compactor: trimToolOutput takes the tool output as a string");
  if (!(Number.isFinite(maxTokens) && maxTokens > 0)) throw new RangeError("context-compactor: trimToolOutput needs maxTokens, a number of tokens > 0");
  const count = options.countTokens ?? heuristicTokens;
  const tokensBefore = count(text);
  if (tokensBefore <= maxTokens) return { text, trimmed: false, tokensBefore, tokensAfter: tokensBefore };
  const ref = (options.ref ?? `out-${hash53(text)}`).trim().replace(/^#?/, "#"); // as the archive keys it (normalizeRef)
  const bare = cutOutput(text, 0, 0, ref, "trimmed", WHY).trim();
  if (count(bare) > maxTokens) throw new RangeError(`context-compactor: maxTokens ${maxTokens} is under what the stand-in alone takes (${count(bare)} tokens)`);
  // Half of what the stand-in leaves is for the error lines (in characters, at their own ratio), the
  // rest for head and tail (at the output's); each lowered until the whole fits.
  const spare = maxTokens - count(bare);
  const lines = notableLines(text).join("\n");
  const lineTokens = lines ? count(lines) : 0;
  let lineRoom = lines ? Math.floor((spare / 2) * (lines.length / Math.max(1, lineTokens))) + 1 : 0;
  let edge = Math.floor(((spare - Math.min(spare / 2, lineTokens)) * text.length) / tokensBefore / 2);
  let out = bare;
  for (let tries = 0; tries < 60; tries++) {
    const cut = cutOutput(text, edge, lineRoom, ref, "trimmed", WHY);
    const tokens = count(cut);
    if (tokens <= maxTokens) {
      out = cut;
      break;
    }
    if (edge > 0) edge = Math.max(0, Math.min(edge - 1, Math.floor((edge * maxTokens) / tokens) - 4));
    else lineRoom = Math.floor(lineRoom * 0.8);
  }
  return { text: out, trimmed: true, tokensBefore, tokensAfter: count(out), ref, archive: { [ref]: { role: "tool", results: [text] } } };
}

/** What `trimResults` did: the messages to send, how many outputs it trimmed, and the archive of their whole. */
export interface TrimmedResults<M> {
  /** The messages, each one without a trimmed output the same object. */
  messages: M[];
  trimmed: number;
  archive: Archive;
}

/**
 * Every tool output of `messages` over `maxTokens` trimmed (trimToolOutput), in any dialect; outputs
 * that carry images are left whole. Deterministic, so a proxy or middleware that applies it to every
 * request trims an output the first time it appears and identically ever after: the prefix a provider
 * cached never changes.
 */
export function trimResults<M>(messages: M[], dialect: Dialect<M>, options: TrimOptions): TrimmedResults<M> {
  const archive: Archive = {};
  let trimmed = 0;
  const out = messages.map((m) => {
    const outputs = new Map<number, string>();
    const whole: Archive = {};
    dialect.view(m).results.forEach((r, k) => {
      if (r.images) return;
      const t = trimToolOutput(r.text, { ...options, ref: undefined });
      if (!t.trimmed) return;
      outputs.set(k, t.text);
      Object.assign(whole, t.archive);
    });
    const next = outputs.size ? dialect.withResults(m, outputs) : m;
    // An output the dialect cannot rewrite (a Responses item of a kind it keeps as it is) stays whole.
    if (next !== m) {
      trimmed += outputs.size;
      Object.assign(archive, whole);
    }
    return next;
  });
  return { messages: out, trimmed, archive };
}
