// Small timing and reporting helpers for `npm run bench` (Node only).
import { cpus, totalmem } from "node:os";
import { build } from "esbuild";
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

/** What a user's bundle gains from `import { names } from entry` (all exports when names is omitted). */
export async function bundleSize(entry: string, names?: string[]): Promise<{ minified: number; gzip: number; code: string }> {
  const input = names
    ? { stdin: { contents: `export { ${names.join(", ")} } from "./${entry}";`, resolveDir: ".", loader: "ts" as const } }
    : { entryPoints: [entry] };
  const out = await build({ ...input, bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent" });
  const code = out.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, code: new TextDecoder().decode(code) };
}

export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The compaction core: everything but the network summarizers and the exact tokenizer. */
export const CORE_NAMES = ["plan", "compact", "createCompactor", "estimateTokens", "redact", "deterministicSummarizer", "CompactionInputError"];
