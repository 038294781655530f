// The moderation scheduler (schedule.ts) of a dashboard server process: every few seconds, due rows claimed and run.
// Started once per process by instrumentation.ts; several instances each run one, and the claims keep every row to one
// of them. It runs in a worker thread of its own (scheduler-thread.ts), so its database work never holds up the pages of
// the thread Next runs in (the dashboard's thread, lib/server/pages-thread.ts, under npm start) nor the API; if that
// thread cannot start, or dies, the loop runs in Next's thread instead, with a warning, rather than leave temporary bans unended. The API client acts as the moderator who
// scheduled the work, or as the bot in bot mode (data/acting-api.ts). On shutdown the running pass finishes its batch
// and claims no other (lib/server/shutdown.ts).
import "server-only";
import { dashboardConfig } from "@/lib/dashboard/config";
import { apiActingFor } from "@/lib/dashboard/data/acting-api";
import { componentLogger } from "@/lib/server/logger";
import { onShutdown, shutdownStarted } from "@/lib/server/shutdown";
import { startSchedulerLoop } from "./scheduler-loop";
import { startSchedulerThread } from "./scheduler-thread";

/** How often due rows are looked for: a temporary ban ends within this of its time. */
export const SCHEDULER_INTERVAL_MS = 5_000;

const log = componentLogger("cases");

/** The loop in this thread: the fallback when the worker cannot run it. */
const inThisThread = (intervalMs: number) =>
  startSchedulerLoop(intervalMs, {
    apiFor: apiActingFor,
    mode: () => dashboardConfig().authMode,
    stopping: shutdownStarted,
  });

/** Starts the scheduler (once per process); the returned function stops it, once its running batch is written. */
export function startModerationScheduler(intervalMs = SCHEDULER_INTERVAL_MS): () => Promise<void> {
  let stopped = false;
  let running: { stop(): Promise<void> } = startSchedulerThread(intervalMs, (error, started) => {
    if (stopped || shutdownStarted()) return;
    if (started) log.error({ err: error }, "the moderation scheduler's worker thread died: running it in this thread");
    else
      log.warn({ err: error }, "the moderation scheduler's worker thread could not start: running it in this thread");
    running = inThisThread(intervalMs);
  });
  const stop = async () => {
    stopped = true;
    await running.stop();
  };
  const unregister = onShutdown(stop);
  return async () => {
    unregister();
    await stop();
  };
}
