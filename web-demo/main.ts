// The browser demo: load a transcript, see its head / middle / tail, steer the plan, compact it.
// Everything runs in the page with the core itself; nothing is sent anywhere unless the user points
// the summarizer at an endpoint.
import {
  HANDOFF_PREFIX,
  compact,
  estimateTokens,
  openAICompatible,
  plan,
  previewPrune,
  recall,
  type Archive,
  type CompactOptions,
  type DialectName,
  type Plan,
} from "../src/index.js";
import { detectDialect, dialects } from "../src/convert.js";
import { cacheLines, mountReview } from "./review.js";
import { EXPLAIN, whyNotModel } from "./explain.js";
import { PLAN_MARKS, RESULT_MARKS, legend } from "./legend.js";
import { SAMPLES } from "./samples.js";
import { clearPins, markPins, pinOption, pinResult, pinStat } from "./pins.js";

interface Loaded {
  name: string;
  /** Any of the built-in formats: read through `dialects[dialect]`. */
  messages: any[];
  dialect: DialectName;
  system?: unknown;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
let current: Loaded | undefined;

// ---- loading ------------------------------------------------------------------------------------

/** A transcript from JSON text: an array of messages, or {messages, system?}; the dialect by shape. */
export function parseTranscript(name: string, text: string): Loaded {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name} is not valid JSON: ${(e as Error).message}`);
  }
  const obj = data as { messages?: unknown; input?: unknown; system?: unknown };
  // A request body: Chat and Anthropic carry "messages", the Responses API "input".
  const messages = Array.isArray(data) ? data : Array.isArray(obj?.messages) ? obj.messages : Array.isArray(obj?.input) ? obj.input : undefined;
  if (!messages) throw new Error(`${name}: expected an array of messages, or an object with a "messages" (or Responses "input") array`);
  const system = Array.isArray(data) ? undefined : obj.system;
  // A separate system prompt is Anthropic's: text-only messages beside one are read as Anthropic.
  const dialect = detectDialect(messages, system);
  if (system != null && dialect !== "anthropic") {
    throw new Error(`${name}: a separate "system" belongs to Anthropic Messages, but these messages are ${FORMAT[dialect]}: put the system prompt in a system message instead`);
  }
  // Validate now, so the error names the message at fault instead of failing later.
  plan(messages, { contextWindow: 1_000_000, dialect: dialects[dialect], system });
  return { name, messages, dialect, system };
}

const FORMAT: Record<DialectName, string> = { openai: "OpenAI Chat", anthropic: "Anthropic", "ai-sdk": "AI SDK", "openai-responses": "OpenAI Responses" };
const NO_DETAIL = "Hover or focus a block to read its message.";

function showError(message: string | undefined) {
  const el = $("error");
  el.hidden = !message;
  el.textContent = message ?? "";
}

/** Shows a transcript, and forgets everything about the one before (its message, its result). */
function load(loaded: Loaded, sample?: number) {
  current = loaded;
  clearPins();
  showError(undefined);
  $("dialect").textContent = `${loaded.messages.length} messages · ${FORMAT[loaded.dialect]} format${loaded.system != null ? " · system prompt kept" : ""}`;
  $("detail").textContent = NO_DETAIL;
  nameInSamples(loaded.name, sample);
  $("result").hidden = true;
  $("stream").hidden = true;
  render();
}

/** The Sample dropdown names what is loaded: the sample, or the file or pasted JSON in a placeholder. */
function nameInSamples(name: string, sample: number | undefined) {
  const select = $("sample") as HTMLSelectElement;
  select.querySelector("option[data-loaded]")?.remove();
  if (sample !== undefined) return void (select.value = String(sample));
  const own = new Option(`${name} (loaded)`, "", true, true);
  own.dataset.loaded = "";
  own.disabled = true;
  select.prepend(own);
}

function tryLoad(name: string, text: string) {
  try {
    load(parseTranscript(name, text));
  } catch (e) {
    showError((e as Error).message);
  }
}

// ---- options --------------------------------------------------------------------------------------

function num(id: string): number | undefined {
  const v = ($(id) as HTMLInputElement).value.trim();
  return v === "" ? undefined : Number(v);
}

function options(): CompactOptions<unknown> {
  const protectedTools = ($("protectedTools") as HTMLInputElement).value.split(",").map((s) => s.trim()).filter(Boolean);
  const focus = ($("focus") as HTMLInputElement).value.trim();
  return {
    contextWindow: num("contextWindow") ?? 32_000,
    maxOutputTokens: num("maxOutputTokens") ?? 0,
    threshold: num("threshold"),
    headMessages: num("headMessages"),
    tailTokens: num("tailTokens"),
    imageTokens: num("imageTokens"),
    protectedTools,
    focus: focus || undefined,
    dialect: current ? dialects[current.dialect] : undefined,
    system: current?.system,
    ...pinOption(),
  };
}

// ---- the strip ------------------------------------------------------------------------------------

interface BlockInfo {
  index: number;
  tokens: number;
  partition: "head" | "middle" | "tail" | "handoff";
  role: string;
  tool?: string;
  text: string;
  latest?: boolean;
  pruned?: boolean;
}

/** Role, first tool and readable text of a message, read through its dialect's own view. */
function describeMessage(m: unknown, dialect: DialectName): { role: string; tool?: string; text: string } {
  const v = dialects[dialect].view(m);
  const calls = v.toolCalls.map((c) => `→ ${c.name} ${c.arguments}`);
  const text = [v.text, ...v.results.map((r) => r.text), ...calls].filter(Boolean).join("\n\n");
  return { role: v.role, tool: v.toolCalls[0]?.name, text };
}

function drawStrip(container: HTMLElement, blocks: BlockInfo[], scale: number, markers: { cls: string; at: number; label: string }[]) {
  // The bar is as wide as the transcript is long on the window's scale; each block grows by its tokens.
  const bar = document.createElement("div");
  bar.className = "bar";
  const total = blocks.reduce((a, b) => a + b.tokens, 0);
  bar.style.width = `${Math.min(100, (total / scale) * 100)}%`;
  for (const b of blocks) {
    const el = document.createElement("div");
    el.className = `block ${b.partition} role-${b.role}${b.latest ? " latest" : ""}${b.pruned ? " pruned" : ""}`;
    el.style.flexGrow = String(b.tokens);
    el.tabIndex = 0;
    el.setAttribute("role", "listitem");
    el.dataset.index = String(b.index);
    el.dataset.partition = b.partition;
    el.dataset.tokens = String(b.tokens);
    el.setAttribute("aria-label", `#${b.index} ${b.role}${b.tool ? ` ${b.tool}` : ""}, ${b.partition}, ${b.tokens} tokens${b.latest ? ", latest request" : ""}${b.pruned ? ", pruned by prune alone" : ""}`);
    const show = () => {
      $("detail").textContent = `#${b.index} · ${b.role}${b.tool ? ` · ${b.tool}` : ""} · ${b.partition} · ${fmt(b.tokens)} tokens${b.latest ? " · latest request" : ""}${b.pruned ? " · pruned by prune alone" : ""}\n\n${b.text.slice(0, 3000)}${b.text.length > 3000 ? "\n…" : ""}`;
    };
    el.addEventListener("mouseenter", show);
    el.addEventListener("focus", show);
    el.addEventListener("keydown", (e) => {
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      ((step > 0 ? el.nextElementSibling : el.previousElementSibling) as HTMLElement | null)?.focus();
    });
    bar.append(el);
  }
  container.replaceChildren(bar);
  for (const m of markers) {
    if (m.at > scale) continue;
    const line = document.createElement("div");
    line.className = `marker ${m.cls}`;
    line.style.left = `${(m.at / scale) * 100}%`;
    line.title = `${m.label}: ${fmt(m.at)} tokens`;
    container.append(line);
  }
}

/** Figures as name, value and the one line that explains them. */
function stats(container: HTMLElement, rows: [string, string, string?][]) {
  container.replaceChildren(
    ...rows.map(([k, v, id]) => {
      const div = document.createElement("div");
      div.innerHTML = `<dt>${k}</dt><dd${id ? ` data-testid="${id}"` : ""}>${v}</dd>`;
      const why = id && EXPLAIN[id];
      if (why) div.append(Object.assign(document.createElement("p"), { className: "explain", textContent: why }));
      return div;
    }),
  );
}

const sum = (xs: number[], r: { start: number; end: number }) => xs.slice(r.start, r.end).reduce((a, b) => a + b, 0);

function render() {
  if (!current) return;
  const o = options();
  ($("threshold-out") as HTMLOutputElement).value = String(o.threshold);
  // One pass gives both the plan and what prune alone would do (the strip redraws on every knob move).
  let preview: ReturnType<typeof previewPrune>;
  try {
    preview = previewPrune(current.messages, o);
  } catch (e) {
    return showError((e as Error).message);
  }
  showError(undefined);
  const p: Plan = preview.plan;
  const pruned = new Set(preview.items.map((i) => i.index));
  const per = p.tokens.perMessage;
  $("reason").textContent = `${p.shouldCompact ? "Compaction due: " : "No compaction: "}${p.reason}`;
  // The button does what the plan says; forcing past it is a choice the user makes in the open.
  const forced = ($("force") as HTMLInputElement).checked;
  $("compact").textContent = p.shouldCompact ? "Compact" : forced ? "Compact anyway (forced)" : "Compact (not due: nothing will change)";
  stats($("stats"), [
    ["Total tokens", fmt(p.tokens.total), "total"],
    ["Threshold", fmt(p.tokens.threshold), "threshold"],
    ["Effective window", fmt(p.effectiveWindow), "effective"],
    ["Head", `${fmt(sum(per, p.head))} · ${p.head.end - p.head.start} msgs`, "head"],
    ["Middle", `${fmt(sum(per, p.middle))} · ${p.middle.end - p.middle.start} msgs`, "middle"],
    ["Tail", `${fmt(sum(per, p.tail))} · ${p.tail.end - p.tail.start} msgs`, "tail"],
    ["Prune alone", `−${fmt(p.tokens.total - preview.tokensAfter)} → ${fmt(preview.tokensAfter)}${preview.accepted ? " (enough)" : ""}`, "prune"],
    ["Prune target", fmt(p.pruneTarget), "prune-target"],
    pinStat(p),
  ]);
  const blocks: BlockInfo[] = current.messages.map((m, i) => ({
    index: i,
    tokens: per[i],
    partition: i < p.head.end ? "head" : i < p.tail.start ? "middle" : "tail",
    ...describeMessage(m, current!.dialect),
    latest: i === p.latestUserIndex,
    pruned: pruned.has(i),
  }));
  const scale = Math.max(p.tokens.total - p.fixedTokens, p.effectiveWindow);
  drawStrip($("strip"), blocks, scale, [
    { cls: "runway", at: p.pruneTarget, label: "prune target" },
    { cls: "threshold", at: p.tokens.threshold, label: "threshold" },
    { cls: "window", at: p.effectiveWindow, label: "window" },
  ]);
  markPins($("strip"), p, scheduleRender);
}

let pending = 0;
const scheduleRender = () => {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(render);
};

// ---- compaction -----------------------------------------------------------------------------------

/** The summarizer the page chose: the endpoint's, or none (the deterministic one). */
function chosenSummarizer() {
  if (($("summarizer") as HTMLSelectElement).value !== "openai") return undefined;
  return openAICompatible({ baseURL: ($("baseURL") as HTMLInputElement).value, apiKey: ($("apiKey") as HTMLInputElement).value || undefined, model: ($("model") as HTMLInputElement).value });
}

async function runCompaction() {
  if (!current) return;
  const button = $("compact") as HTMLButtonElement;
  button.disabled = true;
  const stream = $("stream");
  stream.hidden = false;
  stream.textContent = "";
  const o = options();
  const summarizer = chosenSummarizer();
  try {
    const r = await compact(current.messages, {
      ...o,
      force: ($("force") as HTMLInputElement).checked,
      summarizer,
      onEvent: (e) => {
        if (e.type === "summary-delta") stream.textContent += e.text;
        if (e.type === "summary-failed") stream.textContent += `\n[${e.failure.summarizer} failed: ${e.failure.kind} — ${e.failure.message}]\n`;
      },
    });
    const rep = r.report;
    const input = new Set(current.messages);
    // By its own marker at the start: the system note quotes the marker too, and is never the handoff.
    const handoff = r.messages.find((m) => !input.has(m) && describeMessage(m, current!.dialect).text.trimStart().startsWith(HANDOFF_PREFIX));
    stats($("result-stats"), [
      ["Mode", rep.mode + (rep.summary ? ` (${rep.summary.source})` : ""), "mode"],
      ["Tokens", `${fmt(rep.tokensBefore)} → ${fmt(rep.tokensAfter)}`, "tokens"],
      ["Saved", `${Math.round((1 - rep.tokensAfter / rep.tokensBefore) * 100)} %`, "saved"],
      ["Messages", `${rep.messagesBefore} → ${rep.messagesAfter}`, "messages"],
      ["First changed index", String(rep.firstChangedIndex), "first-changed"],
      pinResult(rep),
    ]);
    const note = $("summary-note");
    note.textContent = whyNotModel(rep) ?? "";
    note.hidden = !note.textContent;
    $("warnings").replaceChildren(...[...cacheLines(rep.cache), ...rep.warnings].map((w) => Object.assign(document.createElement("li"), { textContent: w })));
    const head = new Set(current.messages.slice(0, rep.partitions.head.end));
    const blocks: BlockInfo[] = r.messages.map((m, i) => ({
      index: i,
      tokens: estimateTokens(m, { dialect: dialects[current!.dialect], imageTokens: o.imageTokens }),
      partition: m === handoff ? "handoff" : head.has(m) || i < rep.partitions.head.end ? "head" : input.has(m) ? "tail" : "middle",
      ...describeMessage(m, current!.dialect),
    }));
    drawStrip($("result-strip"), blocks, Math.max(rep.tokensBefore, o.contextWindow - (o.maxOutputTokens ?? 0)), []);
    showWithReferences($("handoff"), handoff ? describeMessage(handoff, current.dialect).text : "(no handoff: prune alone was enough)", r.archive ?? {});
    $("recall-box").hidden = true;
    $("result").hidden = false;
  } catch (e) {
    showError((e as Error).message);
  } finally {
    button.disabled = false;
  }
}

/** The handoff's text with each reference it cites (#212) as a button that opens what it stands for. */
function showWithReferences(el: HTMLElement, text: string, archive: Archive) {
  el.replaceChildren(
    ...text.split(/(#\d+(?:\.\d+)?)/).map((part) => {
      if (!Object.hasOwn(archive, part)) return document.createTextNode(part);
      const b = Object.assign(document.createElement("button"), { className: "ref", textContent: part, title: `Open what ${part} stands for` });
      b.addEventListener("click", () => {
        $("recalled-ref").textContent = part;
        $("recalled").textContent = recall(archive, part) ?? "";
        $("recall-box").hidden = false;
      });
      return b;
    }),
  );
}

// ---- wiring ---------------------------------------------------------------------------------------

function init() {
  const select = $("sample") as HTMLSelectElement;
  for (const [i, s] of SAMPLES.entries()) select.append(new Option(`${s.title} (${s.messages.length} msgs)`, String(i)));
  select.addEventListener("change", () => {
    const s = SAMPLES[Number(select.value)];
    load({ name: s.title, messages: s.messages, dialect: detectDialect(s.messages) }, Number(select.value));
  });
  $("plan-legend").replaceWith(legend(PLAN_MARKS, "legend"));
  $("result-legend").replaceWith(legend(RESULT_MARKS, "result-legend"));
  $("file").addEventListener("change", async (e) => {
    const f = (e.target as HTMLInputElement).files?.[0];
    if (f) tryLoad(f.name, await f.text());
  });
  $("load-paste").addEventListener("click", () => tryLoad("the pasted JSON", ($("paste") as HTMLTextAreaElement).value));
  document.addEventListener("dragover", (e) => {
    e.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", async (e) => {
    e.preventDefault();
    document.body.classList.remove("dragging");
    const f = e.dataTransfer?.files[0];
    if (f) tryLoad(f.name, await f.text());
  });
  $("knobs").addEventListener("input", scheduleRender);
  $("force").addEventListener("change", scheduleRender);
  $("summarizer").addEventListener("change", () => ($("endpoint").hidden = ($("summarizer") as HTMLSelectElement).value !== "openai"));
  $("compact").addEventListener("click", runCompaction);
  // Accepting a proposal applies it: the compacted transcript becomes the one the page shows.
  mountReview(
    $("review-mode"),
    () => current && { messages: current.messages, dialect: current.dialect, options: { ...options(), force: ($("force") as HTMLInputElement).checked, summarizer: chosenSummarizer() } },
    (r) => current && load({ ...current, name: `${current.name} (compacted)`, messages: r.messages, system: r.system ?? current.system }),
  );
  const s = SAMPLES[0];
  load({ name: s.title, messages: s.messages, dialect: detectDialect(s.messages) }, 0);
}

init();
