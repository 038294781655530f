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

/** Why this instance is not ready, or null when it is. */
export async function unreadyReason(facts: ReadinessFacts): Promise<string | null> {
  if (facts.shuttingDown()) return "shutting down";
  if (!facts.gatewayAccepting()) return "the gateway is not accepting connections";
  try {
    return await withinTimeout(storeUnreadyReason(), READINESS_TIMEOUT_MS, "the database");
  } catch (error) {
    // The cause on the server's log; the answer says only what failed.
    log.debug({ err: error }, "the database check failed");
    return "the database does not answer";
  }
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
