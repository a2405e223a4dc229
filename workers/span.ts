// The compacted span a session keeps: what it sent upstream in place of the first n messages of the
// client's history. Clients resend their whole history every turn; a request that starts with that
// span is rewritten by substitution (the same bytes as last time, so the provider's prompt cache
// holds) and only its new turns are appended, until the transcript crosses the threshold again.
import { HANDOFF_PREFIX } from "../src/index.js";
import { hash53 } from "../src/fingerprint.js";

/** An entry of the compacted span: an original message, sent as the client sends it now (its index), or one a pass wrote. */
export type Entry = { at: number } | { message: unknown };

export interface Span {
  /** How many of the client's messages the span stands for. */
  n: number;
  /** Fingerprint of those n messages, the system prompt left out (see fingerprintOf). */
  fingerprint: string;
  entries: Entry[];
  /** The number each entry is cited by (`#n`); null for one a pass wrote (a handoff). */
  refs: (number | null)[];
  /** The number the client's message n is cited by; the later ones follow. */
  next: number;
  /** Whether a pass added the note to the system prompt (it stays there). */
  noted: boolean;
}

/** JSON without `cache_control`: clients move their cache breakpoints from turn to turn. */
export const canonical = (v: unknown) => JSON.stringify(v, (k, x) => (k === "cache_control" ? undefined : x));

/**
 * Of the first n messages, the leading system messages only counted: agents put the date or the
 * environment in the system prompt, and a pass keeps it verbatim (taken from the request as sent now),
 * or notes it again (a separate system prompt).
 */
export function fingerprintOf(messages: unknown[], n: number): string {
  let lead = 0;
  while (lead < n && /^(?:system|developer)$/.test((messages[lead] as { role?: string })?.role ?? "")) lead++;
  return hash53(canonical([lead, messages.slice(lead, n)]));
}

/** How a span's messages are fingerprinted: a session's memo of fingerprintOf (rememberedFingerprint). */
export type Fingerprint = (messages: unknown[], n: number) => string;

/**
 * fingerprintOf, remembered for the messages it last read: a request whose first n messages are the
 * same objects (the session adopts each unchanged message of a request, src/estimate/adopt.ts) has
 * it without a walk over their JSON (~2× JSON.stringify, every request). Objects are never changed in
 * place here: the pass keeps its input as it was.
 */
export function rememberedFingerprint(): Fingerprint {
  let last: { of: unknown[]; fingerprint: string } | undefined;
  return (messages, n) => {
    if (last && last.of.length === n && messages.length >= n && last.of.every((m, i) => m === messages[i])) return last.fingerprint;
    const fingerprint = fingerprintOf(messages, n);
    last = { of: messages.slice(0, n), fingerprint };
    return fingerprint;
  };
}

/** What a pass is given: the transcript, each message's number, and its index in the client's request (if it is one of them). */
export interface Input {
  messages: unknown[];
  refs: (number | null)[];
  origin: (number | undefined)[];
}

/** The request with the span in place of the messages it stands for; undefined when it does not start with them. */
export function substitute(span: Span | undefined, messages: unknown[], fingerprint: Fingerprint): Input | undefined {
  if (!span || messages.length < span.n || fingerprint(messages, span.n) !== span.fingerprint) return undefined;
  const fresh = messages.slice(span.n);
  return {
    messages: [...span.entries.map((e) => ("at" in e ? messages[e.at] : e.message)), ...fresh],
    refs: [...span.refs, ...fresh.map((_, k) => span.next + k)],
    origin: [...span.entries.map((e) => ("at" in e ? e.at : undefined)), ...fresh.map((_, k) => span.n + k)],
  };
}

/** The whole request as a pass's input, its messages numbered from `base`. */
export function whole(messages: unknown[], base: number): Input {
  return { messages, refs: messages.map((_, i) => base + i), origin: messages.map((_, i) => i) };
}

const HANDOFF = JSON.stringify(HANDOFF_PREFIX).slice(1, -1);
const CITED = /\[output pruned #(\d+)\]/;

/**
 * The number each output message keeps: an input message passed through (the same object) keeps its
 * own; a rewritten one (pruned, arguments shrunk) the one of the input it stands for, where a run of
 * rewritten messages matches a run of inputs one for one, else the one its stand-in cites; a handoff none.
 */
function outputRefs(input: Input, output: unknown[]): { refs: (number | null)[]; from: (number | undefined)[] } {
  const at = new Map(input.messages.map((m, i) => [m, i]));
  const from = output.map((m) => at.get(m));
  const refs: (number | null)[] = [];
  for (let i = 0; i < output.length; i++) {
    if (from[i] !== undefined) {
      refs.push(input.refs[from[i]!]);
      continue;
    }
    let end = i;
    while (end < output.length && from[end] === undefined) end++;
    const before = i ? from[i - 1]! : -1;
    const after = end < output.length ? from[end]! : input.messages.length;
    const run = output.slice(i, end).map(canonical);
    const oneForOne = after - before - 1 === run.length && run.every((json) => !json.includes(HANDOFF));
    run.forEach((json, k) => {
      const cited = CITED.exec(json);
      refs.push(oneForOne ? input.refs[before + 1 + k] : json.includes(HANDOFF) || !cited ? null : Number(cited[1]));
    });
    i = end - 1;
  }
  return { refs, from };
}

/** The span a pass's output stands for: the client's `messages`, whose numbers continue from `next`. */
export function spanOf(input: Input, output: unknown[], messages: unknown[], next: number, noted: boolean, fingerprint: Fingerprint): Span {
  const { refs, from } = outputRefs(input, output);
  const entries = output.map((message, i): Entry => {
    const origin = from[i] === undefined ? undefined : input.origin[from[i]!];
    return origin === undefined ? { message } : { at: origin };
  });
  return { n: messages.length, fingerprint: fingerprint(messages, messages.length), entries, refs, next, noted };
}
