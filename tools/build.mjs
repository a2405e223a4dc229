// `npm run build` (and `prepare`, so a git install and `npm pack` always get it): dist/ with ESM and
// .d.ts compiled from src/ with no Node types in scope, and dist/cli.js, the `context-compactor` command.
import { execFileSync } from "node:child_process";
import { chmodSync, rmSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist", { recursive: true, force: true });
execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
await build({
  entryPoints: ["tools/cli.ts"],
  outfile: "dist/cli.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  // The command imports the package's own entries at run time, never a second copy of the core.
  plugins: [{ name: "own-entries", setup: (b) => void b.onResolve({ filter: /^\.\.\/src\/(index|convert)\.js$/ }, (a) => ({ path: `./${a.path.slice(7)}`, external: true })) }],
});
chmodSync("dist/cli.js", 0o755);
console.error("dist/ written"); // stderr: `npm pack --json` runs this and prints JSON on stdout
