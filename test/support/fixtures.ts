// Fixture transcripts vendored in test/fixtures (Node-only loader; provenance in test/fixtures/PROVENANCE.md).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ChatMessage } from "../../src/index.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
export const TRAJECTORIES = `${FIXTURES}trajectories/openai/`;

export interface Trajectory {
  name: string;
  messages: ChatMessage[];
}

export function trajectories(): Trajectory[] {
  return readdirSync(TRAJECTORIES)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ""), messages: JSON.parse(readFileSync(TRAJECTORIES + f, "utf8")).messages }));
}

export function trajectory(prefix: string): Trajectory {
  const t = trajectories().find((x) => x.name.startsWith(prefix));
  if (!t) throw new Error(`no fixture starting with ${prefix}`);
  return t;
}
