// The process's metrics in Prometheus's text format (GET /metrics, lib/server/create-server.ts): Node's own (event-loop
// delay, heap, GC, resident memory, handles) and the guild API's requests by operation and status. One registry per
// process; `npm run bench:soak` reads its windows' process figures from here too.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const apiRequestSeconds = new Histogram({
  name: "guildhall_api_request_duration_seconds",
  help: "Guild API requests, from routing to the answer written: by Discord's operation name and HTTP status.",
  labelNames: ["operation", "status"] as const,
  // The API's answers take 0.1–5 ms; bulk operations and searches at scale up to seconds.
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [metricsRegistry],
});

/** Counts one guild API request (`operation`: "unmatched" for a path no route has). About 1 µs. */
export function recordApiRequest(operation: string, status: number, seconds: number): void {
  apiRequestSeconds.observe({ operation, status }, seconds);
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * Whether the caller may read the metrics: a client on this machine (the socket's own address: a proxy's forwarded
 * header cannot make a remote caller look local), or anyone with `Authorization: Bearer $METRICS_TOKEN`.
 */
export function mayReadMetrics(req: IncomingMessage, token = process.env.METRICS_TOKEN): boolean {
  if (LOOPBACK.has(req.socket.remoteAddress ?? "")) return true;
  const header = req.headers.authorization ?? "";
  if (!token || !header.startsWith("Bearer ")) return false;
  // Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first differing byte.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(header.slice("Bearer ".length)), digest(token));
}

/** Answers GET /metrics: the registry's text, or Discord's 401 shape to a caller who may not read it. */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!mayReadMetrics(req)) {
    res.writeHead(401, { "content-type": "application/json" }).end('{"message":"401: Unauthorized","code":0}');
    return;
  }
  const text = await metricsRegistry.metrics();
  res.writeHead(200, { "content-type": metricsRegistry.contentType, "cache-control": "no-store" }).end(text);
}
