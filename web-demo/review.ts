// Review mode: the pass is proposed, not applied. Its handoff is an editable text beside the messages it
// replaces; Accept applies it (an edit redacted and checked like a model's summary), Discard drops it.
// Also what a pass does to the provider's prompt cache (report.cache). A module of its own: main.ts
// only mounts it.
import { accept, propose, type CacheReport, type CompactOptions, type CompactReport, type CompactResult, type DialectName, type Proposal } from "../src/index.js";
import { dialects } from "../src/convert.js";

/** What a review works on: the loaded transcript and the options the page's knobs give. */
export interface ReviewInput {
  messages: unknown[];
  dialect: DialectName;
  options: CompactOptions<unknown>;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
/** An element with its properties (`testid` becomes data-testid) and children. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const { testid, ...rest } = props;
  const e = Object.assign(document.createElement(tag), rest);
  if (typeof testid === "string") e.dataset.testid = testid;
  e.append(...children);
  return e;
}

/** A message as the reader sees it: its role and text, through its dialect's view. */
function readable(m: unknown, dialect: DialectName): string {
  const v = dialects[dialect].view(m);
  const calls = v.toolCalls.map((c) => `→ ${c.name} ${c.arguments}`);
  const text = [v.text, ...v.results.map((r) => r.text), ...calls].filter(Boolean).join("\n");
  return `${v.role}: ${text.length > 600 ? `${text.slice(0, 600)} …` : text}`;
}

/** report.cache in words: the cached prefix a pass keeps, and what the next request costs for it. */
export function cacheLines(c: CacheReport | undefined): string[] {
  if (!c) return ["Cache: a no-op keeps all of it"];
  const money = (price: number | undefined) => (price === undefined ? "" : ` ($${price.toFixed(4)})`);
  return [
    `Cache kept: ${c.keptMessages} messages, ${fmt(c.keptTokens)} tokens (first change at #${c.firstChangedIndex}; compared with the ${c.basis})`,
    `Next request: ${fmt(c.nextRequestCost)} input-token equivalents${money(c.nextRequestPrice)} at read ×${c.rates.read}, write ×${c.rates.write}; sent as it was: ${fmt(c.uncompactedCost)}${money(c.uncompactedPrice)}`,
  ];
}

function reportLines(r: CompactReport): string[] {
  return [
    `Mode: ${r.mode}${r.summary ? ` (${r.summary.source}${r.summary.edited ? ", edited" : ""})` : ""}`,
    `Tokens: ${fmt(r.tokensBefore)} → ${fmt(r.tokensAfter)}; messages ${r.messagesBefore} → ${r.messagesAfter}`,
    ...(r.summary?.check ? [`Check: ${r.summary.check.errorsKept}/${r.summary.check.unresolvedErrors} unresolved errors kept, latest request ${r.summary.check.latestRequest ? "kept" : "missing"}${r.summary.check.ledgersAppended ? "; the missing ledger lines were appended" : ""}`] : []),
    ...(r.stalled ? [`Stalled: ${r.stalled.reason}. What would help: ${r.stalled.help.join("; ")}`] : []),
    ...cacheLines(r.cache),
  ];
}

/**
 * Mounts Review mode in `root`: a Review button; once proposed, what the handoff replaces beside the
 * handoff as an editable text, with Accept and Discard. `input` reads the page when asked;
 * `onAccept` gets the applied pass.
 */
export function mountReview(root: HTMLElement, input: () => ReviewInput | undefined, onAccept: (r: CompactResult<unknown>) => void = () => {}): void {
  const start = el("button", { type: "button", textContent: "Review before compacting", testid: "review-propose" });
  const panel = el("div", { className: "review", hidden: true, testid: "review-panel" });
  const status = el("p", { className: "review-status", testid: "review-status" });
  status.setAttribute("aria-live", "polite");
  root.replaceChildren(el("div", { className: "row" }, start), status, panel);
  let proposal: Proposal<unknown> | undefined;

  const close = (message: string) => {
    proposal = undefined;
    panel.hidden = true;
    panel.replaceChildren();
    status.textContent = message;
  };

  start.addEventListener("click", async () => {
    const given = input();
    if (!given) return;
    start.disabled = true;
    status.textContent = "Proposing…";
    try {
      proposal = await propose(given.messages, given.options);
      show(proposal, given);
    } catch (e) {
      close(`Could not propose: ${(e as Error).message}`);
    } finally {
      start.disabled = false;
    }
  });

  function show(p: Proposal<unknown>, given: ReviewInput) {
    const replaced = el(
      "ol",
      { className: "review-replaced", testid: "review-replaced" },
      ...p.replaces.map((i) => el("li", { value: i, textContent: readable(given.messages[i], given.dialect) })),
    );
    const editor = el("textarea", { rows: 18, spellcheck: false, value: p.handoff ?? "", disabled: p.handoff === undefined, testid: "review-handoff" });
    editor.setAttribute("aria-label", "The handoff, editable");
    const acceptButton = el("button", { type: "button", className: "primary", textContent: "Accept", testid: "review-accept" });
    const discard = el("button", { type: "button", textContent: "Discard", testid: "review-discard" });
    panel.replaceChildren(
      el("ul", { className: "review-report", testid: "review-report" }, ...reportLines(p.report).map((t) => el("li", { textContent: t }))),
      el(
        "div",
        { className: "review-columns" },
        el("section", {}, el("h3", { textContent: `What the handoff replaces (${p.replaces.length} messages)` }), p.replaces.length ? replaced : el("p", { textContent: "Nothing: this pass writes no handoff." })),
        el("section", {}, el("h3", { textContent: "The handoff (edit it, then Accept)" }), editor),
      ),
      el("div", { className: "row" }, acceptButton, discard),
    );
    panel.hidden = false;
    status.textContent = `Proposed: ${p.report.mode}. Nothing is applied until you accept.`;
    discard.addEventListener("click", () => close("Discarded: nothing was applied."));
    acceptButton.addEventListener("click", () => {
      if (proposal !== p) return;
      try {
        const edited = editor.value === (p.handoff ?? "") ? undefined : editor.value;
        const r = accept(p, { handoff: edited });
        close(`Accepted${edited === undefined ? "" : " with your edit"}.`);
        panel.replaceChildren(
          el("ul", { className: "review-report", testid: "review-accepted" }, ...reportLines(r.report).map((t) => el("li", { textContent: t }))),
          el("pre", { className: "handoff", textContent: r.state.previousSummary ?? "", testid: "review-final" }),
        );
        panel.hidden = false;
        onAccept(r);
      } catch (e) {
        status.textContent = `Could not accept: ${(e as Error).message}`;
      }
    });
  }
}
