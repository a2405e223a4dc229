import { compact, plan } from "../src/index.js";
import { trajectory } from "../test/support/fixtures.js";
const t = trajectory(process.argv[2]);
const o = { contextWindow: Number(process.argv[3]), maxOutputTokens: Number(process.argv[3]) / 16 };
const p = plan(t.messages, o);
console.log(JSON.stringify({ ...p, tokens: { ...p.tokens, perMessage: p.tokens.perMessage.join(",") } }));
const r = await compact(t.messages, o);
console.log(r.report);
