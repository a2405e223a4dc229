// The portable suite under Deno's own test runner.
import { tests } from "./harness.js";
import "./suite.js";

declare const Deno: { test(name: string, fn: () => unknown): void };
for (const t of tests) Deno.test(t.name, t.fn);

Deno.test("runs inside Deno", () => {
  if (!navigator.userAgent.startsWith("Deno/")) throw new Error(`not Deno: ${navigator.userAgent}`);
});
