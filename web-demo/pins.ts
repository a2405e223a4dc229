// Pinning in the demo: click a message of the plan's strip (or press P on it) to pin it, again to
// unpin. Pinned messages (options.pin) are kept verbatim, with their tool pairs, whatever partition
// they fall in; the strip marks them (📌) and the pairs they bring along.
import type { CompactReport, Plan } from "../src/index.js";

const pinned = new Set<number>();

/** The pin option for the chosen messages (none while nothing is pinned). */
export const pinOption = () => (pinned.size ? { pin: (_m: unknown, i: number) => pinned.has(i) } : {});

/** A new transcript starts with nothing pinned. */
export const clearPins = () => pinned.clear();

/** Marks the strip's blocks the plan keeps pinned, and makes each one pin or unpin on a click or P; `changed` redraws. */
export function markPins(strip: HTMLElement, plan: Plan, changed: () => void): void {
  const kept = new Set(plan.userPinned ?? []);
  for (const el of strip.querySelectorAll<HTMLElement>(".block[data-index]")) {
    const i = Number(el.dataset.index);
    const chosen = pinned.has(i);
    el.classList.toggle("pinned", chosen);
    el.classList.toggle("pinned-pair", !chosen && kept.has(i));
    el.setAttribute("aria-pressed", String(chosen));
    if (chosen || kept.has(i)) el.setAttribute("aria-label", `${el.getAttribute("aria-label")}, ${chosen ? "pinned" : "kept with a pinned message"}`);
    el.title = chosen ? "Pinned: click to unpin" : "Click to pin (kept verbatim by every pass)";
    const toggle = () => {
      if (!pinned.delete(i)) pinned.add(i);
      changed();
    };
    el.addEventListener("click", toggle);
    el.addEventListener("keydown", (e) => {
      if (e.key === "p" || e.key === "P") toggle();
    });
  }
}

/** The stats row: how many messages the pins keep, and their tokens. */
export function pinStat(plan: Plan): [string, string, string] {
  const kept = plan.userPinned ?? [];
  const tokens = kept.reduce((t, i) => t + plan.tokens.perMessage[i], 0);
  return ["Pinned", kept.length ? `${kept.length} msgs · ${Math.round(tokens).toLocaleString("en-US")} tokens` : "none (click a block to pin it)", "pinned"];
}

/** The result's row: the pinned messages the pass kept verbatim. */
export const pinResult = (r: CompactReport): [string, string, string] => ["Pinned, kept verbatim", r.pinned ? `${r.pinned.indexes.length} msgs (#${r.pinned.indexes.join(", #")})` : "none", "result-pinned"];
