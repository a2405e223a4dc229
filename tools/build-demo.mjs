// Builds web-demo/ into web-demo/dist/: the static assets the worker serves at /.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

export async function buildDemo() {
  const root = fileURLToPath(new URL("../web-demo/", import.meta.url));
  rmSync(`${root}dist`, { recursive: true, force: true });
  mkdirSync(`${root}dist`, { recursive: true });
  await build({ entryPoints: [`${root}main.ts`], bundle: true, minify: true, format: "esm", platform: "browser", outfile: `${root}dist/main.js`, logLevel: "warning" });
  for (const f of ["index.html", "style.css"]) copyFileSync(`${root}${f}`, `${root}dist/${f}`);
  return `${root}dist`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildDemo());
