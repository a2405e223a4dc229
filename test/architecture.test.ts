// The import graph of src/, read by a small parser: no circle, and no stage imports a later
// one. The stage order is written down here, once (docs/DESIGN.md points to it).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Floors, lowest first: a module may import its own floor and those below it, never one above.
 * Shared knowledge is at the bottom: errors, the state, the references a pass cites, fingerprints,
 * redaction and the facts of a transcript (what a tool call did, what a handoff looks like).
 */
const FLOORS: [floor: string, holds: RegExp][] = [
  ["shared", /^(?:errors|state|refs|fingerprint|schema)\.ts$|^(?:facts|redact)\//],
  ["dialects", /^dialects\//],
  ["estimate", /^estimate\//],
  ["options", /^options\.ts$/],
  ["plan", /^plan\//],
  ["prune", /^prune\//],
  ["summarize", /^(?:summarize|summarizers)\//],
  ["assemble", /^assemble\//],
  ["report", /^report\//],
  ["archive", /^archive\//],
  ["the pass", /^(?:prepare|compact|pass|result|preview|compactor|review)\.ts$/],
  ["entry points", /^(?:index|convert|tiktoken|redact-entry)\.ts$|^ai-sdk\//],
];
/**
 * Types modules: each stage's words, erased at run time. Any module may import them, type-only; they
 * import only each other and the floors below every stage (shared, dialects).
 */
const VOCABULARY = /(?:^|\/)types\.ts$/;
const VOCABULARY_MAY_IMPORT = new Set(["shared", "dialects"]);

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

const STATIC = /^(?:import|export)\s+([^;"]*?)\s*from\s*"([^"]+)"/gm;
const DYNAMIC = /(\btypeof\s+)?\bimport\(\s*"([^"]+)"\s*\)/g;

/** Whether an import or export clause brings in types only: `type …`, or `{ type A, type B }`. */
function typeOnlyClause(clause: string): boolean {
  if (/^type\b/.test(clause)) return true;
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  const names = named?.[1].split(",").map((x) => x.trim()).filter(Boolean);
  return Boolean(names?.length && names.every((x) => x.startsWith("type ")));
}

/**
 * The relative imports of a module: static ones and re-exports (multi-line too), import() and
 * `typeof import()`, type-only ones included. (TypeScript 7 has no compiler API in JS: a small parser.)
 */
function importsOf(text: string): { specifier: string; typeOnly: boolean }[] {
  const found = Array.from(text.matchAll(STATIC), (m) => ({ specifier: m[2], typeOnly: typeOnlyClause(m[1]) }));
  for (const m of text.matchAll(DYNAMIC)) {
    const line = text.slice(text.lastIndexOf("\n", m.index) + 1, m.index).trimStart();
    if (!line.startsWith("//") && !line.startsWith("*")) found.push({ specifier: m[2], typeOnly: Boolean(m[1]) });
  }
  return found.filter((x) => x.specifier.startsWith("."));
}

/** Every module of `root` (paths relative to it) and the modules of root it imports. */
function graphOf(root: string): { files: string[]; edges: Edge[] } {
  const files = (readdirSync(root, { recursive: true }) as string[]).map((f) => f.split("\\").join("/")).filter((f) => f.endsWith(".ts")).sort();
  const edges = files.flatMap((from) =>
    importsOf(readFileSync(join(root, from), "utf8")).map(({ specifier, typeOnly }) => ({
      from,
      to: posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, ".ts"),
      typeOnly,
    })),
  );
  return { files, edges };
}

const floorOf = (file: string) => FLOORS.findIndex(([, holds]) => holds.test(file));
const nameOf = (file: string) => (VOCABULARY.test(file) ? "types" : FLOORS[floorOf(file)]?.[0] ?? "no floor");

/** Every rule the graph breaks, in words; none for a sound one. */
function problems(files: string[], edges: Edge[]): string[] {
  const out: string[] = [];
  const known = new Set(files);
  for (const f of files) if (!VOCABULARY.test(f) && floorOf(f) < 0) out.push(`${f} is on no floor: add it to FLOORS`);
  for (const { from, to, typeOnly } of edges) {
    if (!known.has(to)) out.push(`${from} imports ${to}, which is not a module of src/`);
    else if (VOCABULARY.test(to)) {
      if (!typeOnly) out.push(`${from} imports the types module ${to} by value: import type`);
    } else if (VOCABULARY.test(from)) {
      if (!VOCABULARY_MAY_IMPORT.has(nameOf(to))) out.push(`the types module ${from} imports ${to} (${nameOf(to)}): types may import only types, shared and dialects`);
    } else if (floorOf(to) > floorOf(from)) out.push(`${from} (${nameOf(from)}) imports ${to} (${nameOf(to)}), a later stage`);
  }
  // Circles: a depth-first walk over every edge, type-only ones too.
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const walk = (f: string) => {
    if (state.get(f) === "done") return;
    if (state.get(f) === "open") {
      out.push(`circle: ${[...path.slice(path.indexOf(f)), f].join(" → ")}`);
      return;
    }
    state.set(f, "open");
    path.push(f);
    for (const t of next.get(f) ?? []) walk(t);
    path.pop();
    state.set(f, "done");
  };
  for (const f of files) walk(f);
  return out;
}

const SRC = join(dirname(new URL(import.meta.url).pathname), "..", "src");

describe("the import graph of src/", () => {
  const { files, edges } = graphOf(SRC);

  it("is read whole: static imports, re-exports, import() and type-only imports", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges).toContainEqual({ from: "compact.ts", to: "pass.ts", typeOnly: false }); // the lazy import()
    expect(edges).toContainEqual({ from: "compact.ts", to: "plan/prepared.ts", typeOnly: true });
    expect(edges).toContainEqual({ from: "index.ts", to: "types.ts", typeOnly: true }); // export type *
    expect(edges.filter((e) => e.from === "prune/stand-ins.ts").map((e) => e.to)).toEqual(["facts/call.ts"]);
  });

  it("has no circle, and no stage imports a later one", () => {
    expect(problems(files, edges)).toEqual([]);
  });

  it("keeps the seams of split secrets a floor below the archive and the summary, loading no redaction", () => {
    expect(FLOORS[floorOf("redact/seams.ts")][0]).toBe("shared");
    expect(edges.filter((e) => e.from === "redact/seams.ts")).toEqual([]); // redaction is handed in: the archive must not load it
    expect(["archive/index.ts", "summarize/material.ts"].every((from) => edges.some((e) => e.from === from && e.to === "redact/seams.ts"))).toBe(true);
  });

  it("keeps the facts of a tool call below both prune and summarize, and neither reads the other's code", () => {
    const reads = (from: RegExp, to: RegExp) => edges.some((e) => from.test(e.from) && to.test(e.to) && !VOCABULARY.test(e.to));
    expect(reads(/^prune\//, /^facts\//) && reads(/^summarize\//, /^facts\//) && reads(/^summarizers\//, /^facts\//)).toBe(true);
    expect(reads(/^prune\//, /^summarizer?s?\//)).toBe(false);
    expect(reads(/^(?:summarize|summarizers)\//, /^prune\//)).toBe(false);
  });

  it("can fail: a circle, an arrow back up, types imported by value, a module on no floor", () => {
    const edge = (from: string, to: string, typeOnly = false) => ({ from, to, typeOnly });
    const files = ["compact.ts", "pass.ts", "result.ts", "plan/index.ts", "summarize/chain.ts", "plan/types.ts", "stray.ts"];
    const found = problems(files, [
      edge("compact.ts", "pass.ts"),
      edge("pass.ts", "result.ts"),
      edge("result.ts", "compact.ts", true), // the Prepared circle issue 28 found
      edge("plan/index.ts", "summarize/chain.ts"),
      edge("summarize/chain.ts", "plan/types.ts"),
    ]);
    expect(found).toEqual([
      "stray.ts is on no floor: add it to FLOORS",
      "plan/index.ts (plan) imports summarize/chain.ts (summarize), a later stage",
      "summarize/chain.ts imports the types module plan/types.ts by value: import type",
      "circle: compact.ts → pass.ts → result.ts → compact.ts",
    ]);
  });

  it("is the one docs/DESIGN.md describes: every directory and top-level module of src/ is named there", () => {
    const design = readFileSync(join(SRC, "..", "docs", "DESIGN.md"), "utf8");
    const rooms = [...new Set(files.map((f) => f.split("/")[0]))].map((r) => `src/${r.endsWith(".ts") ? r : `${r}/`}`);
    expect(rooms.filter((r) => !design.includes(r))).toEqual([]);
  });
});
