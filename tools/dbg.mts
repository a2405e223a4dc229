import fc from "fast-check";
import { compact, plan, type Summarizer } from "../src/index.js";
import { options, transcript } from "../test/support/arbitraries.js";
import { violations } from "../test/support/invariants.js";
const broken: Summarizer = Object.assign(async () => { throw new Error("boom"); }, { label: "deterministic" });
const useBroken = process.argv[2] === "broken";
const r = await fc.check(fc.asyncProperty(transcript, options, async (input, opts) => {
  const o = useBroken ? { ...opts, summarizer: broken } : opts;
  const snapshot = JSON.stringify(input);
  const v = violations({ input, snapshot, plan: plan(input, o), result: await compact(input, o) });
  return v.length === 0;
}), { numRuns: 400, seed: Number(process.argv[3] ?? 42) });
if (r.failed) {
  const [input, opts] = r.counterexample!;
  const o = useBroken ? { ...opts, summarizer: broken } : opts;
  const short = (x: unknown) => JSON.stringify(x, (k, v) => typeof v === "string" && v.length > 50 ? v.slice(0, 40) + `…(${v.length})` : v);
  input.forEach((m, i) => console.log(i, short(m)));
  console.log(short(opts));
  const p = plan(input, o); console.log(short({ ...p, tokens: p.tokens }));
  const res = await compact(input, o);
  res.messages.forEach((m, i) => console.log("out", i, input.indexOf(m), short(m)));
  console.log(violations({ input, snapshot: JSON.stringify(input), plan: p, result: res }), short(res.report));
} else console.log("ok");
