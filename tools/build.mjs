// `npm run build`: dist/ with ESM and .d.ts, compiled from src/ with no Node types in scope.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
console.log("dist/ written");
