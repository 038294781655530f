// GET /readyz: whether this instance should be sent traffic. 200 `{"ok":true}` when the database answers with every
// migration applied and the gateway accepts connections; 503 `{"ok":false,"reason":…}` otherwise, and from the moment
// a shutdown begins, so a load balancer stops sending requests before the process stops taking them. GET /healthz
// says only that the process answers. Both answer anyone, before Next; neither names a path or a credential.
import type { ServerResponse } from "node:http";
import { storeUnreadyReason } from "@/lib/guild-api/store/readiness";
import { componentLogger } from "./logger";

/** A database that has not answered in this long counts as unreachable. */
export const READINESS_TIMEOUT_MS = 2_000;

export interface ReadinessFacts {
  shuttingDown(): boolean;
  gatewayAccepting(): boolean;
}

const log = componentLogger("readiness");

function withinTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * How long one database check answers every probe: /readyz is open to anyone, and a flood of probes must not become
 * a flood of statements queued on the store's connection (on PostgreSQL, one connection shared with the API).
 */
export const STORE_CHECK_REUSE_MS = 1_000;

let storeCheck: { startedAt: number; settled: boolean; reason: Promise<string | null> } | null = null;

async function checkStore(): Promise<string | null> {
  try {
    return await withinTimeout(storeUnreadyReason(), READINESS_TIMEOUT_MS, "the database");
  } catch (error) {
    // The cause on the server's log; the answer says only what failed.
    log.debug({ err: error }, "the database check failed");
    return "the database does not answer";
  }
}

/** Why this instance is not ready, or null when it is. */
export async function unreadyReason(facts: ReadinessFacts): Promise<string | null> {
  if (facts.shuttingDown()) return "shutting down";
  if (!facts.gatewayAccepting()) return "the gateway is not accepting connections";
  // One check at a time, its answer reused for a second: the probes of a second share it.
  if (!storeCheck || (storeCheck.settled && performance.now() - storeCheck.startedAt >= STORE_CHECK_REUSE_MS)) {
    const check = { startedAt: performance.now(), settled: false, reason: checkStore() };
    void check.reason.finally(() => (check.settled = true));
    storeCheck = check;
  }
  return storeCheck.reason;
}

/** The last answer, so the log says when readiness changes rather than at every probe. */
let lastReason: string | null | undefined;

export async function serveReadiness(res: ServerResponse, facts: ReadinessFacts): Promise<void> {
  const reason = await unreadyReason(facts);
  if (reason !== lastReason) {
    if (reason === null) log.info("ready");
    else log.warn({ reason }, `not ready: ${reason}`);
    lastReason = reason;
  }
  const body = JSON.stringify(reason === null ? { ok: true } : { ok: false, reason });
  res.writeHead(reason === null ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(body);
}
