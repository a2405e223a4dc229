// The portable suite under vitest: Node, workerd (vitest-pool-workers) and Chromium (browser mode).
import { it } from "vitest";
import { tests } from "./harness.js";
import "./suite.js";

for (const t of tests) it(t.name, t.fn, 120_000);
