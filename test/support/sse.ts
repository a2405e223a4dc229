// Recorded SSE fixtures replayed through a fake fetch, in chunks split wherever the test likes.
import { readdirSync, readFileSync } from "node:fs";
import { FIXTURES } from "./fixtures.js";

export const SSE_DIR = `${FIXTURES}sse/`;
export const sseFiles = () => readdirSync(SSE_DIR).filter((f) => f.endsWith(".txt")).sort();
export const sseBytes = (file: string) => new Uint8Array(readFileSync(SSE_DIR + file));

/** The bytes cut at the given offsets, as a stream. */
export function chunked(bytes: Uint8Array, cuts: number[] = []): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => Math.max(0, Math.min(bytes.length, c))))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    if (p > at) pieces.push(bytes.slice(at, p));
    at = p;
  }
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

export interface Captured {
  url: string;
  init: RequestInit;
  body: any;
}

/** A fetch that answers every request with `respond()` and records what was sent. */
export function fakeFetch(respond: () => Response, seen: Captured[] = []): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), init: init ?? {}, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return respond();
  }) as typeof fetch;
}

export const sseResponse = (bytes: Uint8Array, cuts?: number[]) =>
  new Response(chunked(bytes, cuts), { status: 200, headers: { "content-type": "text/event-stream" } });
