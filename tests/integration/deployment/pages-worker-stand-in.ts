// A stand-in for the dashboard's thread (lib/server/pages-worker.ts) with its protocol but without Next, so that
// pages-thread.test.ts can test the hand-off itself: what crosses the socket, streams, a thread that is busy or dies.
// Its routes: /echo answers what reached it; /stream sends one event and holds the stream open, counting the streams
// closed under it (/streams-closed); /busy?ms= holds the thread; /exit ends it, and /throw too, by an uncaught error.
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import { threadMetricsJson } from "@/lib/server/metrics";
import type { FromPagesWorker, PagesWorkerData, ToPagesWorker } from "@/lib/server/pages-thread";

const port = parentPort!;
const send = (message: FromPagesWorker) => port.postMessage(message);
const { socketPath } = workerData as PagesWorkerData;
let streamsClosed = 0;

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://pages");
  if (url.pathname === "/echo") {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      res.writeHead(201, { "content-type": "application/json", "set-cookie": "from=thread; Path=/" });
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  } else if (url.pathname === "/stream") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: first\n\n");
    res.once("close", () => streamsClosed++);
  } else if (url.pathname === "/streams-closed") {
    res.end(String(streamsClosed));
  } else if (url.pathname === "/busy") {
    const until = Date.now() + Number(url.searchParams.get("ms"));
    while (Date.now() < until) {
      // holding the thread, as a long render would
    }
    res.end("done");
  } else if (url.pathname === "/exit") {
    process.exit(3);
  } else if (url.pathname === "/throw") {
    setImmediate(() => {
      throw new Error("a bug the thread did not catch");
    });
  } else {
    res.writeHead(404).end();
  }
});

port.on("message", (message: ToPagesWorker) => {
  if (message.type === "metrics") {
    void threadMetricsJson("pages").then((json) => send({ type: "metrics", id: message.id, json }));
  } else if (message.type === "shutdown-hooks") {
    send({ type: "shutdown-hooks-done" });
  } else if (message.type === "close") {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});

server.listen(socketPath, () => send({ type: "ready" }));
