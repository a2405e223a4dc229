// What the agents suite measures in what the upstream received: transcripts as lists of elements,
// the prefix share between compactions, and whether a compaction product carried a planted secret.
import { secretLeak, type Recorded, type Session } from "./upstream.js";
import type { Tapped } from "./tap.js";
import { apiOf, isMain } from "./upstream.js";

/** cache_control moves from turn to turn and is no part of the prompt a cache matches: left out (keys sorted, so a re-serialized object compares equal). */
function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([k]) => k !== "cache_control").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, strip(x)]));
  return v;
}

/** One text block is the string it holds (Claude Code sends its newest message as blocks, to mark it for the cache, and later as a string). */
function normalized(m: unknown): unknown {
  const x = strip(m) as { content?: unknown };
  const c = x?.content;
  if (Array.isArray(c) && c.length === 1 && c[0]?.type === "text" && Object.keys(c[0]).length === 2) return { ...x, content: c[0].text };
  return x;
}

/** A request as what precedes its turns (system, tools) and its turns, each serialized. */
export function transcript(r: Recorded): { fixed: string; items: string[] } {
  const b = r.body ?? {};
  const list: unknown[] = r.api === "responses" ? (typeof b.input === "string" ? [b.input] : b.input ?? []) : b.messages ?? [];
  const fixed = r.api === "anthropic" ? [b.system, b.tools] : r.api === "responses" ? [b.instructions, b.tools] : [b.tools];
  return { fixed: JSON.stringify(strip(fixed)), items: list.map((m) => JSON.stringify(normalized(m))) };
}

/** Request a's turns are an exact prefix of request b's, after the same system and tools. */
export function isPrefix(a: Recorded, b: Recorded): boolean {
  const x = transcript(a);
  const y = transcript(b);
  return x.fixed === y.fixed && x.items.length <= y.items.length && x.items.every((m, i) => m === y.items[i]);
}

export const PASS_FREE = new Set(["noop", "reused", "skipped"]);

/** The worker's answers to the main requests that it forwarded, in order: one per upstream main request. */
export function forwardedMain(tapped: Tapped[]): Tapped[] {
  return tapped.filter((t) => t.status < 400 && isMain(apiOf(t.path), t.body));
}

export interface PrefixShare {
  /** Consecutive main pairs after the first compaction whose later request ran no new pass. */
  eligible: number;
  /** Of those, the pairs where the earlier request is an exact prefix of the later. */
  kept: number;
  /** Passes the worker ran (a mode other than noop, reused, skipped) on main requests. */
  passes: number;
  /** Main requests whose transcript showed a compaction. */
  compacted: number;
  /** kept / eligible (1 when nothing was eligible before any compaction, for the control runs). */
  share: number;
}

/** `modes[i]`: the worker's x-compaction-mode for main[i] (undefined straight to the upstream). */
export function prefixShare(main: Recorded[], modes: (string | undefined)[]): PrefixShare {
  const first = main.findIndex((r) => r.compacted);
  let eligible = 0;
  let kept = 0;
  for (let k = Math.max(first, 0); k + 1 < main.length; k++) {
    const mode = modes[k + 1];
    if (mode && !PASS_FREE.has(mode)) continue; // a pass: the prefix may change there, once
    eligible++;
    if (isPrefix(main[k], main[k + 1])) kept++;
  }
  const passes = modes.filter((m) => m && !PASS_FREE.has(m)).length;
  return { eligible, kept, passes, compacted: main.filter((r) => r.compacted).length, share: eligible ? kept / eligible : 0 };
}

/**
 * Where a planted secret reached the upstream inside something a compaction wrote (a handoff, a
 * pruned output's one-liner, the system note): every element of a request from the first compacted
 * one on that the agent itself never sent verbatim. `sent`: the agent's own requests (as the tap
 * saw them on their way to the worker); without them, the upstream's requests before the first
 * compaction stand in (then a compacted request's newest raw turns count as products too).
 */
export function secretInProducts(s: Session, sent?: Recorded[]): string[] {
  const requests = s.requests.filter((r) => r.body && r.api !== "other");
  const first = requests.findIndex((r) => r.compacted);
  if (first < 0) return [];
  const raw = new Set<string>();
  for (const r of sent ?? requests.slice(0, first)) {
    const t = transcript(r);
    raw.add(t.fixed);
    t.items.forEach((m) => raw.add(m));
  }
  const leaks: string[] = [];
  requests.slice(first).forEach((r, n) => {
    const t = transcript(r);
    [t.fixed, ...t.items].forEach((el, j) => {
      const leak = raw.has(el) ? undefined : secretLeak(el, s.secrets);
      if (leak) leaks.push(`request ${first + n} (${r.path}), ${j === 0 ? "system/tools" : `turn ${j - 1}`}: ${leak}`);
    });
  });
  return leaks;
}

/** What the agent sent, from the tap's notes, as records the measures read. */
export function sentByAgent(tapped: Tapped[]): Recorded[] {
  return tapped
    .filter((t) => t.body && apiOf(t.path) !== "other")
    .map((t) => ({ api: apiOf(t.path), method: t.method, path: t.path, headers: {}, text: "", body: t.body, main: false, compacted: false }) as Recorded);
}

/** The secret went upstream before any compaction: the agent did read it (else the check above proves nothing). */
export function secretReadRaw(s: Session): boolean {
  const requests = s.requests.filter((r) => r.body && r.api !== "other");
  const first = requests.findIndex((r) => r.compacted);
  return requests.slice(0, first < 0 ? undefined : first).some((r) => secretLeak(r.text, s.secrets) !== undefined);
}
