// The text the estimate is fitted on and checked against, by class and by split: half of each
// class fits the weights (bench/fit-estimate.ts), the other half only checks them.
import { readdirSync, readFileSync } from "node:fs";
import type { ChatMessage } from "../src/index.js";
import { FIXTURES, trajectories } from "../test/support/fixtures.js";

export type Split = "fit" | "check";
export interface Sample {
  cls: string;
  source: string;
  split: Split;
  text: string;
}

const ROOT = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), "utf8");
const files = (dir: string, ext: string): string[] =>
  readdirSync(new URL(dir, ROOT), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => `${dir}${f}`);

function partsText(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("\n");
}

/** Every sample of text, labelled with its class (for the tables, never seen by the estimate). */
export function material(): Sample[] {
  const out: Sample[] = [];
  // Fixture transcripts: every other one (by name) fits, the rest check.
  for (const [i, t] of trajectories().entries()) {
    const split: Split = i % 2 === 0 ? "fit" : "check";
    for (const m of t.messages) {
      const text = partsText(m.content);
      const cls = m.role === "tool" ? "code and JSON (tool outputs and arguments)" : "English prose (user/assistant text)";
      if (text) out.push({ cls, source: t.name, split, text });
      for (const c of (m as { tool_calls?: { function: { arguments: string } }[] }).tool_calls ?? [])
        out.push({ cls: "code and JSON (tool outputs and arguments)", source: t.name, split, text: c.function.arguments });
    }
  }
  // Material from outside the fixtures: this repository's own docs and source, the SSE recordings, CJK
  // and other scripts written for this bench.
  for (const [i, f] of [...files("docs/", ".md"), "README.md"].entries())
    out.push({ cls: "this repo's Markdown (README, docs)", source: f, split: i % 2 ? "check" : "fit", text: read(f) });
  for (const [i, f] of files("src/", ".ts").entries())
    out.push({ cls: "this repo's TypeScript (src)", source: f, split: i % 2 ? "check" : "fit", text: read(f) });
  for (const [i, f] of readdirSync(`${FIXTURES}sse`).filter((f) => f.endsWith(".txt")).sort().entries())
    out.push({ cls: "SSE recordings (JSON events)", source: f, split: i % 2 ? "check" : "fit", text: readFileSync(`${FIXTURES}sse/${f}`, "utf8") });
  for (const [i, line] of readFileSync(`${FIXTURES}text/cjk.txt`, "utf8").trim().split("\n").entries())
    out.push({ cls: "CJK text (zh/ja/ko)", source: "text/cjk.txt", split: i % 2 ? "check" : "fit", text: line });
  for (const [i, line] of readFileSync(`${FIXTURES}text/latin-cyrillic.txt`, "utf8").trim().split("\n").entries())
    out.push({ cls: "other scripts (accented Latin, Cyrillic, Greek)", source: "text/latin-cyrillic.txt", split: i % 2 ? "check" : "fit", text: line });
  return out;
}
