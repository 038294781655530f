// The process's metrics in Prometheus's text format (GET /metrics, lib/server/create-server.ts): Node's own (event-loop
// delay, heap, GC, resident memory, handles), the guild API's requests, the pages and server actions Next answers, the
// gateway's sessions and fan-out, the job queues, the store's statements and transactions, and rate-limit refusals.
// The whole catalogue is here, with the small functions that record into it; docs/operations.md lists it. One registry
// per process; `npm run bench:soak` reads its windows' process figures from here too.
//
// Kept on globalThis: Next bundles its server code (server actions, the provider's pages and their store) separately
// from server.ts, so this module runs twice in one process. Both copies must count into the one registry GET /metrics
// serves, and prom-client refuses a metric registered twice.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  type Metric,
  type MetricObject,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from "prom-client";
import { activeHub } from "@/lib/guild-api/gateway/registry";

/** Sums the store's driver adds to on every statement: plain numbers, read into the counters at scrape time. */
interface StatementTotals {
  statements: number;
  milliseconds: number;
}

/** A store driver's connection, as guildhall_store_connection_up reads it. */
export interface StoreConnection {
  connectionUp(): boolean;
}

function createProcessMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const statementTotals: StatementTotals = { statements: 0, milliseconds: 0 };
  const storeConnections = new Set<StoreConnection>();
  let catchUps = 0;

  return {
    registry,
    statementTotals,
    storeConnections,
    countCatchUp: () => void catchUps++,

    apiRequestSeconds: new Histogram({
      name: "guildhall_api_request_duration_seconds",
      help: "Guild API requests, from routing to the answer written: by Discord's operation name and HTTP status.",
      labelNames: ["operation", "status"] as const,
      // The API's answers take 0.1–5 ms; bulk operations and searches at scale up to seconds.
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    }),

    pageRequestSeconds: new Histogram({
      name: "guildhall_page_request_duration_seconds",
      help: "Requests Next answers (pages, server actions, next-auth, the Activity), from hand-off to the last byte: by route pattern, kind and HTTP status.",
      labelNames: ["route", "kind", "status"] as const,
      // A cached page answers in milliseconds; a members page of a large guild streams for a second or more.
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),

    dashboardActions: new Counter({
      name: "guildhall_dashboard_actions_total",
      help: "Dashboard server actions by name and outcome: ok, invalid (input refused before any API call), refused (a 4xx answer), failed (5xx, unreachable, or thrown).",
      labelNames: ["action", "outcome"] as const,
      registers,
    }),

    gatewaySessions: new Gauge({
      name: "guildhall_gateway_sessions",
      help: "Gateway sessions of this process with a connected socket (detached sessions waiting for a RESUME excluded).",
      registers,
      collect() {
        let connected = 0;
        for (const session of activeHub()?.sessions.values() ?? []) if (session.connection) connected++;
        this.set(connected);
      },
    }),

    gatewayDispatches: new Counter({
      name: "guildhall_gateway_dispatches_total",
      help: "Outbox events this process fanned out to its gateway sessions, once per event (not per recipient), by dispatch type.",
      labelNames: ["type"] as const,
      registers,
    }),

    gatewayFanOutSeconds: new Histogram({
      name: "guildhall_gateway_fanout_duration_seconds",
      help: "Time to fan one outbox event out to its recipients' send buffers (slices that let the event loop run included).",
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),

    jobQueueDepth: new Gauge({
      name: "guildhall_job_queue_depth",
      help: "Jobs not finished yet, read from the database at scrape time: bulk_bans, member_jobs, target_users, prunes, scheduled_actions.",
      labelNames: ["queue"] as const,
      registers,
      collect: () => collectJobQueues(),
    }),

    jobQueueOldestAgeSeconds: new Gauge({
      name: "guildhall_job_queue_oldest_age_seconds",
      help: "Age of the oldest unfinished job of each queue (scheduled_actions: how late the most overdue one is), 0 when none.",
      labelNames: ["queue"] as const,
      registers,
      collect: () => collectJobQueues(),
    }),

    storeStatements: new Counter({
      name: "guildhall_store_statements_total",
      help: "Statements the guild API's store ran (transaction control excluded).",
      registers,
      collect() {
        this.reset();
        this.inc(statementTotals.statements);
      },
    }),

    storeStatementSeconds: new Counter({
      name: "guildhall_store_statement_seconds_total",
      help: "Time the guild API's store spent in its statements (PostgreSQL: waiting in the connection's queue included).",
      registers,
      collect() {
        this.reset();
        this.inc(statementTotals.milliseconds / 1000);
      },
    }),

    storeTransactionSeconds: new Histogram({
      name: "guildhall_store_transaction_duration_seconds",
      help: "Time a store transaction held the connection, from BEGIN to COMMIT or ROLLBACK: write (begun with the write lock) or read (deferred).",
      labelNames: ["kind"] as const,
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers,
    }),

    storeCatchUps: new Counter({
      name: "guildhall_store_catchups_total",
      help: "PostgreSQL: round trips this process made to hear every commit other instances made before a request began (shared by the requests that waited together).",
      registers,
      collect() {
        this.reset();
        this.inc(catchUps);
      },
    }),

    storeConnectionUp: new Gauge({
      name: "guildhall_store_connection_up",
      help: "1 while the store's database connection (PostgreSQL: with its LISTEN) is up, 0 while it is lost; 1 on SQLite while the file is open.",
      registers,
      // Every thread's connections must be up (pages-thread.ts merges the dashboard thread's figures).
      aggregator: "min",
      collect() {
        // Next's bundle runs a copy of the store with its own connection (the provider's pages): every one must be up.
        if (storeConnections.size > 0) this.set([...storeConnections].every((store) => store.connectionUp()) ? 1 : 0);
      },
    }),

    rateLimitRefusals: new Counter({
      name: "guildhall_rate_limit_refusals_total",
      help: "429s the guild API answered, by the limit that refused: route (a route's bucket), global (50/s per caller), invalid_requests (an address blocked for too many 401/403/429).",
      labelNames: ["scope"] as const,
      registers,
    }),
  };
}

type ProcessMetrics = ReturnType<typeof createProcessMetrics>;
const SHARED = Symbol.for("guildhall.metrics");
const metrics: ProcessMetrics = ((globalThis as { [SHARED]?: ProcessMetrics })[SHARED] ??= createProcessMetrics());

export const metricsRegistry = metrics.registry;

/** Counts one guild API request (`operation`: "unmatched" for a path no route has). About 1 µs. */
export function recordApiRequest(operation: string, status: number, seconds: number): void {
  metrics.apiRequestSeconds.observe({ operation, status }, seconds);
}

/** Counts one request Next answered; `route` is already a pattern (page-metrics.ts), never the raw path. */
export function recordPageRequest(route: string, kind: string, status: number, seconds: number): void {
  metrics.pageRequestSeconds.observe({ route, kind, status }, seconds);
}

export type ActionOutcome = "ok" | "invalid" | "refused" | "failed";

/** Counts one dashboard server action; `action` is its definition's name (code, never input). */
export function recordDashboardAction(action: string, outcome: ActionOutcome): void {
  metrics.dashboardActions.inc({ action, outcome });
}

/** Counts one outbox event fanned out by the gateway hub, and how long that took since `started` (performance.now()). */
export function recordGatewayFanOut(type: string, started: number): void {
  metrics.gatewayDispatches.inc({ type });
  metrics.gatewayFanOutSeconds.observe((performance.now() - started) / 1000);
}

const statementTotals = metrics.statementTotals;

/**
 * Counts one store statement that began at `started` (performance.now()). On every statement, so two additions on a
 * plain object: the counters read the sums at scrape time.
 */
export function recordStoreStatement(started: number): void {
  statementTotals.statements++;
  statementTotals.milliseconds += performance.now() - started;
}

/** Counts one store transaction that took the connection at `started` (performance.now()). */
export function recordStoreTransaction(kind: "read" | "write", started: number): void {
  metrics.storeTransactionSeconds.observe({ kind }, (performance.now() - started) / 1000);
}

/** Reports `store`'s connection in guildhall_store_connection_up from now until it is closed (`false`). */
export function watchStoreConnection(store: StoreConnection, open = true): void {
  if (open) metrics.storeConnections.add(store);
  else metrics.storeConnections.delete(store);
}

/** Counts one PostgreSQL catch-up round trip (store/postgresql-driver.ts). */
export function recordStoreCatchUp(): void {
  metrics.countCatchUp();
}

export type RateLimitRefusal = "route" | "global" | "invalid_requests";

/** Counts one 429 the guild API's rate limits answered. */
export function recordRateLimitRefusal(scope: RateLimitRefusal): void {
  metrics.rateLimitRefusals.inc({ scope });
}

/** The job queues' gauges, both from one read per queue: the two collect() calls of one scrape share it. */
let jobQueuesReading: Promise<void> | null = null;

function collectJobQueues(): Promise<void> {
  jobQueuesReading ??= readJobQueuesInto(metrics.jobQueueDepth, metrics.jobQueueOldestAgeSeconds).finally(
    () => (jobQueuesReading = null),
  );
  return jobQueuesReading;
}

async function readJobQueuesInto(depth: Gauge<"queue">, oldestAge: Gauge<"queue">): Promise<void> {
  // Imported when first scraped: the readers reach the dashboard's Prisma client and the API's store, which the
  // API-only server and the store's own driver (which imports this module) must not load at import time.
  const { readJobQueues } = await import("./job-queues");
  for (const reading of await readJobQueues()) {
    if ("depth" in reading) {
      depth.set({ queue: reading.queue }, reading.depth);
      oldestAge.set({ queue: reading.queue }, reading.oldestAgeSeconds);
    } else {
      // A queue that could not be read has no value in this scrape rather than a stale one.
      depth.remove({ queue: reading.queue });
      oldestAge.remove({ queue: reading.queue });
    }
  }
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

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** How long a scrape waits for another thread's figures. */
const THREAD_METRICS_WAIT_MS = 2_000;

/**
 * What the thread answering GET /metrics reads for every thread of the process itself: the process's own figures
 * (memory, CPU, files) and the job queues (read from the database, the same for any thread that reads them).
 */
const READ_BY_THE_SCRAPING_THREAD = /^(process_|guildhall_job_queue_)/;

/** Figures another thread of this process keeps (the dashboard's, pages-thread.ts), read at scrape time. */
const otherThreads = new Set<() => Promise<MetricsJson>>();

/** Adds a thread's figures to GET /metrics; returns the removal. */
export function addThreadMetrics(read: () => Promise<MetricsJson>): () => void {
  otherThreads.add(read);
  return () => otherThreads.delete(read);
}

/**
 * This thread's figures, for the thread that answers GET /metrics to merge with its own. Node's (heap, collections,
 * event-loop delay) are labelled `thread`, so that each thread's stay apart; Guildhall's are merged into one series
 * (summed; the store's connection is up only while every thread's is).
 */
export async function threadMetricsJson(thread: string): Promise<MetricsJson> {
  // Collected one by one rather than the registry's whole JSON: the job queues' collect() would read the database.
  const collected = (metricsRegistry.getMetricsAsArray() as unknown as Metric<string>[]).filter(
    (metric) => !READ_BY_THE_SCRAPING_THREAD.test((metric as unknown as MetricObject).name),
  );
  const all = (await Promise.all(collected.map((metric) => metric.get()))) as MetricsJson;
  return all.map((metric) =>
    metric.name.startsWith("nodejs_")
      ? { ...metric, values: metric.values.map((value) => ({ ...value, labels: { ...value.labels, thread } })) }
      : metric,
  );
}

async function allThreadsText(): Promise<string> {
  if (otherThreads.size === 0) return metricsRegistry.metrics();
  const own = (await metricsRegistry.getMetricsAsJSON()) as MetricsJson;
  // A thread that does not answer in time (busy, or gone) leaves its figures out of this scrape, not the scrape hanging.
  const inTime = (read: () => Promise<MetricsJson>) =>
    Promise.race([
      read().catch(() => [] as MetricsJson),
      new Promise<MetricsJson>((resolve) => setTimeout(() => resolve([]), THREAD_METRICS_WAIT_MS).unref()),
    ]);
  const others = await Promise.all([...otherThreads].map(inTime));
  return AggregatorRegistry.aggregate([own, ...others]).metrics();
}

/** Answers GET /metrics: the registry's text, or Discord's 401 shape to a caller who may not read it. */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!mayReadMetrics(req)) {
    res.writeHead(401, { "content-type": "application/json" }).end('{"message":"401: Unauthorized","code":0}');
    return;
  }
  const text = await allThreadsText();
  res.writeHead(200, { "content-type": metricsRegistry.contentType, "cache-control": "no-store" }).end(text);
}
