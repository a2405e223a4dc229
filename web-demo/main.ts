// The browser demo (placeholder until its issue lands): runs the core client-side.
import { plan } from "../src/index.js";

const app = document.getElementById("app")!;
const p = plan([{ role: "user", content: "hello" }], { contextWindow: 8000 });
app.innerHTML = `<h1>context-compactor</h1><p>The core runs in this page: a one-message transcript has ${p.tokens.total} tokens.</p>`;
