// How long the gateway outbox keeps its rows. Every dispatch an operation fires is a row (events.ts), about 70,000 an
// hour under the soak's steady moderation, and nothing read them once delivered: the table, the database file and
// SQLite's page cache (resident memory) grew for as long as the server ran. Rows are needed while a session can still
// RESUME and have them replayed (3 minutes after it drops, gateway/options.ts), while another instance's drain catches
// up (seconds), and by Guildhall's outbox reader (GET /guilds/{id}/events); past GATEWAY_OUTBOX_RETENTION_MINUTES
// (default 15) a sweep every instance runs deletes them, a bounded batch per transaction with the event loop free in
// between, so a backlog (the first sweep after an upgrade) never holds it for long.
import { componentLogger } from "@/lib/server/logger";
import { gatewayOptions } from "./gateway/options";
import { transaction } from "./store/db";
import { pruneOutbox } from "./store/gateway-outbox";
import { startSweeper, type Sweeper } from "./sweeper";

const log = componentLogger("outbox-retention");

const DEFAULT_RETENTION_MINUTES = 15;
/** How often the sweep looks. */
const SWEEP_INTERVAL_MS = 60_000;
/** Rows looked at (and at most deleted) per transaction. */
const BATCH = 2_000;

/**
 * Never less than a dropped session's whole chance to RESUME: the time to find its connection dead (heartbeat interval
 * × the zombie factor), the resume window, and a minute more. About 5 minutes with Discord's values. A RESUME whose
 * missed rows are gone anyway is told to start a new session (hub.ts), never replayed with a hole.
 */
export function minimumOutboxRetentionMs(): number {
  const gateway = gatewayOptions();
  return gateway.heartbeatIntervalMs * gateway.heartbeatTimeoutFactor + gateway.resumeWindowMs + 60_000;
}

export function outboxRetentionMs(env: Record<string, string | undefined> = process.env): number {
  const minutes = Number(env.GATEWAY_OUTBOX_RETENTION_MINUTES);
  const chosen = env.GATEWAY_OUTBOX_RETENTION_MINUTES && Number.isFinite(minutes) ? minutes : DEFAULT_RETENTION_MINUTES;
  return Math.max(chosen * 60_000, minimumOutboxRetentionMs());
}

/**
 * Deletes the rows older than `retentionMs` (the newest row always stays), batch by batch, until none is left or
 * `stopped()` says the server is closing; answers how many went.
 */
export async function sweepOutbox(retentionMs: number, now = Date.now(), stopped = () => false): Promise<number> {
  let deleted = 0;
  for (;;) {
    if (stopped()) return deleted;
    const batch = await transaction(() => pruneOutbox(now - retentionMs, BATCH));
    deleted += batch;
    if (batch < BATCH) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Runs the sweep every minute for as long as this server runs. */
export function startOutboxRetention(retentionMs = outboxRetentionMs()): Sweeper {
  return startSweeper(
    SWEEP_INTERVAL_MS,
    async (stopped) => {
      const deleted = await sweepOutbox(retentionMs, Date.now(), stopped);
      if (deleted > 0) log.debug({ deleted }, "deleted outbox rows past their retention");
    },
    (error) => log.error({ err: error }, "deleting outbox rows past their retention failed"),
  );
}
