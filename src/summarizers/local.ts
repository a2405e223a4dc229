// The local, model-free summarizer as users and the chain hold it. The checkpoint writer behind it is
// loaded on its first call, so a bundle pays for it only once a pass summarizes.
import type { Summarizer } from "../summarize/types.js";

const ours = new WeakSet<Summarizer>();

/** Whether `s` came from `deterministicSummarizer()`: the chain's last resort, trusted with raw material. */
export function isDeterministic(s: Summarizer): boolean {
  return ours.has(s);
}

/** The local, model-free summarizer: the default, and the last resort of every chain. */
export function deterministicSummarizer(): Summarizer {
  const summarize: Summarizer = async (req) => {
    const [{ summarizeLocally }, { redactor }] = await Promise.all([import("./deterministic.js"), import("../redact/index.js")]);
    return summarizeLocally(req, redactor);
  };
  summarize.label = "deterministic";
  ours.add(summarize);
  return summarize;
}
