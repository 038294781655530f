// The moderation scheduler's worker thread (started by scheduler-thread.ts): the loop of scheduler-loop.ts, with the
// dashboard's Prisma client of its own (lib/dashboard/db.ts makes one per thread), the same environment as the server
// (the dashboard's config, bot or user mode, the API's URL) and the same API client as in the server's thread
// (data/acting-api.ts). Its log lines are written by the server's thread; the guild-log turns it takes are the server's
// thread's (audit/guild-log/thread-turns.ts). Told to stop, its running pass finishes its batch and claims no other,
// then it closes its database connection and ends.
import { parentPort, workerData } from "node:worker_threads";
import { borrowTurnsFrom } from "@/lib/dashboard/audit/guild-log/thread-turns";
import { dashboardConfig } from "@/lib/dashboard/config";
import { apiActingFor } from "@/lib/dashboard/data/acting-api";
import { prisma } from "@/lib/dashboard/db";
import { forwardLogsToParent } from "@/lib/server/typescript-worker";
import { startSchedulerLoop, type SchedulerLoop } from "./scheduler-loop";
import type { FromSchedulerWorker, ToSchedulerWorker } from "./scheduler-thread";

const port = parentPort;
if (!port) throw new Error("scheduler-worker.ts runs in the worker thread scheduler-thread.ts starts");
const send = (message: FromSchedulerWorker) => port.postMessage(message);

forwardLogsToParent("scheduler");
borrowTurnsFrom(port);

let loop: SchedulerLoop | null = null;
let stopping = false;
// (The guild-log turns arrive here too: borrowTurnsFrom answers them.)
port.on("message", async (message: ToSchedulerWorker) => {
  if (message.type !== "stop" || stopping) return;
  stopping = true;
  await loop?.stop();
  await prisma.$disconnect().catch(() => undefined);
  // The thread ends here (process.exit in a worker ends only the worker): its idle keep-alive sockets need not wind
  // down, and the server's thread, waiting for it, goes on with its shutdown.
  process.exit(0);
});

// Ready only once the configuration reads and the table the loop works on answers: a worker that cannot do its work must not stand
// in for the server's thread, which runs the loop itself once this thread has ended (scheduler-thread.ts).
async function start(): Promise<void> {
  dashboardConfig();
  await prisma.scheduledModeration.findFirst({ select: { id: true } });
  if (stopping) return;
  const started = startSchedulerLoop(
    (workerData as { intervalMs: number }).intervalMs,
    { apiFor: apiActingFor, mode: () => dashboardConfig().authMode },
    // Passes that keep failing in this thread (its database connection, its Prisma client) may not fail there.
    () => void started.stop().finally(() => process.exit(1)),
  );
  loop = started;
  send({ type: "ready" });
}

start().catch((error: unknown) => {
  // Thrown outside the promise, it ends the thread with the error, which the server's thread is given.
  process.nextTick(() => {
    throw error;
  });
});
