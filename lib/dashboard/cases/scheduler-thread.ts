// The moderation scheduler's worker thread, as the thread that starts it (Next's: instrumentation.ts) sees it: started, lent the guild-log turns its
// passes take (audit/guild-log/thread-turns.ts), stopped on shutdown once its batch is written. Why a thread: a pass's
// dashboard-database work (Prisma's query compiler over synchronous SQLite) and its JavaScript ran on the server's one
// thread between the API requests, and every request that arrived meanwhile waited behind it (10,000 bans ending at
// once took GET /users/@me's p99 to 4–7 × idle, docs/benchmarks.md). In the worker, with a Prisma client and a
// database connection of its own, the server's thread only answers the unbans it sends over HTTP, as it answers any
// client's.
import type { Worker } from "node:worker_threads";
import { lendTurnsTo } from "@/lib/dashboard/audit/guild-log/thread-turns";
import { componentLogger } from "@/lib/server/logger";
import { startTypeScriptWorker } from "@/lib/server/typescript-worker";

/** The worker's entry, from the project's root. */
export const SCHEDULER_WORKER_ENTRY = "lib/dashboard/cases/scheduler-worker.ts";

/** What the server's thread tells the worker: stop taking work (the running batch is finished and written first). */
export type ToSchedulerWorker = { type: "stop" };

/** What the worker tells the server's thread: its loop runs. (Stopped, it ends: the thread's exit says so.) */
export type FromSchedulerWorker = { type: "ready" };

export interface SchedulerThread {
  /** Asks the worker to stop (its running pass finishes its batch and claims no other); resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Why the worker is gone without being asked to stop: it could not start (`started` false: a module that would not
 * load, tsx missing), or an error escaped it while it ran.
 */
export type SchedulerThreadLost = (error: unknown, started: boolean) => void;

const log = componentLogger("cases");

/**
 * Starts the scheduler's worker, running a pass every `intervalMs`. `lost` is called once if it cannot start or dies
 * on its own: the caller then runs the loop in this thread, so no scheduled moderation waits on a thread that is gone.
 */
export function startSchedulerThread(intervalMs: number, lost: SchedulerThreadLost): SchedulerThread {
  let worker: Worker;
  try {
    worker = startTypeScriptWorker(SCHEDULER_WORKER_ENTRY, { intervalMs });
  } catch (error) {
    queueMicrotask(() => lost(error, false));
    return { stop: async () => {} };
  }
  // The thread holds no process open, as the loop's timer did not when it ran here: a server's sockets do.
  worker.unref();
  lendTurnsTo(worker);
  let started = false;
  let stopping = false;
  let failure: unknown = null;
  // (Its log lines and guild-log turns arrive as messages too: typescript-worker.ts and lendTurnsTo answer them.)
  worker.on("message", (message: FromSchedulerWorker) => {
    if (message.type !== "ready") return;
    started = true;
    log.info("the moderation scheduler runs in its worker thread");
  });
  worker.on("error", (error) => {
    failure = error;
  });
  const exited = new Promise<void>((resolve) =>
    worker.once("exit", (code) => {
      resolve();
      if (!stopping) lost(failure ?? new Error(`the scheduler's worker exited with code ${code}`), started);
    }),
  );
  return {
    async stop() {
      if (!stopping) worker.postMessage({ type: "stop" } satisfies ToSchedulerWorker);
      stopping = true;
      await exited;
    },
  };
}
