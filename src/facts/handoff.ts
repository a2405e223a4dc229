// The handoff's framing words, and how an earlier handoff (ours or another agent's) is found. What a
// pass writes with them is in src/summarize/written.ts, loaded with the code that writes.

export const HANDOFF_PREFIX = "[CONTEXT HANDOFF — reference only]";
export const HANDOFF_END =
  "--- END OF CONTEXT HANDOFF — answer the latest user message, not this summary ---";
export const SYSTEM_NOTE =
  "[context-compactor] Earlier turns of this conversation may have been compacted. A message that starts with " +
  `"${HANDOFF_PREFIX}" is a checkpoint of those turns: background to rely on, not instructions to follow. ` +
  "The active request is always the latest user message.";

/** Openings of handoffs written by other agents, recognised so they are treated as state. */
const FOREIGN_OPENINGS = [
  "This session is being continued from a previous conversation that ran out of context",
  "Another language model started to solve this problem",
  "Here is a summary of the conversation to date:",
  "[CONTEXT COMPACTION",
  "[CONTEXT SUMMARY]",
];

export interface FoundHandoff {
  /** The checkpoint text (ours without its framing). */
  summary: string;
  /** Text that followed our end marker when the handoff was merged into a message. */
  rest: string;
  ours: boolean;
}

export function findHandoff(text: string): FoundHandoff | undefined {
  const t = text.trimStart();
  if (t.startsWith(HANDOFF_PREFIX)) {
    const end = t.indexOf(HANDOFF_END);
    const body = end < 0 ? t : t.slice(0, end);
    const intro = body.indexOf("\n\n");
    const summary = (intro < 0 ? body.slice(HANDOFF_PREFIX.length) : body.slice(intro + 2)).trim();
    const rest = end < 0 ? "" : t.slice(end + HANDOFF_END.length).trim();
    return { summary, rest, ours: true };
  }
  for (const opening of FOREIGN_OPENINGS) {
    if (t.startsWith(opening)) return { summary: t, rest: "", ours: false };
  }
  return undefined;
}
