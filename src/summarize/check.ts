// The check of a model's checkpoint: the latest request and every unresolved error line must survive
// it, or the deterministic ledgers are appended. (Imported statically: a dynamic chunk importing the
// deterministic summarizer made bundlers share it with, and load it for, `import { plan }`.)
import { clip } from "../prune/one-liner.js";
import type { Redactor } from "../redact/index.js";
import { deterministicCheckpoint } from "../summarizers/deterministic.js";
import type { HandoffMaterial, SummaryCheck } from "../types.js";
import { INJECTED, ledgers } from "./ledgers.js";

/** Whitespace folded, the first 60 characters: what "survives" means for a line. */
const key = (s: string) => clip(s, 1000).slice(0, 60);

export function checkSummary(text: string, material: HandoffMaterial, maxOutputTokens: number, redactor: Redactor): { text: string; check: SummaryCheck } {
  const l = ledgers(material.turns);
  const latest = material.latestAsk && !INJECTED.test(material.latestAsk) ? material.latestAsk : l.requests.at(-1)?.[0];
  const errors = [...l.errors.values()].filter((e) => e.resolvedAt === undefined).map((e) => e.lines[0]);
  const [ask, ...lines] = redactor.redactMany([latest ?? "", ...errors]);
  const folded = clip(text, text.length * 4);
  const check: SummaryCheck = {
    latestRequest: !latest || folded.includes(key(ask)),
    unresolvedErrors: errors.length,
    errorsKept: lines.filter((x) => folded.includes(key(x))).length,
    ledgersAppended: false,
  };
  if (check.latestRequest && check.errorsKept === check.unresolvedErrors) return { text, check };
  check.ledgersAppended = true;
  const appendix = `\n\n---\nLedgers computed from the same turns (the summary above missed ${check.latestRequest ? "" : "the latest request, "}${check.unresolvedErrors - check.errorsKept} unresolved error line(s)):\n\n${deterministicCheckpoint(material, redactor, maxOutputTokens)}`;
  return { text: text + appendix, check };
}
