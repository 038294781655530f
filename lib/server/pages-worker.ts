// The dashboard's thread (started by pages-thread.ts): Next renders every page, action and route handler here, on a
// heap and an event loop of its own, so that a render (tens of milliseconds of React and Prisma at once) never holds
// the thread that answers the guild API and the gateway. The main thread hands each non-API request over a Unix
// socket, with the client's address and the request's id in headers it sets itself (replacing anything the client
// sent); what happened to a request before Next (the sign-in gate, the dashboard's door, the app icons, an invite's
// status) happens here, as it did in the main thread.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { refuseLockedOutSignIn } from "./sign-in-gate";
import { installContextStorage } from "./async-context";
import { answerThroughNext } from "./before-next";
import { CLIENT_IP_HEADER } from "./client-ip";
import { REQUEST_ID_HEADER } from "./request-id";
import { runShutdownHooks } from "./shutdown";
import { componentLogger } from "./logger";
import { forwardLogsToParent } from "./typescript-worker";
import { threadMetricsJson } from "./metrics";
import type { FromPagesWorker, PagesWorkerData, ToPagesWorker } from "./pages-thread";

const port = parentPort;
if (!port) throw new Error("pages-worker.ts runs in the worker thread pages-thread.ts starts");
const send = (message: FromPagesWorker) => port.postMessage(message);
const { socketPath, host, publicPort } = workerData as PagesWorkerData;

forwardLogsToParent("pages");
const log = componentLogger("server");

/**
 * How much lower this thread's scheduling priority is than the API's (a niceness, 0–19). When both want a core, a
 * request to the API or a gateway event goes first and the render waits: a page takes tens of milliseconds of CPU, an
 * API answer a millisecond, and bots and the dashboard's own reads wait on the API. An idle core is used as before.
 */
const PAGES_THREAD_NICENESS = 5;

/** Lowers this thread's priority alone: Linux keeps a niceness per thread, and /proc/thread-self names this one. */
function yieldToTheApi(): void {
  try {
    const thread = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    os.setPriority(thread, PAGES_THREAD_NICENESS);
  } catch (error) {
    // Not Linux, or not allowed: the thread runs at the process's priority.
    log.info({ err: error }, "the dashboard's thread runs at the server's priority");
  }
}

async function start(): Promise<void> {
  yieldToTheApi();
  installContextStorage();
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname: host, port: publicPort });
  await app.prepare();
  const handle = app.getRequestHandler();

  const pages = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const search = queryAt === -1 ? "" : url.slice(queryAt + 1);
    const requestId = String(req.headers[REQUEST_ID_HEADER]);
    const clientIp = String(req.headers[CLIENT_IP_HEADER] ?? "");
    if (refuseLockedOutSignIn(req, res, path, search, clientIp)) return;
    return answerThroughNext(req, res, { path, search, requestId, serveIcons: true }, handle);
  };

  const server = http.createServer((req, res) => {
    pages(req, res).catch((error: unknown) => {
      log.error({ err: error, method: req.method, path: (req.url ?? "").split("?")[0] }, "request failed");
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });

  port!.on("message", (message: ToPagesWorker) => void answer(message));
  const answer = async (message: ToPagesWorker) => {
    if (message.type === "metrics") {
      send({ type: "metrics", id: message.id, json: await threadMetricsJson("pages") });
    } else if (message.type === "shutdown-hooks") {
      await runShutdownHooks((error) => log.error({ err: error }, "a shutdown step failed"));
      send({ type: "shutdown-hooks-done" });
    } else if (message.type === "close") {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      send({ type: "closed" });
      process.exit(0);
    }
  };
  send({ type: "ready" });
}

start().catch((error: unknown) => {
  send({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
