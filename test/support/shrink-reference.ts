// shrinkArguments as it was before round 10 (src/prune/stand-ins.ts): every tree shrunk into a copy,
// then stringified. The oracle of the property that the stringify-with-a-replacer path writes the same.
import { LEAF_LIMIT, redactedArguments, type Redaction } from "../../src/facts/call.js";

const TOKEN_CHAR = /[\w+/=.~-]/;
function leafCut(v: string): number {
  let i = LEAF_LIMIT;
  while (i > 0 && TOKEN_CHAR.test(v[i - 1]) && TOKEN_CHAR.test(v[i])) i--;
  if (i > 0 && i < LEAF_LIMIT) return i;
  const c = v.charCodeAt(LEAF_LIMIT - 1);
  return c >= 0xd800 && c <= 0xdbff ? LEAF_LIMIT - 1 : LEAF_LIMIT;
}

function shrinkValue(v: unknown, raw: unknown, redact: (text: string) => string): unknown {
  if (typeof v === "string") {
    const length = typeof raw === "string" ? raw.length : v.length;
    if (length <= LEAF_LIMIT) return v;
    const clean = redact(v);
    if (clean.length <= LEAF_LIMIT && length === v.length) return clean;
    const cut = clean.length <= LEAF_LIMIT ? clean.length : leafCut(clean);
    return `${clean.slice(0, cut)} ...[truncated ${length - cut} chars]`;
  }
  if (v === null || typeof v !== "object") return v;
  const raws = raw !== null && typeof raw === "object" ? Object.values(raw) : [];
  if (Array.isArray(v)) return v.map((x, i) => shrinkValue(x, raws[i], redact));
  return Object.fromEntries(Object.entries(v).map(([k, x], i) => [k, shrinkValue(x, raws[i], redact)]));
}

export function shrinkArgumentsReference(args: string, r: Redaction, trees = redactedArguments(args, r)): string | undefined {
  if (!trees) return undefined;
  let shrunk: string;
  try {
    shrunk = JSON.stringify(shrinkValue(trees.clean, trees.raw, r.redact));
  } catch {
    return undefined;
  }
  return shrunk.length < args.length ? shrunk : undefined;
}

/** src/prune/stand-ins.ts `thousands` before round 12: a pattern. */
export const formerThousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
