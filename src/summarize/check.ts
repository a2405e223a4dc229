// The check of a model's checkpoint: what the transcript no longer carries verbatim must survive it
// (the latest request when it lies in the middle, every line of every unresolved error), or the missing items
// are appended, in the deterministic checkpoint's words. (Imported statically: a dynamic chunk made
// bundlers share the deterministic summarizer with, and load it for, `import { plan }`.)
import { refOf } from "../refs.js";
import { clip } from "../facts/call.js";
import type { Redactor } from "../redact/index.js";
import { SECTIONS } from "./checkpoint.js";
import type { HandoffMaterial, SummaryCheck } from "./types.js";
import { ledgers, redactedCalls, shortWhat } from "./ledgers.js";

/** Whitespace folded, the first 60 characters: what "survives" means for a line. */
const key = (s: string) => clip(s, 1000).slice(0, 60);

/** A line that opens one of the checkpoint's sections (a heading at any level, bold, or `Name:`), in any case. */
const SECTION = new RegExp(`^\\s*(#+\\s*|\\*\\*|__)?(${SECTIONS.join("|")})(\\*\\*|__)?\\s*(:|$)`, "im");

/**
 * Why a model's answer is no checkpoint, if it is none: one that opens none of its sections ("Hello",
 * an apology, an answer to the conversation) is refused, so the next summarizer writes one.
 */
export const notCheckpoint = (text: string): string | undefined => (SECTION.test(text) ? undefined : `no checkpoint section (## Active task, …) in "${clip(text, 80)}"`);

export function checkSummary(text: string, material: HandoffMaterial, redactor: Redactor): { text: string; check: SummaryCheck } {
  // each result's call as its whole arguments redact it (`redactedCalls`)
  const l = ledgers(material.turns, redactedCalls(material.turns, redactor.redactMany));
  // The latest request in the user's own words is kept verbatim (tail or pinned) unless the messages
  // after it hold only harness blocks (a reminder, a notification): then it lies in the middle.
  const latest = material.latestAskInMiddle ? material.latestAsk : undefined;
  const errors = [...l.errors.values()].filter((e) => e.resolvedAt === undefined);
  // Every error line of each, with what failed and where.
  const lines = errors.flatMap((e) => e.lines.map((line) => [line, e.what, e.at] as const));
  const [ask, ...quoted] = redactor.redactMany([latest ?? "", ...lines.flatMap(([line, what]) => [line, what])]);
  const folded = clip(text, text.length * 4);
  const missed = lines.map(([, , at], i) => [quoted[2 * i], quoted[2 * i + 1], at] as const).filter(([line]) => !folded.includes(key(line)));
  const check: SummaryCheck = {
    latestRequest: !latest || folded.includes(key(ask)),
    unresolvedErrors: lines.length,
    errorsKept: lines.length - missed.length,
    ledgersAppended: false,
  };
  if (check.latestRequest && !missed.length) return { text, check };
  check.ledgersAppended = true;
  const appendix = [
    "\n\n---\nWhat the summary above missed, from the ledgers of the same turns:",
    ...(check.latestRequest ? [] : [`## Active task\n> ${clip(ask, 600)}`]),
    ...(missed.length ? [`## Blocked\n${[...missed].reverse().map(([line, what, at]) => `- ${shortWhat(what, 120)}: "${clip(line, 160)}" ${refOf(at, material.pass)}`).join("\n")}`] : []),
  ];
  return { text: text + appendix.join("\n\n"), check };
}
