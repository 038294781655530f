// Checkpoints the write-ahead log from a worker thread instead of inside commits. SQLite's automatic checkpoint
// runs in whichever commit crosses 1,000 WAL pages, copying them into the database file while that request waits:
// on a 1M-member guild a Bulk Guild Ban (about 1,000 dirty pages) met one every third call, at 40 ms instead of
// 3 ms for its commit. A PASSIVE checkpoint on the worker's own connection copies what no reader still needs and
// never blocks the server's connection, so commits only append to the log.
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { db, storeOnPostgresql } from "./db";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("store");

// Plain CommonJS, so the worker needs no TypeScript loader under tsx, Vitest or Next alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const connection = new Database(workerData.file);
connection.pragma("busy_timeout = 1000");
const timer = setInterval(() => {
  try { connection.pragma("wal_checkpoint(PASSIVE)"); } catch { /* busy: the next tick tries again */ }
}, workerData.intervalMs);
parentPort.on("message", () => { clearInterval(timer); connection.close(); parentPort.close(); });
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/** On PostgreSQL there is no WAL file of ours to keep short: nothing to start. */
export function startWalCheckpointer(intervalMs = 500): WalCheckpointer {
  if (storeOnPostgresql()) return { stop: async () => {} };
  const connection = db();
  connection.pragma("wal_autocheckpoint = 0");
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: connection.name, intervalMs } });
  worker.unref();
  worker.on("error", (error) => {
    // Without the worker, fall back to SQLite's own checkpoints rather than let the log grow.
    log.error({ err: error }, "the WAL checkpointer stopped");
    connection.pragma("wal_autocheckpoint = 1000");
  });
  return {
    async stop() {
      worker.postMessage("stop");
      await new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      connection.pragma("wal_autocheckpoint = 1000");
    },
  };
}
