import { trajectory } from "../test/support/fixtures.js";
import { compact, HANDOFF_PREFIX } from "../src/index.js";
const { messages } = trajectory("claude-code-spotter__fa812bfe-b295");
const cut = messages.findIndex((m) => m.role === "user" && String(m.content).startsWith("This session is being continued"));
const r = await compact(messages.slice(0, cut), { contextWindow: 16000, force: true });
const h = String(r.messages.find((m) => String(m.content).startsWith(HANDOFF_PREFIX))!.content);
console.log(h);
for (const sec of h.split("\n## ")) console.log(sec.slice(0, 30).replace(/\n/g, " "), sec.length);
