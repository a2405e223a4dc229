// `npm run bench` prints; only `--write` touches the tracked bench/RESULTS.md (a look leaves the tree clean).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const bench = (...args: string[]) => execFileSync("node", ["--import", "tsx", "bench/run.ts", ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

describe("npm run bench", () => {
  it("prints a section and leaves bench/RESULTS.md as it was without --write", () => {
    const before = readFileSync("bench/RESULTS.md", "utf8");
    const out = bench("unresolved");
    expect(out).toContain("## Unresolved errors kept by the handoff");
    expect(out).toMatch(/bench\/RESULTS\.md left as it was \(add --write/);
    expect(readFileSync("bench/RESULTS.md", "utf8")).toBe(before);
  }, 60_000);

  it("refuses a section it does not have, naming the ones it has", () => {
    expect(() => bench("sise")).toThrow(/unknown bench section sise: the sections are speed, size/);
  });
});
