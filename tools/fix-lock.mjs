// Adds lock entries for the platform packages that the registry here does not serve (deno's, opencode's),
// so that `npm ci` sees a lock in sync with package.json and skips them as other platforms' optional deps.
// Any package whose optional dependency has no lock entry gets one, its os/cpu/libc read from the name.
import { readFileSync, writeFileSync } from "node:fs";
const file = process.argv[2];
const lock = JSON.parse(readFileSync(file, "utf8"));
const OS = { darwin: "darwin", linux: "linux", win32: "win32", windows: "win32" };
const CPU = { arm64: "arm64", x64: "x64" };
const LIBC = { glibc: "glibc", musl: "musl" };

/** "opencode-linux-x64-baseline-musl" → { os: ["linux"], cpu: ["x64"], libc: ["musl"] }. */
function platformOf(name) {
  const words = name.split("/").pop().split("-");
  const pick = (table) => words.map((w) => table[w]).filter(Boolean).slice(0, 1);
  const [os, cpu, libc] = [pick(OS), pick(CPU), pick(LIBC)];
  if (!os.length || !cpu.length) throw new Error(`fix-lock: cannot tell the platform of ${name}; add its lock entry by hand`);
  return { os, cpu, ...(libc.length ? { libc } : {}) };
}

for (const [key, entry] of Object.entries(lock.packages)) {
  if (!key) continue;
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `node_modules/${name}`;
    if (lock.packages[at] || lock.packages[`${key}/node_modules/${name}`]) continue;
    lock.packages[at] = { version, dev: entry.dev, optional: true, ...platformOf(name) };
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)));
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
