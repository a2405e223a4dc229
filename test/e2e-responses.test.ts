// End to end for Responses API clients: `wrangler dev`, a scripted upstream on 127.0.0.1 that speaks
// the Responses API, and the official openai client's `client.responses.create`.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import OpenAI from "openai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_NOTE } from "../src/index.js";
import { trajectory } from "./support/fixtures.js";
import { toResponses } from "./support/responses.js";
import { responsesValidity } from "./support/validity.js";
import { buildDemo } from "../tools/build-demo.mjs";
import { startWranglerDev } from "../tools/dev-server.mjs";

const received: { path: string; body: Record<string, unknown> }[] = [];
let upstream: Server;
let base = "";
let stop = async () => {};

const response = (text: string) => ({
  id: "resp_e2e",
  object: "response",
  created_at: 1,
  status: "completed",
  model: "gpt-5.1-codex",
  output: [{ type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] }],
  usage: { input_tokens: 1200, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1203 },
});

/** The events of a streamed answer, as the Responses API sends them. */
function events(text: string): string {
  const r = response(text);
  const list = [
    { type: "response.created", response: { ...r, status: "in_progress", output: [], usage: null } },
    { type: "response.output_item.added", output_index: 0, item: { ...r.output[0], status: "in_progress", content: [] } },
    ...text.split(" ").map((w, k) => ({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: k ? ` ${w}` : w })),
    { type: "response.output_item.done", output_index: 0, item: r.output[0] },
    { type: "response.completed", response: r },
  ];
  return list.map((e, k) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: k })}\n\n`).join("");
}

/** The worker's state, removed when the file is done. */
const persist = mkdtempSync(`${tmpdir()}/compactor-responses-`);

beforeAll(async () => {
  await buildDemo();
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const parsed = JSON.parse(body);
      received.push({ path: req.url ?? "", body: parsed });
      if (parsed.stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(events("Tests pass now."));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(response("Done.")));
      }
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
  const port = (upstream.address() as AddressInfo).port;
  const dev = await startWranglerDev({ persist, vars: { UPSTREAM_BASE_URL: `http://127.0.0.1:${port}/v1` } });
  base = dev.base;
  stop = dev.stop;
}, 60_000);

afterAll(async () => {
  await stop();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
  rmSync(persist, { recursive: true, force: true });
});

describe("client.responses.create through wrangler dev", () => {
  const items = toResponses(trajectory("claude-code-spotter__4d5611e5-241a").messages) as ResponseInputItem[];

  it("streams the answer intact, and the upstream gets a compacted, valid input", async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused-locally", defaultHeaders: { "x-context-window": "64000" } });
    const before = received.length;
    const stream = await client.responses.create({ model: "gpt-5.1-codex", instructions: "You are Codex.", input: items, stream: true, store: false, include: ["reasoning.encrypted_content"] });
    let text = "";
    let usage: unknown;
    for await (const e of stream) {
      if (e.type === "response.output_text.delta") text += e.delta;
      if (e.type === "response.completed") usage = e.response.usage;
    }
    expect(text).toBe("Tests pass now.");
    expect(usage).toMatchObject({ input_tokens: 1200 });
    const sent = received[before];
    expect(sent.path).toBe("/v1/responses");
    const input = sent.body.input as ResponseInputItem[];
    expect(input.length).toBeLessThan(items.length);
    expect(responsesValidity(input)).toEqual([]);
    expect(sent.body.instructions).toBe(`You are Codex.\n\n${SYSTEM_NOTE}`);
    expect(sent.body).toMatchObject({ store: false, include: ["reasoning.encrypted_content"] });
  });

  it("answers JSON to a plain create, and forwards previous_response_id requests untouched", async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused-locally" });
    const r = await client.responses.create({ model: "gpt-5", input: [{ role: "user", content: "hi" }] });
    expect(r.output_text).toBe("Done.");
    const before = received.length;
    const { response: raw } = await client.responses.create({ model: "gpt-5", previous_response_id: "resp_e2e", input: items.slice(0, 40) }).withResponse();
    expect(raw.headers.get("x-compaction-mode")).toBe("skipped");
    expect(received[before].body.input).toEqual(items.slice(0, 40));
  });
});
