// Installs the locked dependencies on a fresh clone, so `npm start` and `npm test` need nothing by hand.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function ensureDeps() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  if (existsSync(`${root}node_modules/.package-lock.json`)) return;
  console.log("[setup] node_modules missing: running npm ci");
  try {
    execSync("npm ci --no-audit --no-fund", { cwd: root, stdio: "inherit" });
  } catch {
    console.error("[setup] `npm ci` failed (see above). It needs Node 20+ and the npm registry; run it by hand to retry.");
    process.exit(1);
  }
}
