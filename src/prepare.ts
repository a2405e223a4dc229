// The pure half of a pass: validate, view, estimate and plan. `{ plan }` loads this and not the pass.
import { openAIChat, openAIReader } from "./dialects/openai.js";
import type { Dialect, NeutralRole } from "./dialects/view.js";
import { messageTokens, toolDefinitionTokens, utf8Bytes } from "./estimate/index.js";
import { resolveSettings } from "./options.js";
import { planViews } from "./plan/index.js";
import { normalizeState, planState, type Normalized } from "./state.js";
import type { Prepared } from "./plan/prepared.js";
import type { Plan } from "./plan/types.js";
import type { CompactOptions, DefaultWritten, OpenAIChatInput } from "./types.js";

/**
 * How a caller reads the input: the dialect when the options name none, and how the state is checked.
 * A pass (`compact`, `previewPrune`) reads with PASS; `plan` and `estimateTokens`, which write nothing,
 * with the default dialect's reading half and the checks of what a plan reads, so that `import { plan }`
 * carries neither the writing code nor the pass's state rules.
 */
export interface Reading {
  dialect: Dialect<unknown>;
  state: (given: unknown) => Normalized;
}
export const PASS: Reading = { dialect: openAIChat as Dialect<unknown>, state: normalizeState };
const PLAN: Reading = { dialect: openAIReader as Dialect<unknown>, state: planState };

export const BUILT_IN: Record<string, string> = { openai: "openAIChat", anthropic: "anthropicMessages", "ai-sdk": "aiSdkMessages" };

/** The dialect object of the options; `fallback` (see Reading) when none is given. */
function dialectOf<M>(d: Dialect<M, unknown> | undefined, fallback: Dialect<unknown>): Dialect<M> {
  if (d === undefined) return fallback as Dialect<M>;
  if (typeof d === "string") {
    const name = Object.hasOwn(BUILT_IN, d) ? BUILT_IN[d] : "openAIChat, anthropicMessages, aiSdkMessages";
    throw new RangeError(`context-compactor: options.dialect takes a dialect object, not the name ${JSON.stringify(d)}: import { ${name} } from "context-compactor"`);
  }
  if (typeof d?.validate !== "function" || typeof d.view !== "function") {
    throw new RangeError("context-compactor: options.dialect must be a Dialect object (openAIChat, anthropicMessages, aiSdkMessages or your own)");
  }
  return d as Dialect<M>;
}

export function prepare<M>(messages: unknown, options: CompactOptions<M, unknown>, reading: Reading): Prepared<M> {
  const dialect = dialectOf(options?.dialect, reading.dialect);
  const input = dialect.validate(messages);
  const { state, warnings } = reading.state(options?.state);
  const settings = resolveSettings(options as CompactOptions<unknown>, state);
  const views = input.map((m) => dialect.view(m));
  const wire = (r: NeutralRole) => dialect.wireRole?.(r) ?? r;
  const chosen = options.pin && input.flatMap((m, i) => (options.pin!(m, i) ? [i] : []));
  // A request's JSON: its messages, commas and brackets, and what is sent beside them.
  const bytes = settings.maxRequestBytes ? input.map(utf8Bytes) : undefined;
  const requestBytes = bytes && bytes.reduce((a, b) => a + b, input.length + 1) + (options.system ? utf8Bytes(options.system) : 0) + (options.tools ? utf8Bytes(options.tools) : 0);
  const plan = planViews(views, settings, state, Boolean(options.force), wire, Boolean(dialect.keepsEmptied), Boolean(dialect.itemized), input, chosen, requestBytes);
  const system = dialect.appendSystemNote ? options.system : undefined;
  return { dialect, input, settings, state, views, plan, system, bytes, warnings };
}

/** Where head, middle and tail fall, and whether a pass would compact. Pure, synchronous. */
export function plan<M extends D, D = OpenAIChatInput, W = DefaultWritten<D>>(messages: readonly M[], options: CompactOptions<D, W>): Plan {
  return prepare(messages, options, PLAN).plan;
}

/** Token estimate of a string, a message or a transcript (with the request's tool definitions). */
export function estimateTokens<M extends D, D = OpenAIChatInput, W = DefaultWritten<D>>(
  input: string | M | readonly M[],
  options: Pick<CompactOptions<D, W>, "imageTokens" | "countTokens" | "tools" | "dialect" | "state"> = {},
): number {
  const settings = resolveSettings({ contextWindow: Number.MAX_SAFE_INTEGER, ...options } as CompactOptions<unknown>, planState(options.state).state);
  if (typeof input === "string") return settings.countText(input);
  const dialect = dialectOf(options.dialect, PLAN.dialect);
  const list = dialect.validate(Array.isArray(input) ? input : [input]);
  let total = Array.isArray(input) ? toolDefinitionTokens(settings.tools, settings) : 0;
  for (const m of list) total += messageTokens(dialect.view(m), settings, m);
  return total;
}
