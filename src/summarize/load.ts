// Loads the summary stage on its first use (a no-op or prune-only pass never needs it). This loads
// with pruning and the result's writer (src/pass.ts), which must not import redaction: the pass
// hands it in.
import { markerOutcome } from "./written.js";
import type { Prepared } from "../plan/prepared.js";
import type { MessageView } from "../dialects/view.js";
import { removedSpan } from "../plan/kept.js";
import type { PassRedactor } from "../redact/index.js";
import { windowed } from "../redact/window.js";
import type { CompactOptions } from "../types.js";
import type { StageOutcome } from "./stage.js";

/** The stage's code once loaded: a later pass skips the loader. */
let stageCode: Promise<typeof import("./stage.js")> | undefined;

/**
 * The summary stage's outcome. If even its code cannot be loaded (a browser gone offline, a
 * redeployed chunk), the middle gets the explicit marker.
 */
export async function summaryStage<M>(p: Prepared<M>, views: MessageView[], perMessage: number[], options: CompactOptions<M>, redactor: PassRedactor): Promise<StageOutcome | "aborted"> {
  let stage: typeof import("./stage.js");
  try {
    stage = await (stageCode ??= import("./stage.js"));
  } catch (error) {
    stageCode = undefined; // a later pass tries again
    // the loader may quote a signed URL, token and all
    const why = `the summary code could not be loaded (${redactor.redactMessage(error instanceof Error ? error.message : String(error))})`;
    const failure = { summarizer: "summary stage", kind: "network" as const, message: why };
    return { ...markerOutcome(p.plan, removedSpan(p.plan, perMessage), why, p.settings.countText, p.refs!, redactor.redact), failures: [failure], cooldowns: p.state.cooldowns };
  }
  const { settings, state, plan } = p;
  return stage.summarizeMiddle({ plan, views, original: p.views, messages: p.input, perMessage, state, refs: p.refs!, contextWindow: settings.contextWindow, countText: settings.countText, options: options as CompactOptions<unknown>, redactor: windowed(redactor) });
}
