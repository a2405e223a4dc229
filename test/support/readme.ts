// The README's code blocks, run as written: the docs cannot rot. A block may use names the reader
// brings (`model`, `messages`…): the test passes them in; the package's own imports point at src/.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUN_DIR = `${ROOT}test/.readme/`;

/** The `lang` code blocks of the README section under `## heading`. */
export function readmeBlocks(heading: string, lang = "ts"): string[] {
  const readme = readFileSync(`${ROOT}README.md`, "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "## ${heading}"`);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
}

/** Runs a block as a module, with `given` as the reader's own names in scope. */
export async function runBlock(code: string, name: string, given: Record<string, unknown>): Promise<void> {
  const key = `__readme_${name}`;
  (globalThis as Record<string, unknown>)[key] = given;
  const source = code
    .replace(/from "context-compactor\/([\w-]+)"/g, (_, entry) => `from "../../src/${entry === "ai-sdk" ? "ai-sdk/index" : entry}.js"`)
    .replace(/from "context-compactor"/g, 'from "../../src/index.js"');
  const lines = source.split("\n");
  const lastImport = lines.reduce((at, l, i) => (l.startsWith("import ") ? i : at), -1);
  lines.splice(lastImport + 1, 0, `const { ${Object.keys(given).join(", ")} } = (globalThis as any)[${JSON.stringify(key)}];`);
  mkdirSync(RUN_DIR, { recursive: true });
  const file = `${RUN_DIR}${name}.ts`;
  writeFileSync(file, lines.join("\n"));
  try {
    await import(/* @vite-ignore */ `${file}?t=${Date.now()}`);
  } finally {
    rmSync(file, { force: true });
    delete (globalThis as Record<string, unknown>)[key];
  }
}
