// The soak's gateway sessions stand in for remote clients but share this machine's two cores with the server they
// measure. Each event's fan-out wakes their process a thousand times, and a woken process that has slept a lot is
// scheduled ahead of the server mid-turn: the requests waiting on the server are then timed late. On a deployment
// the clients are other machines; here they run at a lower priority and take the cores the server leaves.
// Chromium is not asked: it sets its threads' niceness itself (back to 0, and -8 for some, when it may), so the
// same request would mean one thing as root and another as a user.
import fs from "node:fs";
import os from "node:os";

/** The niceness a helper process is asked to take (BENCH_CLIENT_NICENESS; unset: it keeps its own). */
export const CLIENT_NICENESS_ENV = "BENCH_CLIENT_NICENESS";

/**
 * Gives every thread of this process the niceness in BENCH_CLIENT_NICENESS, if set. Linux keeps a niceness per thread:
 * each of /proc/self/task is set, and threads started later inherit it.
 */
export function yieldCoresIfAsked(): void {
  const niceness = Number(process.env[CLIENT_NICENESS_ENV]);
  if (!process.env[CLIENT_NICENESS_ENV] || !Number.isInteger(niceness)) return;
  let threads: number[] = [0];
  try {
    threads = fs.readdirSync("/proc/self/task").map(Number);
  } catch {
    // not Linux: this thread only
  }
  for (const thread of threads) os.setPriority(thread, niceness);
}
