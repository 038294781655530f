// The loop that runs scheduled moderation (schedule.ts) in the dashboard's server process: every few seconds, due rows
// claimed and run. Started once per process by instrumentation.ts; several instances each run one, and the claims
// keep every row to one of them. The API client acts as the moderator who scheduled the work, or as the bot in bot
// mode (data/acting-api.ts).
import "server-only";
import { dashboardConfig } from "@/lib/dashboard/config";
import { apiActingFor } from "@/lib/dashboard/data/acting-api";
import { runDueSchedules, type ScheduleDependencies } from "./schedule";

/** How often due rows are looked for: a temporary ban ends within this of its time. */
export const SCHEDULER_INTERVAL_MS = 5_000;

const DEPENDENCIES: ScheduleDependencies = { apiFor: apiActingFor, mode: () => dashboardConfig().authMode };

/** Starts the loop (once per process); the returned function stops it. */
export function startModerationScheduler(intervalMs = SCHEDULER_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runDueSchedules(DEPENDENCIES)
      .catch((error: unknown) => console.error("[cases] running scheduled moderation failed:", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
