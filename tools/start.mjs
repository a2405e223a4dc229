// `npm start`: the main job on local defaults.
import { spawnSync } from "node:child_process";
import { ensureDeps } from "./ensure-deps.mjs";

ensureDeps();
const r = spawnSync("npx", ["tsx", "tools/cli.ts", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(r.status ?? 1);
