// The legend: every mark the strips draw, shown as the strip draws it, with what it means.
// Each strip names the marks it uses; one table keeps the words the same everywhere.

export type Mark = "head" | "middle" | "tail" | "rewritten" | "handoff" | "user" | "tool" | "latest" | "pinned" | "pruned" | "threshold" | "runway" | "window";

interface Entry {
  /** How the mark looks: the classes of a small sample, and the glyph it carries. */
  sample: string;
  glyph?: string;
  label: string;
  meaning: string;
}

const ENTRIES: Record<Mark, Entry> = {
  head: { sample: "swatch head", label: "head", meaning: "the system prompt and first messages, sent verbatim" },
  middle: { sample: "swatch middle", label: "middle", meaning: "what a pass compacts: old tool outputs pruned first, then the rest summarized" },
  tail: { sample: "swatch tail", label: "tail", meaning: "the latest turns within the tail's token budget, sent verbatim" },
  rewritten: { sample: "swatch middle", label: "rewritten", meaning: "a kept message the pass changed: a pruned output's one-line stand-in, a shrunk output" },
  handoff: { sample: "swatch is-handoff", label: "handoff", meaning: "the checkpoint that replaces the middle, citing what it removed as #index" },
  user: { sample: "swatch middle user-edge", label: "user message", meaning: "dark lower edge; tool results are paler" },
  tool: { sample: "swatch middle tool-pale", label: "tool result", meaning: "paler block: the outputs prune replaces first" },
  latest: { sample: "mark-latest", glyph: "▲", label: "latest request", meaning: "the user's newest ask: always sent verbatim, pinned even when it falls in the middle" },
  pinned: { sample: "swatch middle pin-outline", label: "pinned", meaning: "solid outline: you pinned it (click a block to pin or unpin); dashed: its tool pair, kept with it" },
  pruned: { sample: "swatch middle mark-pruned", glyph: "✂", label: "pruned by prune alone", meaning: "outputs a prune-only pass would replace by a one-line stand-in" },
  threshold: { sample: "line threshold", label: "threshold", meaning: "compaction is due once the transcript reaches this line" },
  runway: { sample: "line runway", label: "prune target", meaning: "prune alone is enough only if it ends left of this line (threshold − runway)" },
  window: { sample: "line window", label: "window", meaning: "the effective window: context window − tokens reserved for the reply" },
};

/** The plan strip's marks, and the compacted transcript's. */
export const PLAN_MARKS: Mark[] = ["head", "middle", "tail", "latest", "pinned", "pruned", "user", "tool", "threshold", "runway", "window"];
export const RESULT_MARKS: Mark[] = ["head", "handoff", "rewritten", "tail"];

/** A legend of these marks: each entry its sample, its name and what it means (readable, not decoration). */
export function legend(marks: Mark[], testid: string): HTMLElement {
  const list = document.createElement("ul");
  list.className = "legend";
  list.dataset.testid = testid;
  list.setAttribute("aria-label", "Legend");
  for (const mark of marks) {
    const e = ENTRIES[mark];
    const item = document.createElement("li");
    item.dataset.mark = mark;
    const sample = Object.assign(document.createElement("span"), { className: `sample ${e.sample}`, textContent: e.glyph ?? "" });
    sample.setAttribute("aria-hidden", "true");
    const name = Object.assign(document.createElement("b"), { textContent: e.label });
    const meaning = Object.assign(document.createElement("span"), { textContent: e.meaning });
    item.append(sample, name, meaning);
    list.append(item);
  }
  return list;
}
