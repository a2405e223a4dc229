// Small timing and reporting helpers for `npm run bench` (Node only).
import { cpus, totalmem } from "node:os";
import { build } from "esbuild";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median milliseconds of `fn` over `runs` runs after `warmup` unmeasured ones. */
export async function time(fn: () => unknown, runs = 30, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

export function machine(): string {
  return `${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`;
}

export interface BundleSize {
  /** Loaded with the import: the entry chunk and what it imports statically. */
  minified: number;
  gzip: number;
  code: string;
  /** Loaded later, on first use (dynamic imports), in bundlers that split code; inlined in those that do not. */
  lazyGzip: number;
  lazyCode: string;
}

const gzip = (code: Uint8Array) => gzipSync(code, { level: 9 }).length;

/**
 * What a user's bundle gains from `import { names } from entry` (all exports when names is omitted):
 * esbuild, browser, minified, code splitting on, as an app's bundler would build it.
 */
export async function bundleSize(entry: string, names?: string[]): Promise<BundleSize> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const contents = names ? `export { ${names.join(", ")} } from "./${entry}";` : `export * from "./${entry}";`;
  const out = await build({
    entryPoints: ["size-probe"],
    plugins: [
      {
        name: "probe", // the import statement as a user would write it, as the only entry point
        setup(b) {
          b.onResolve({ filter: /^size-probe$/ }, () => ({ path: "probe", namespace: "probe" }));
          b.onLoad({ filter: /.*/, namespace: "probe" }, () => ({ contents, resolveDir: root, loader: "ts" }));
        },
      },
    ],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: "size-probe",
    absWorkingDir: root,
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const files = new Map(out.outputFiles.map((f) => [f.path, f.contents]));
  const outputs = out.metafile.outputs;
  const entryPath = Object.keys(outputs).find((k) => outputs[k].entryPoint === "probe:probe")!;
  // The static closure of the entry chunk; every other chunk is reached only through import().
  const loaded = new Set<string>();
  const visit = (p: string) => {
    if (loaded.has(p)) return;
    loaded.add(p);
    for (const i of outputs[p].imports) if (i.kind === "import-statement") visit(i.path);
  };
  visit(entryPath);
  const concat = (paths: string[]) => paths.map((p) => new TextDecoder().decode(files.get(resolve(root, p)))).join("\n");
  const eager = [...loaded];
  // Chunks reached through import() from what is loaded (esbuild emits one for every import() it sees, used or not).
  const lazy = [...new Set([...loaded].flatMap((p) => outputs[p].imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path)))];
  const code = concat(eager);
  const lazyCode = concat(lazy);
  const bytes = new TextEncoder().encode(code);
  return { minified: bytes.length, gzip: gzip(bytes), code, lazyGzip: lazy.length ? gzip(new TextEncoder().encode(lazyCode)) : 0, lazyCode };
}

export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * Gzip budgets (bytes) of what a user imports (issue 16). For imports with a network summarizer the
 * budget covers the prompt loaded on its first run too; `compact` and `plan` alone load no more.
 * Interim values while the size pass is under way: the targets are 15 / 16.5 / 17.5 / 10 KB.
 */
export const BUDGETS = [
  { names: ["compact"], budget: 17_700 },
  { names: ["compact", "openAICompatible"], budget: 20_400 },
  { names: ["compact", "anthropicMessages", "anthropic"], budget: 21_500 },
  { names: ["plan"], budget: 10_000 },
];
