// The pure half of a pass: validate, view, estimate and plan. `{ plan }` loads this and not the pass.
import { openAIReader } from "./dialects/openai.js";
import type { Dialect, NeutralRole } from "./dialects/view.js";
import { messageTokens, toolDefinitionTokens, utf8Bytes } from "./estimate/index.js";
import { resolveSettings } from "./options.js";
import { planViews } from "./plan/index.js";
import { normalizeState } from "./state.js";
import type { Prepared } from "./plan/prepared.js";
import type { Plan } from "./plan/types.js";
import type { CompactOptions, DefaultWritten, OpenAIChatInput } from "./types.js";

/** The default dialect's reading half, where nothing is written: a Dialect only as far as validate and view. */
const reader = openAIReader as Dialect<unknown>;

export const BUILT_IN: Record<string, string> = { openai: "openAIChat", anthropic: "anthropicMessages", "ai-sdk": "aiSdkMessages" };

/**
 * The dialect object of the options; `fallback` when none is given: `openAIChat` for a pass, its
 * reading half (`openAIReader`) where only validate and view are called.
 */
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

/** Reads and plans the input; `fallback`: the dialect when the options name none (see dialectOf). */
export function prepare<M>(messages: unknown, options: CompactOptions<M, unknown>, fallback: Dialect<unknown>): Prepared<M> {
  const dialect = dialectOf(options?.dialect, fallback);
  const input = dialect.validate(messages);
  const { state, warnings } = normalizeState(options?.state);
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
  return prepare(messages, options, reader).plan;
}

/** Token estimate of a string, a message or a transcript (with the request's tool definitions). */
export function estimateTokens<M extends D, D = OpenAIChatInput, W = DefaultWritten<D>>(
  input: string | M | readonly M[],
  options: Pick<CompactOptions<D, W>, "imageTokens" | "countTokens" | "tools" | "dialect" | "state"> = {},
): number {
  const settings = resolveSettings({ contextWindow: Number.MAX_SAFE_INTEGER, ...options } as CompactOptions<unknown>, normalizeState(options.state).state);
  if (typeof input === "string") return settings.countText(input);
  const dialect = dialectOf(options.dialect, reader);
  const list = dialect.validate(Array.isArray(input) ? input : [input]);
  let total = Array.isArray(input) ? toolDefinitionTokens(settings.tools, settings) : 0;
  for (const m of list) total += messageTokens(dialect.view(m), settings, m);
  return total;
}
