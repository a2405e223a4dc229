// Small transcript builders for unit tests.
import type { ChatMessage } from "../../src/index.js";

let n = 0;
export const sys = (content = "You are a coding agent."): ChatMessage => ({ role: "system", content });
export const user = (content: string): ChatMessage => ({ role: "user", content });
export const assistant = (content: string): ChatMessage => ({ role: "assistant", content });
export function call(name: string, args: object, output: string): ChatMessage[] {
  const id = `call_${n++}`;
  return [
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }] },
    { role: "tool", tool_call_id: id, content: output },
  ];
}
export const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i % 97}`).join(" ");

/** A build failing at every try, then a new request (`latest`): the middle ends on errors still failing. */
export const failingBuild = (latest = "Ship it on the green build"): ChatMessage[] => [
  { role: "user", content: "Make the build pass" },
  { role: "assistant", content: "Starting." },
  ...Array.from({ length: 12 }, (_, i): ChatMessage[] => [
    { role: "assistant", content: `Try ${i}. ${"lorem ipsum ".repeat(80)}`, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: `make build-${i}` }) } }] },
    { role: "tool", tool_call_id: `c${i}`, content: `Exit code 2\nsrc/x.c:${i}: error: expected ';' before '}'\n${"cc output ".repeat(60)}` },
  ]).flat(),
  { role: "user", content: latest },
  { role: "assistant", content: "On it." },
];

/** A session whose middle is mostly one large, stale tool output: pruning it alone buys the runway. */
export function staleLogSession(): ChatMessage[] {
  const m: ChatMessage[] = [sys("You are a careful engineer."), user("Fix the flaky test in parser.spec.ts"), assistant("Looking.")];
  m.push(user("The CI log is in fixtures/big.log"), assistant("Reading it."));
  m.push(...call("Read", { path: "fixtures/big.log" }, "x".repeat(2_000) + " log line\n".repeat(8_000)));
  for (let i = 0; i < 6; i++) m.push(user(`step ${i}: keep going`), assistant(`done step ${i}`));
  return m;
}
