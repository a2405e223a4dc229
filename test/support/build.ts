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
