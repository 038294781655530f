// The moderation scheduler's loop: every few seconds a pass of runDueSchedules (schedule.ts), never two at once, each
// under a request id of its own (its log lines, its API calls and the events they write carry it,
// lib/server/request-id.ts). It runs
// in the scheduler's worker thread (scheduler-worker.ts), or in the server's own thread when that cannot start
// (scheduler.ts).
import { componentLogger } from "@/lib/server/logger";
import { newRequestId, withRequestId } from "@/lib/server/request-id";
import { runDueSchedules, type ScheduleDependencies } from "./schedule";

export interface SchedulerLoop {
  /** Takes no further pass, and no further batch in the running one; resolves once that batch is written. */
  stop(): Promise<void>;
}

const log = componentLogger("cases");

/**
 * `failing` is told when FAILING_PASSES passes in a row have failed (each failure is logged as it happens): the
 * scheduler's worker thread then gives up, so that the server's thread runs the loop instead.
 */
export const FAILING_PASSES = 3;

export function startSchedulerLoop(
  intervalMs: number,
  dependencies: ScheduleDependencies,
  failing?: (error: unknown) => void,
): SchedulerLoop {
  let stopped = false;
  let failuresInARow = 0;
  let pass: Promise<void> | null = null;
  const deps: ScheduleDependencies = {
    ...dependencies,
    stopping: () => stopped || (dependencies.stopping?.() ?? false),
  };
  const timer = setInterval(() => {
    if (pass || deps.stopping!()) return;
    pass = withRequestId(`scheduler-${newRequestId()}`, async () => {
      try {
        const ran = await runDueSchedules(deps);
        failuresInARow = 0;
        if (ran > 0) log.info({ ran }, "scheduled moderation ran");
      } catch (error) {
        log.error({ err: error }, "running scheduled moderation failed");
        if (++failuresInARow >= FAILING_PASSES) failing?.(error);
      }
    }).finally(() => {
      pass = null;
    });
  }, intervalMs);
  // The loop holds no process open: a server's sockets do.
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await pass;
    },
  };
}
