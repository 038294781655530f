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
import { serveCdn } from "@/lib/guild-api/cdn";
import { resumeTargetUserJobs, startTargetUsersJobSweeper } from "@/lib/guild-api/services/target-users";
import { startWalCheckpointer } from "@/lib/guild-api/store/wal-checkpointer";
import { CLIENT_IP_HEADER, clientAddress } from "@/lib/server/client-ip";
import { refuseLockedOutSignIn } from "@/lib/server/sign-in-gate";
import { answerWith, inviteLandingStatus } from "@/lib/server/invite-status";
import { activityFrameAncestors, BASE_SECURITY_HEADERS } from "@/lib/security/headers.mjs";
import { configureRateLimits, type RateLimitOptions } from "@/lib/guild-api/rate-limits";
import { createGatewayServer, GATEWAY_PATH, type GatewayOptions } from "@/lib/guild-api/gateway";
import { installContextStorage } from "./async-context";
import { withResponseFacts } from "./first-write";
import { serveMetrics } from "./metrics";
import { timePageRequest } from "./page-metrics";
import { dashboardDoor } from "./dashboard-door";

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
}

export interface GuildhallServer {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "Authorization, Content-Type, X-Audit-Log-Reason",
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
  console.error(`[server] ${req.method ?? "?"} ${(req.url ?? "").split("?")[0]} failed:`, error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(INTERNAL_ERROR_BODY) });
  res.end(INTERNAL_ERROR_BODY);
}

export async function startGuildhallServer(options: GuildhallServerOptions): Promise<GuildhallServer> {
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
  const checkpointer = startWalCheckpointer();
  const gateway = createGatewayServer(options.gateway);
  const nextApp = options.withNext ? await loadNext(options.dev ?? false, options.host, options.port) : null;
  let baseUrl = "";

  // Not async itself: an API request's only promise here is the guild API's own (each promise costs more once
  // async-context stores are in use, async-context.ts); the other doors wait in dispatchToPages.
  const dispatch = (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> | undefined => {
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const search = queryAt === -1 ? "" : url.slice(queryAt + 1);
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
      );
    } else if (path === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
      return;
    } else if (path === "/metrics") {
      return serveMetrics(req, res);
    }
    return dispatchToPages(req, res, path, search);
  };

  const dispatchToPages = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    search: string,
  ): Promise<void> => {
    if (path.startsWith("/cdn/")) {
      await serveCdn(req, res, path);
    } else if (refuseLockedOutSignIn(req, res, path, search, clientAddress(req))) {
      return;
    } else if (nextApp) {
      req.headers[CLIENT_IP_HEADER] = clientAddress(req);
      if (dashboardDoor(req, res, path, search)) return;
      const inviteStatus = await inviteLandingStatus(req, path);
      if (inviteStatus !== null) answerWith(res, inviteStatus);
      timePageRequest(req, res, path);
      // A page's slow part waits for the shell's first bytes, or a client navigation for its reads (streaming.ts).
      return withResponseFacts(req, res, () => nextApp.handle(req, res));
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

  return {
    server,
    url: `http://${host}:${port}`,
    async close() {
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await nextApp?.close();
      targetUsersSweeper.stop();
      await checkpointer.stop();
      await sharedRateLimits?.close();
    },
  };
}
