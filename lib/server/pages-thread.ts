// The main thread's end of the dashboard's thread (pages-worker.ts): starts it, hands it every request that is not the
// guild API's, the CDN's or the operator's (create-server.ts), starts it again if it dies, and stops it. The request
// crosses a Unix socket as it came (method, path, headers, body), with the client's address and the request's id set
// here; the answer comes back as Next wrote it, streamed chunk by chunk (a page's shell before its slow parts, the live
// stream's events).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { CLIENT_IP_HEADER, clientAddress } from "./client-ip";
import { REQUEST_ID_HEADER } from "./request-id";
import { startTypeScriptWorker } from "./typescript-worker";
import { addThreadMetrics, type threadMetricsJson } from "./metrics";
import { componentLogger } from "./logger";

export interface PagesWorkerData {
  socketPath: string;
  host: string;
  publicPort: number;
}
export type ToPagesWorker = { type: "shutdown-hooks" } | { type: "close" } | { type: "metrics"; id: number };
export type FromPagesWorker =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "shutdown-hooks-done" }
  | { type: "metrics"; id: number; json: Awaited<ReturnType<typeof threadMetricsJson>> }
  | { type: "closed" };

export const PAGES_WORKER_ENTRY = "lib/server/pages-worker.ts";

/** Headers of one connection, not of the request or the answer (RFC 9110 §7.6.1): each hop has its own. */
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"];

function withoutHopByHop<T extends Record<string, unknown>>(headers: T): T {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

const log = componentLogger("server");

export interface PagesThread {
  /** Hands the request to the dashboard's thread and its answer back. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void>;
  /** Runs the dashboard's shutdown hooks (its live streams end, the scheduler finishes its batch). */
  runShutdownHooks(): Promise<void>;
  close(): Promise<void>;
  /** The socket the thread listens on: in a directory of its own that only this process's user may open. */
  readonly socketPath: string;
}

interface RunningThread {
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
}

/** `entry`: the thread's module (a stand-in in tests/integration/deployment/pages-thread.test.ts). */
export async function startPagesThread(
  host: string,
  publicPort: number,
  entry = PAGES_WORKER_ENTRY,
): Promise<PagesThread> {
  // Not the temp directory itself, where anyone may create files: a socket there would be as open as the umask made it.
  const socketDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-pages-"));
  const socketPath = path.join(socketDirectory, "pages.sock");
  let closing = false;

  const waitFor = (worker: Worker, type: FromPagesWorker["type"]) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromPagesWorker) => {
        if (message.type === "failed") reject(new Error(`the dashboard's thread failed to start: ${message.message}`));
        if (message.type !== type) return;
        worker.off("message", onMessage);
        resolve();
      };
      worker.on("message", onMessage);
      worker.once("exit", (code) => reject(new Error(`the dashboard's thread exited with ${code}`)));
    });

  const start = (): RunningThread => {
    fs.rmSync(socketPath, { force: true });
    const worker = startTypeScriptWorker(entry, { socketPath, host, publicPort } satisfies PagesWorkerData, []);
    const running: RunningThread = { worker, ready: waitFor(worker, "ready"), isReady: false };
    running.ready.then(() => (running.isReady = true)).catch(() => undefined);
    // An error the thread did not catch ends the thread, not the process (its exit, below, starts another).
    worker.on("error", (error) => log.error({ err: error }, "the dashboard's thread failed"));
    worker.once("exit", (code) => {
      // One that never started is not started again (the server's start fails, or the restart is logged as failed).
      if (closing || thread !== running || !running.isReady) return;
      // A thread that dies (out of memory, a native crash) takes no page with it for long: a new one starts, and
      // pages answer 503 until it is ready.
      log.error({ code }, "the dashboard's thread stopped; starting it again");
      thread = start();
      thread.ready.catch((error: unknown) => log.error({ err: error }, "the dashboard's thread did not start again"));
    });
    return running;
  };
  let thread = start();
  await thread.ready;

  // GET /metrics reads the thread's figures too: its pages and actions, and its heap and collections (thread="pages").
  let lastMetricsId = 0;
  const removeMetrics = addThreadMetrics(
    () =>
      new Promise((resolve) => {
        const { worker } = thread;
        const id = ++lastMetricsId;
        const onMessage = (message: FromPagesWorker) => {
          if (message.type !== "metrics" || message.id !== id) return;
          worker.off("message", onMessage);
          resolve(message.json);
        };
        worker.on("message", onMessage);
        worker.postMessage({ type: "metrics", id } satisfies ToPagesWorker);
      }),
  );
  // Kept-alive connections to the thread: a request costs no connection of its own. No cap: a live stream holds one.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, requestId: string): Promise<void> =>
    new Promise((resolve) => {
      const headers = {
        ...withoutHopByHop(req.headers),
        [CLIENT_IP_HEADER]: clientAddress(req),
        [REQUEST_ID_HEADER]: requestId,
      };
      const toThread = http.request({ socketPath, agent, method: req.method, path: req.url, headers }, (answer) => {
        // Headers this thread set (the request id, the security headers) stay; the thread's own win where both did.
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
        answer.pipe(res);
        answer.once("end", resolve);
        answer.once("error", () => res.destroy());
      });
      toThread.once("error", () => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("Bad Gateway");
        else res.destroy();
        resolve();
      });
      // The client went away: so does the thread's request (a live stream ends there too).
      res.once("close", () => {
        if (!res.writableFinished) toThread.destroy();
        resolve();
      });
      req.pipe(toThread);
    });

  return {
    socketPath,
    async handle(req, res, requestId) {
      if (!thread.isReady) {
        res.writeHead(503, { "content-type": "text/plain", "retry-after": "1" }).end("Service Unavailable");
        return;
      }
      return forward(req, res, requestId);
    },
    async runShutdownHooks() {
      const done = waitFor(thread.worker, "shutdown-hooks-done");
      thread.worker.postMessage({ type: "shutdown-hooks" } satisfies ToPagesWorker);
      await done.catch(() => undefined);
    },
    async close() {
      closing = true;
      removeMetrics();
      agent.destroy();
      const { worker } = thread;
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.postMessage({ type: "close" } satisfies ToPagesWorker);
      await exited;
      fs.rmSync(socketDirectory, { recursive: true, force: true });
    },
  };
}
