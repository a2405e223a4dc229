// A pass-through between an agent and the worker, on 127.0.0.1: forwards every request byte for
// byte and streams the answer back, noting what the worker said (status, x-compaction-* headers, the
// body of an error) and how long it took to answer, so that a failing test can quote the worker.
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

export interface Tapped {
  method: string;
  path: string;
  /** The request body, parsed (undefined when not JSON). */
  body: any;
  status: number;
  /** x-compaction-mode: noop, pruned, summarized, fallback, reused, skipped … (absent on routes that do not compact). */
  mode?: string;
  headers: IncomingHttpHeaders;
  /** The answer's body when it is an error (status ≥ 400). */
  error?: string;
  /** Milliseconds from the request's end to the answer's headers. */
  ms: number;
}

export interface Tap {
  origin: string;
  log: Tapped[];
  /** Forgets what was noted (a new test). */
  clear(): void;
  close(): Promise<void>;
}

/** An error body as text, whatever encoding the worker gave it. */
function decoded(body: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === "gzip") return gunzipSync(body).toString("utf8");
    if (encoding === "br") return brotliDecompressSync(body).toString("utf8");
    if (encoding === "deflate") return inflateSync(body).toString("utf8");
  } catch {
    // not what it said it was: shown as it came
  }
  return body.toString("utf8");
}

export async function startTap(target: string): Promise<Tap> {
  const to = new URL(target);
  const log: Tapped[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body: any;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = undefined;
      }
      const t0 = performance.now();
      const headers = { ...req.headers, host: to.host };
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
        const entry: Tapped = { method: req.method ?? "GET", path: req.url ?? "/", body, status: answer.statusCode ?? 0, mode: answer.headers["x-compaction-mode"] as string | undefined, headers: answer.headers, ms: performance.now() - t0 };
        log.push(entry);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if ((answer.statusCode ?? 0) >= 400) {
          const err: Buffer[] = [];
          answer.on("data", (c) => err.push(c));
          answer.on("end", () => (entry.error = decoded(Buffer.concat(err), answer.headers["content-encoding"]).slice(0, 2000)));
        }
        answer.pipe(res);
      });
      out.on("error", (e) => {
        log.push({ method: req.method ?? "GET", path: req.url ?? "/", body, status: 502, headers: {}, error: `tap: ${e.message}`, ms: performance.now() - t0 });
        if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `tap: the worker could not be reached: ${e.message}` } }));
      });
      out.end(raw);
    });
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    clear: () => void log.splice(0),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
