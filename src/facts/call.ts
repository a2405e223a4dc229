// The facts of a tool call, read by the pruner's one-liners and the summarizer's ledgers alike: its
// arguments parsed (and redacted as a whole), what it was pointed at, its exit code, a clipped
// description. Quoted values are redacted as the whole arguments redact them, before any value or
// clip is taken from them: a piece of a secret no longer has a shape to recognise.
import type { Redactor } from "../redact/index.js";
import type { Windows } from "../redact/window.js";

/** What quoting needs of redaction: handed in by the pass (see src/pass.ts). */
export type Redaction = Pick<Redactor, "redact"> & Pick<Windows, "redactFrom" | "readTo" | "readFrom"> & Parsing;

/**
 * The pass's JSON.parse, read once a text (src/pass.ts `readOnce`): a call's arguments are parsed by
 * prune's draft and again by the checkpoint. The trees it answers are shared: only read, never changed.
 */
export interface Parsing {
  parse?: (json: string) => unknown;
}

const TARGET_KEYS = ["command", "cmd", "file_path", "path", "filename", "pattern", "query", "url", "description"];

/** `v` where it is a plain object (not null, not an array), else undefined: what tool-call arguments must be. */
export const objectOf = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** Tool-call arguments as an object; undefined when they are not a JSON object. */
export function parseArguments(args: string, r?: Parsing): Record<string, unknown> | undefined {
  try {
    return objectOf((r?.parse ?? JSON.parse)(args));
  } catch {
    return undefined;
  }
}

/**
 * Whitespace folded, cut to `max` characters with an ellipsis: between words when one ends in the last
 * 40 characters, so any piece of a token left at the cut is at least 40 long, enough for redaction to
 * recognise its shape.
 */
export function clip(s: string, max: number): string {
  const head = s.slice(0, max * 4); // whitespace folding needs no more than this
  const flat = (/[^\S ]| {2}/.test(head) ? head.replace(/\s+/g, " ") : head).trim(); // folded only where a run is not one space already
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(" ", max - 1);
  // A space before the ellipsis: glued to a word, "…" would make it look already masked to `redact`.
  return `${flat.slice(0, space > max - 41 ? space : max - 2)} …`;
}

/**
 * `Bash command="npm test"`: the tool and what it was pointed at. The values come from the arguments
 * redacted as a whole (a sibling argument may say what a value is), then each decoded value again.
 */
export function describeCall(name: string | undefined, args: string | undefined, r: Redaction, trees = args ? redactedArguments(args, r) : undefined): string {
  const { redact } = r;
  const parsed = objectOf(trees?.clean);
  const targets: string[] = [];
  if (parsed) {
    for (const key of TARGET_KEYS) {
      const v = Object.hasOwn(parsed, key) ? parsed[key] : undefined;
      if (typeof v === "string" && v) targets.push(`${key}=${JSON.stringify(clip(redact(v), 120))}`);
      if (targets.length === 2) break;
    }
  }
  return [name ? redact(name) : "tool", ...targets].join(" ");
}

const EXIT_CODE =
  /\b(?:exit(?:ed)?[ _-]?(?:code|status)|exited with(?: code)?|return[ _]?code|returncode)\b["']?\s*[:=]?\s*(-?\d{1,3})\b/i;
export function exitCode(output: string): number | undefined {
  const m = EXIT_CODE.exec(output.length > 20000 ? output.slice(0, 4000) + output.slice(-4000) : output);
  return m ? Number(m[1]) : undefined;
}

const exits = new WeakMap<{ text: string }, number | undefined>();
/** `exitCode` of a tool result's view, read once a view: pruning's one-liner and the summary's material both state it. */
export const exitOf = (r: { text: string }): number | undefined => (exits.has(r) ? exits.get(r) : exits.set(r, exitCode(r.text)).get(r));

export const LEAF_LIMIT = 200;

/**
 * A long string leaf as far as what shrinking keeps of it (and quoting: 120 characters) and a shape
 * can reach past that, and its end as far back as a match may start that runs on into the next member
 * (`…$API_KEY", "password": …`, read as a name and its value); between them a line break, which no match
 * crosses; `cut` learns whether one was shortened.
 */
function windowed(v: unknown, r: Redaction, cut: { any: boolean }): unknown {
  if (typeof v === "string") {
    const end = v.length > LEAF_LIMIT ? r.readTo(v, LEAF_LIMIT) : undefined;
    if (end === undefined || end >= v.length) return v;
    const from = r.readFrom(v);
    if (from <= end) return v;
    cut.any = true;
    return `${v.slice(0, end)}\n${v.slice(from)}`;
  }
  if (Array.isArray(v)) return v.map((x) => windowed(x, r, cut));
  // fromEntries defines own properties: a "__proto__" key stays a key, never a prototype.
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, windowed(x, r, cut)]));
  return v;
}

/** JSON parsed, or undefined: a window that redaction left unparsable is read whole instead. */
function parseOr(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/**
 * Whether every leaf cut short for reading (`short` against `raw`) came out of redaction as it went
 * in: with its siblings (`clean`) and alone, decoded (as shrinking redacts it again).
 */
function unmasked(raw: unknown, short: unknown, clean: unknown, redact: (text: string) => string): boolean {
  if (typeof raw === "string") return raw === short || (typeof clean === "string" && short === clean && redact(clean) === clean);
  if (raw === null || typeof raw !== "object" || short === null || typeof short !== "object" || clean === null || typeof clean !== "object") return true;
  const [r, s, c] = [Object.values(raw), Object.values(short), Object.values(clean)];
  return r.every((x, i) => unmasked(x, s[i], c[i], redact));
}

/** A call's arguments parsed: redacted (`clean`) and as the call has them (`raw`). */
export interface ArgumentTrees {
  raw: unknown;
  clean: unknown;
}

/**
 * Tool-call arguments parsed and redacted as a whole (a sibling may say what a value is:
 * `"kind":"Secret"`, `"password"`), each long string leaf read only as far as it is kept: a 40 KB
 * file being written costs a window, not the file. `raw`: the same tree as the call has it, for the
 * lengths of the leaves. Undefined when not JSON, or nested deeper than the stack.
 */
export function redactedArguments(args: string, r: Redaction): ArgumentTrees | undefined {
  try {
    const raw: unknown = (r.parse ?? JSON.parse)(args);
    const cut = { any: false };
    // a shape of unbounded reach anywhere in them (a Secret's kind in a sibling): all of every leaf
    const short = r.readTo(args, 0) === undefined ? raw : windowed(raw, r, cut);
    if (cut.any) {
      const clean = parseOr(r.redact(JSON.stringify(short)));
      // a window redacted to itself says its kept part is clean; one that masked something may have
      // masked text past the kept part, whose length no longer tells what the whole would keep
      if (clean !== undefined && unmasked(raw, short, clean, r.redact)) return { raw, clean };
    }
    const whole = r.redact(args);
    return { raw, clean: whole === args ? raw : JSON.parse(whole) }; // nothing masked: the same tree, parsed once
  } catch {
    return undefined;
  }
}

/** What prune writes in place of an image; the summary's material recognises it in a user's words. */
export const IMAGE_STUB = "[{kind} omitted during compaction]";
