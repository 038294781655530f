// One process, one port. /api/v10/* and /api/oauth2/* (the unversioned OAuth2 alias) go straight to the
// guild API's router on bare node:http; /cdn/* serves uploaded images; everything else (pages, next-auth,
// the Activity and its /api/token) goes to Next's request handler, dashboard pages through their front door first
// (dashboard-door.ts: signed-out visitors go to sign in). /gateway upgrades to the guild API's WebSocket
// gateway (lib/guild-api/gateway).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleApiRequest, type Router } from "@/lib/guild-api/http";
import { Errors } from "@/lib/guild-api/errors";
import { createApiRouter } from "@/lib/guild-api/routes";
import { setDiscordStrict } from "@/lib/guild-api/strict";
import { serveCdn } from "@/lib/guild-api/cdn";
import {
  releaseTargetUserJobs,
  resumeTargetUserJobs,
  startTargetUsersJobSweeper,
} from "@/lib/guild-api/services/target-users";
import { startOutboxRetention } from "@/lib/guild-api/outbox-retention";
import { startScheduledEventsSweeper } from "@/lib/guild-api/services/scheduled-events";
import { startWalCheckpointer } from "@/lib/guild-api/store/wal-checkpointer";
import { CLIENT_IP_HEADER, clientAddress } from "@/lib/server/client-ip";
import { refuseLockedOutSignIn } from "@/lib/server/sign-in-gate";
import { activityFrameAncestors, BASE_SECURITY_HEADERS } from "@/lib/security/headers.mjs";
import { configureRateLimits, type RateLimitOptions } from "@/lib/guild-api/rate-limits";
import { createGatewayServer, GATEWAY_PATH, type GatewayOptions } from "@/lib/guild-api/gateway";
import { installContextStorage } from "./async-context";
import { answerThroughNext } from "./before-next";
import { serveMetrics } from "./metrics";
import { componentLogger } from "./logger";
import { serveReadiness, type ReadinessFacts } from "./readiness";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id";
import { runShutdownHooks } from "./shutdown";
import { startPagesThread, type PagesThread } from "./pages-thread";

export interface GuildhallServerOptions {
  port: number;
  host: string;
  /** Serve the Next.js app too (false for API-only integration tests). */
  withNext: boolean;
  dev?: boolean;
  /** Overrides of the API's rate limits (default: on, unless RATE_LIMITS=off in the environment). */
  rateLimits?: Partial<RateLimitOptions>;
  /** Overrides of the gateway's limits and timings (tests identify far more often than Discord allows). */
  gateway?: Partial<GatewayOptions>;
  /** The API on Discord's terms (lib/guild-api/strict.ts); default: DISCORD_STRICT=1. */
  strict?: boolean;
}

export interface GuildhallServer {
  server: http.Server;
  url: string;
  /**
   * The graceful shutdown (SIGTERM): not ready from now on; work outside the HTTP server finishes its chunk and
   * releases the rest (shutdown.ts); no new connections; gateway sessions told to reconnect; requests in flight
   * answered; at most `graceMs` in all (SHUTDOWN_GRACE_MS), then close().
   */
  shutdown(graceMs?: number): Promise<void>;
  /** Closes everything at once (tests; the end of shutdown). */
  close(): Promise<void>;
}

/** A setting of whole milliseconds, or `fallback` when it is unset or not one. */
const milliseconds = (setting: string | undefined, fallback: number): number => {
  const configured = Number(setting);
  return setting && Number.isInteger(configured) && configured >= 0 ? configured : fallback;
};

/** How long a graceful shutdown waits for work in flight before it cuts what is left. */
export const shutdownGraceMs = (): number => milliseconds(process.env.SHUTDOWN_GRACE_MS, 10_000);

/**
 * How long a shutting-down instance keeps taking connections (answering each, then closing it) after /readyz turns
 * 503: the time a load balancer takes to notice (Caddy's health_interval in docker-compose.yml). Part of the grace.
 */
const shutdownDrainDelayMs = (): number => milliseconds(process.env.SHUTDOWN_DRAIN_DELAY_MS, 0);

const log = componentLogger("server");

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "Authorization, Content-Type, X-Audit-Log-Reason, X-Request-Id",
  "access-control-expose-headers": "X-Request-Id",
  "access-control-max-age": "600",
};

type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
type UpgradeHandler = (req: http.IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => Promise<void>;

async function loadNext(
  dev: boolean,
  host: string,
  port: number,
): Promise<{ handle: NextHandler; upgrade: UpgradeHandler; close(): Promise<void> }> {
  // Next's and React's stores share one async_hooks propagation with Guildhall's (async-context.ts), not one each: the
  // API's requests pay for every store ever entered in the process.
  installContextStorage();
  const { default: next } = await import("next");
  const app = next({ dev, dir: process.cwd(), hostname: host, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = app.getUpgradeHandler();
  return {
    handle: (req, res) => handle(req, res),
    upgrade: (req, socket, head) => upgrade(req, socket, head),
    close: () => app.close(),
  };
}

const INTERNAL_ERROR_BODY = JSON.stringify(Errors.internal().toBody());

function answerUnexpected(req: http.IncomingMessage, res: http.ServerResponse, error: unknown): void {
  // The path only (no query string: it may carry codes or tokens).
  log.error({ err: error, method: req.method, path: (req.url ?? "").split("?")[0] }, "request failed");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(INTERNAL_ERROR_BODY) });
  res.end(INTERNAL_ERROR_BODY);
}

export async function startGuildhallServer(options: GuildhallServerOptions): Promise<GuildhallServer> {
  if (options.strict !== undefined) setDiscordStrict(options.strict);
  const router: Router = createApiRouter();
  // Per instance, or shared by every instance through Redis when REDIS_URL is set (the Redis client, 0.2 s to load,
  // only then). The first request is counted in Redis too: the server listens once Redis answers, or after 2 s
  // without it (then per instance until it does).
  const localRateLimits = configureRateLimits(options.rateLimits);
  let sharedRateLimits: import("@/lib/guild-api/shared-rate-limits").SharedRateLimits | null = null;
  if (process.env.REDIS_URL) {
    const { shareRateLimits, REDIS_STARTUP_WAIT_MS } = await import("@/lib/guild-api/shared-rate-limits");
    sharedRateLimits = shareRateLimits(process.env.REDIS_URL, localRateLimits);
    await sharedRateLimits?.connected(REDIS_STARTUP_WAIT_MS);
  }
  // Target-user jobs interrupted by a restart, or whose instance died, continue where they stopped: now, and whenever
  // another instance's lease runs out.
  await resumeTargetUserJobs();
  const targetUsersSweeper = startTargetUsersJobSweeper();
  // Active scheduled events whose end time has passed become completed (every instance sweeps; each event once).
  const scheduledEventsSweeper = startScheduledEventsSweeper();
  // Outbox rows past their retention are deleted (every instance sweeps; deleting twice deletes nothing more).
  const outboxRetention = startOutboxRetention();
  const checkpointer = startWalCheckpointer();
  const gateway = createGatewayServer(options.gateway);
  // In production the dashboard renders in a thread of its own (pages-thread.ts); in development Next's hot reload
  // needs its upgrades and file watching here, and PAGES_THREAD=0 keeps it here too.
  const inPagesThread = options.withNext && !options.dev && process.env.PAGES_THREAD !== "0";
  const pagesThread: PagesThread | null = inPagesThread ? await startPagesThread(options.host, options.port) : null;
  const nextApp =
    options.withNext && !inPagesThread ? await loadNext(options.dev ?? false, options.host, options.port) : null;
  let baseUrl = "";
  let draining = false;
  const readiness: ReadinessFacts = { shuttingDown: () => draining, gatewayAccepting: () => gateway.accepting() };

  // Not async itself: an API request's only promise here is the guild API's own (each promise costs more once
  // async-context stores are in use, async-context.ts); the other doors wait in dispatchToPages.
  const dispatch = (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> | undefined => {
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const search = queryAt === -1 ? "" : url.slice(queryAt + 1);
    const requestId = requestIdOf(req);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    // While shutting down, each connection closes after its answer: keep-alive clients move to another instance.
    if (draining) res.setHeader("connection", "close");
    // Every answer (API, CDN, pages) says: no MIME sniffing, no full URL in the Referer to other sites.
    for (const { key, value } of BASE_SECURITY_HEADERS) res.setHeader(key, value);
    // Only the Activity's host may frame it; the extra origins are read now, not at build time (next.config).
    if (path === "/activity" || path.startsWith("/activity/"))
      res.setHeader("Content-Security-Policy", activityFrameAncestors(process.env.ACTIVITY_FRAME_ANCESTORS));

    const isApi = path.startsWith("/api/v10/") || path.startsWith("/api/oauth2/");
    if (isApi) {
      // Like Discord's API, answer cross-origin callers (an Activity in its iframe, the host simulator).
      for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
      if (req.method === "OPTIONS") {
        res.writeHead(204).end();
        return;
      }
      return handleApiRequest(
        router,
        req,
        res,
        path.slice(path.startsWith("/api/v10/") ? "/api/v10".length : "/api".length),
        search,
        baseUrl,
        requestId,
      );
    } else if (path === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
      return;
    } else if (path === "/readyz") {
      return serveReadiness(res, readiness);
    } else if (path === "/metrics") {
      return serveMetrics(req, res);
    }
    return dispatchToPages(req, res, path, search, requestId);
  };

  const dispatchToPages = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    search: string,
    requestId: string,
  ): Promise<void> => {
    if (path.startsWith("/cdn/")) {
      await serveCdn(req, res, path);
    } else if (pagesThread) {
      return pagesThread.handle(req, res, requestId);
    } else if (refuseLockedOutSignIn(req, res, path, search, clientAddress(req))) {
      return;
    } else if (nextApp) {
      req.headers[CLIENT_IP_HEADER] = clientAddress(req);
      // The page's or action's id, for what it logs and the API calls it makes (request-id.ts).
      req.headers[REQUEST_ID_HEADER] = requestId;
      const page = { path, search, requestId, serveIcons: !options.dev };
      return answerThroughNext(req, res, page, (request, response) => nextApp.handle(request, response));
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end('{"message":"404: Not Found","code":0}');
    }
  };

  // The one top-level handler: any throw that escapes a route, the CDN or Next, synchronous or not, is logged and
  // answered with Discord's JSON 500 at once, instead of leaving the request hanging until the socket times out.
  const server = http.createServer((req, res) => {
    const fail = (error: unknown) => answerUnexpected(req, res, error);
    try {
      dispatch(req, res)?.catch(fail);
    } catch (error) {
      fail(error);
    }
  });
  server.keepAliveTimeout = 65_000;

  server.on("upgrade", (req, socket, head) => {
    // /gateway is the guild API's WebSocket; Next keeps its own upgrades (dev HMR).
    const path = (req.url ?? "").split("?")[0];
    if (path === GATEWAY_PATH || path === `${GATEWAY_PATH}/`) gateway.handleUpgrade(req, socket, head);
    else if (nextApp) void nextApp.upgrade(req, socket, head);
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  baseUrl = process.env.PUBLIC_URL ?? `http://${host === "127.0.0.1" ? "localhost" : host}:${port}`;
  gateway.setPublicOrigin(baseUrl);

  const close = async () => {
    gateway.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await nextApp?.close();
    await pagesThread?.close();
    targetUsersSweeper.stop();
    scheduledEventsSweeper.stop();
    outboxRetention.stop();
    await checkpointer.stop();
    await sharedRateLimits?.close();
  };

  const shutdown = async (graceMs: number) => {
    draining = true;
    const deadline = Date.now() + graceMs;
    const left = () => Math.max(0, deadline - Date.now());
    log.info({ grace_ms: graceMs }, "shutting down: not ready; finishing the work in flight");
    // Work outside the HTTP server first, while this instance still answers the API calls it makes of itself: the
    // scheduler's batch, a target-user job's chunk, the live streams (shutdown.ts); and for as long as a load balancer
    // takes to see /readyz fail.
    targetUsersSweeper.stop();
    scheduledEventsSweeper.stop();
    outboxRetention.stop();
    await withinMs(
      left(),
      Promise.all([
        new Promise((resolve) => setTimeout(resolve, Math.min(shutdownDrainDelayMs(), left()))),
        runShutdownHooks((error) => log.error({ err: error }, "a shutdown step failed")),
        pagesThread?.runShutdownHooks(),
        releaseTargetUserJobs().catch((error: unknown) =>
          log.error({ err: error }, "releasing the target-user jobs failed"),
        ),
      ]),
    );
    // No new connections; the requests in flight are answered, and their connections closed after them.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const idleCloser = setInterval(() => server.closeIdleConnections(), 100);
    await gateway.reconnectSessions(Math.min(left(), 2_000));
    const finished = await withinMs(left(), closed);
    clearInterval(idleCloser);
    if (!finished) log.warn("shutdown: the grace period ran out; closing the connections still open");
    await close();
    log.info("shut down");
  };

  let shuttingDown: Promise<void> | null = null;
  return {
    server,
    url: `http://${host}:${port}`,
    shutdown(graceMs = shutdownGraceMs()) {
      shuttingDown ??= shutdown(graceMs);
      return shuttingDown;
    },
    close,
  };
}

/** Whether `work` settled within `ms` (it is not cancelled when it did not). */
async function withinMs(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
