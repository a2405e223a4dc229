// Adds lock entries for deno's platform packages that the registry here does not serve, so that
// `npm ci` sees a lock in sync with package.json and skips them as other platforms' optional deps.
import { readFileSync, writeFileSync } from "node:fs";
const file = process.argv[2];
const lock = JSON.parse(readFileSync(file, "utf8"));
const deno = lock.packages["node_modules/deno"];
const platforms = { "darwin-arm64": ["darwin", "arm64"], "darwin-x64": ["darwin", "x64"], "linux-arm64-glibc": ["linux", "arm64", "glibc"], "linux-x64-glibc": ["linux", "x64", "glibc"], "win32-arm64": ["win32", "arm64"], "win32-x64": ["win32", "x64"] };
for (const name of Object.keys(deno.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const [os, cpu, libc] = platforms[name.split("/")[1]];
  lock.packages[key] = { version: deno.optionalDependencies[name], cpu: [cpu], dev: true, ...(libc ? { libc: [libc] } : {}), license: "MIT", optional: true, os: [os] };
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)));
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
