// Both ends of a worker thread that runs one of Guildhall's TypeScript modules. Started by path from the project's
// root (the working directory of `npm start`, the image, the e2e server and the tests alike), not by the module's own
// location: the dashboard's code that starts one is bundled by Next, where a module's own path is the bundle's.
// typescript-worker-loader.mjs registers tsx in the new thread before the entry loads. The thread's log lines are
// written by the main thread's logger (logger.ts, forwardLogs), so they reach the same output in the same format.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, Worker } from "node:worker_threads";
import { forwardLogs, writeForwardedLog } from "./logger";

/** A log line on its way from a worker thread to the main thread. */
interface ForwardedLog {
  type: "log";
  line: string;
}

const isForwardedLog = (message: unknown): message is ForwardedLog =>
  typeof message === "object" && message !== null && (message as ForwardedLog).type === "log";

/**
 * A worker thread running `entry` (a path from the project's root, e.g. "lib/dashboard/cases/scheduler-worker.ts")
 * with `workerData`, and the same environment as this thread's. Its forwarded log lines are written here.
 */
export function startTypeScriptWorker(
  entry: string,
  workerData: Record<string, unknown> = {},
  // The dashboard's server modules import "server-only", which loads outside Next's bundles only under the
  // react-server condition (as tests/postgres/scheduler-instance.ts runs the scheduler with tsx). Next itself loads
  // without it (pages-thread.ts). Nothing else: the parent's own options (`--import tsx`, a profiler's) are the
  // process's, not a thread's.
  execArgv: string[] = ["--conditions=react-server"],
): Worker {
  const root = process.cwd();
  // Paths Next's bundler must leave alone (turbopackIgnore): it would otherwise bundle the loader, and tsx and
  // esbuild's binary with it, into the instrumentation's bundle.
  const loader = path.join(/* turbopackIgnore: true */ root, "lib", "server", "typescript-worker-loader.mjs");
  const worker = new Worker(/* turbopackIgnore: true */ loader, {
    workerData: { ...workerData, entry: pathToFileURL(path.join(/* turbopackIgnore: true */ root, entry)).href },
    execArgv,
  });
  worker.on("message", (message: unknown) => {
    if (isForwardedLog(message)) writeForwardedLog(message.line);
  });
  return worker;
}

/** In a worker thread: its log lines go to the thread that started it, each marked `thread: <name>`. */
export function forwardLogsToParent(name: string): void {
  const port = parentPort;
  if (!port) throw new Error("forwardLogsToParent runs in a worker thread");
  forwardLogs(name, (line) => port.postMessage({ type: "log", line } satisfies ForwardedLog));
}
