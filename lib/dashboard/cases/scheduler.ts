// The loop that runs scheduled moderation (schedule.ts) in the dashboard's server process: every few seconds, due rows
// claimed and run. Started once per process by instrumentation.ts; several instances each run one, and the claims
// keep every row to one of them. The API client acts as the moderator who scheduled the work, or as the bot in bot
// mode (data/acting-api.ts). On shutdown the running pass finishes its batch and claims no other (lib/server/shutdown.ts).
import "server-only";
import { dashboardConfig } from "@/lib/dashboard/config";
import { apiActingFor } from "@/lib/dashboard/data/acting-api";
import { componentLogger } from "@/lib/server/logger";
import { newRequestId, withRequestId } from "@/lib/server/request-id";
import { onShutdown, shutdownStarted } from "@/lib/server/shutdown";
import { runDueSchedules, type ScheduleDependencies } from "./schedule";

/** How often due rows are looked for: a temporary ban ends within this of its time. */
export const SCHEDULER_INTERVAL_MS = 5_000;

const DEPENDENCIES: ScheduleDependencies = {
  apiFor: apiActingFor,
  mode: () => dashboardConfig().authMode,
  stopping: shutdownStarted,
};

const log = componentLogger("cases");

/** Starts the loop (once per process); the returned function stops it. */
export function startModerationScheduler(intervalMs = SCHEDULER_INTERVAL_MS): () => void {
  let pass: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (pass || shutdownStarted()) return;
    // Each pass under an id of its own: its API calls and the events they write carry it (request-id.ts).
    pass = withRequestId(`scheduler-${newRequestId()}`, () => runDueSchedules(DEPENDENCIES))
      .then((ran) => {
        if (ran > 0) log.info({ ran }, "scheduled moderation ran");
      })
      .catch((error: unknown) => log.error({ err: error }, "running scheduled moderation failed"))
      .finally(() => {
        pass = null;
      });
  }, intervalMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  const unregister = onShutdown(async () => {
    stop();
    await pass;
  });
  return () => {
    stop();
    unregister();
  };
}
