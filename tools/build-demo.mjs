// Builds web-demo/ into a folder of static assets: web-demo/dist/ (what the worker serves at /) by
// default; tests pass their own folder, so a rebuild never pulls files from under a running worker.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../web-demo/", import.meta.url));

export async function buildDemo(outdir = `${root}dist`) {
  const out = resolve(outdir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({ entryPoints: [`${root}main.ts`], bundle: true, minify: true, format: "esm", platform: "browser", outfile: `${out}/main.js`, logLevel: "warning" });
  for (const f of ["index.html", "style.css"]) copyFileSync(`${root}${f}`, `${out}/${f}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildDemo(process.argv[2]));
