// Fits the heuristic's weights (src/estimate/heuristic.ts) to exact o200k counts on the "fit" half of
// the material; prints the weights and each class's error on both halves. `npx tsx bench/fit-estimate.ts`
import { FEATURES, scanTokens } from "../src/estimate/heuristic.js";
import { tiktokenCounter } from "../src/tiktoken.js";
import { material } from "./estimate-material.js";

const exact = tiktokenCounter();
const units = FEATURES.map((_, j) => FEATURES.map((_, k) => (k === j ? 1 : 0)));
const samples = material().map((s) => ({
  ...s,
  ref: exact(s.text),
  x: units.map((u) => scanTokens(s.text, u)),
}));

// Weighted least squares: each class weighs the same in total, and within a class each sample
// by 1/ref, so the fit minimises relative error rather than favouring the biggest class.
const n = FEATURES.length;
const A = Array.from({ length: n }, () => new Array<number>(n).fill(0));
const b = new Array<number>(n).fill(0);
const classRef = new Map<string, number>();
for (const s of samples) if (s.split === "fit") classRef.set(s.cls, (classRef.get(s.cls) ?? 0) + s.ref);
for (const s of samples) {
  if (s.split !== "fit" || s.ref === 0) continue;
  const w = 1 / classRef.get(s.cls)! ;
  for (let i = 0; i < n; i++) {
    b[i] += w * s.x[i] * s.ref;
    for (let j = 0; j < n; j++) A[i][j] += w * s.x[i] * s.x[j];
  }
}
// A ridge toward a prior (5 % of each feature's own weight in the fit) keeps correlated features
// (digit triples and spaced numbers, newlines and punctuation) from trading off into negative weights.
const PRIOR = [1, 0.3, 1, 0.3, 0.3, 1, 1, 0.7, 0.6, 0.7, 0.3, 1, 1.4, 1];
// Features too rare in the material to fit are fixed (emoji: measured ~1.4 tokens each).
const FIXED = new Map<number, number>(JSON.parse(process.env.FIXED ?? "[[12, 1.4]]"));
for (let i = 0; i < n; i++) {
  const fixed = FIXED.get(i);
  if (fixed === undefined) {
    const ridge = Number(process.env.RIDGE ?? 0.05) * A[i][i];
    A[i][i] += ridge;
    b[i] += ridge * PRIOR[i];
    continue;
  }
  // Pin the weight: move its contribution to the right-hand side and make its row the identity.
  for (let r = 0; r < n; r++) if (r !== i) { b[r] -= A[r][i] * fixed; A[r][i] = 0; }
  A[i].fill(0);
  A[i][i] = 1;
  b[i] = fixed;
}
const w = solve(A, b);
console.log(`weights: [${w.map((v) => +v.toFixed(3)).join(", ")}]`);
for (const [i, f] of FEATURES.entries()) console.log(`  ${f}: ${w[i].toFixed(3)}`);
const rows = new Map<string, number[]>();
for (const s of samples) {
  const k = `${s.cls} [${s.split}]`;
  const r = rows.get(k) ?? [0, 0];
  r[0] += s.x.reduce((a, v, i) => a + v * w[i], 0);
  r[1] += s.ref;
  rows.set(k, r);
}
for (const [k, [est, ref]] of [...rows].sort()) console.log(`${k}: ${ref} exact, ${(((est - ref) / ref) * 100).toFixed(1)} %`);

function solve(M: number[][], v: number[]): number[] {
  const m = M.map((r, i) => [...r, v[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((r, i) => r[n] / r[i]);
}
