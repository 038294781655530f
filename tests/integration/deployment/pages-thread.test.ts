// The hand-off between the server's main thread and the dashboard's thread (lib/server/pages-thread.ts), against a
// stand-in thread that speaks the same protocol without Next (pages-worker-stand-in.ts; the browser tests run the real
// one): what crosses the socket and what does not, streams in both directions, the main thread answering while the
// dashboard's is held, GET /metrics with and without the thread's figures, a thread that dies, and the socket's privacy.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startPagesThread, type PagesThread } from "@/lib/server/pages-thread";
import { serveMetrics } from "@/lib/server/metrics";
import { CLIENT_IP_HEADER } from "@/lib/server/client-ip";
import { REQUEST_ID_HEADER } from "@/lib/server/request-id";
import { tapLogs } from "@/lib/server/logger";

let pagesThread: PagesThread;
let server: http.Server;
let baseUrl = "";
let lastRequestId = 0;

beforeAll(async () => {
  pagesThread = await startPagesThread("127.0.0.1", 0, "tests/integration/deployment/pages-worker-stand-in.ts");
  // What create-server.ts does with these paths: /main stands for the guild API, answered on this thread.
  server = http.createServer((req, res) => {
    if (req.url === "/metrics") void serveMetrics(req, res);
    else if (req.url === "/main") res.end("main");
    else void pagesThread.handle(req, res, `request-${++lastRequestId}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
});

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A request by node:http, which sends any header (fetch refuses a connection's own, as keep-alive). */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { method, headers }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.once("error", reject);
    request.end(body);
  });
}

test("the thread gets the request as it came, with the address and id this thread vouches for, and its answer comes back", async () => {
  const response = await rawRequest(
    "POST",
    "/echo?q=1",
    {
      "content-type": "application/json",
      // What a client might send to choose its address or id: replaced, not passed on.
      [CLIENT_IP_HEADER]: "203.0.113.9",
      [REQUEST_ID_HEADER]: "chosen-by-the-client",
      // One connection's, not the request's.
      "keep-alive": "timeout=600",
      "proxy-connection": "keep-alive",
    },
    JSON.stringify({ name: "Guildhall" }),
  );
  expect(response.status).toBe(201);
  expect(response.headers["set-cookie"]).toEqual(["from=thread; Path=/"]);
  const echo = JSON.parse(response.body) as Echo;
  expect(echo.method).toBe("POST");
  expect(echo.url).toBe("/echo?q=1");
  expect(echo.body).toBe('{"name":"Guildhall"}');
  expect(echo.headers["content-type"]).toBe("application/json");
  expect(echo.headers[CLIENT_IP_HEADER]).toBe("127.0.0.1");
  expect(echo.headers[REQUEST_ID_HEADER]).toBe(`request-${lastRequestId}`);
  expect(echo.headers["keep-alive"]).toBeUndefined();
  expect(echo.headers["proxy-connection"]).toBeUndefined();
});

test("a stream's first event arrives while it is open, and a client that leaves closes it in the thread", async () => {
  const closedBefore = Number(await (await fetch(`${baseUrl}/streams-closed`)).text());
  const leave = new AbortController();
  const response = await fetch(`${baseUrl}/stream`, { signal: leave.signal });
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const reader = response.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
  leave.abort();
  await expect
    .poll(async () => Number(await (await fetch(`${baseUrl}/streams-closed`)).text()), { timeout: 5_000 })
    .toBe(closedBefore + 1);
});

test("the main thread answers while the dashboard's thread is held by a long render", async () => {
  const held = fetch(`${baseUrl}/busy?ms=1500`).then((response) => response.text());
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = performance.now();
  expect(await (await fetch(`${baseUrl}/main`)).text()).toBe("main");
  expect(performance.now() - started).toBeLessThan(500);
  expect(await held).toBe("done");
});

test('GET /metrics has the thread\'s Node figures labelled thread="pages", and leaves out a thread that does not answer in 2 s', async () => {
  const merged = await (await fetch(`${baseUrl}/metrics`)).text();
  expect(merged).toMatch(/^nodejs_heap_size_used_bytes \d/m);
  expect(merged).toMatch(/^nodejs_heap_size_used_bytes\{thread="pages"\} \d/m);
  // The process's own figures once, from this thread.
  expect(merged.match(/^process_resident_memory_bytes/gm)).toHaveLength(1);

  const held = fetch(`${baseUrl}/busy?ms=4000`);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = performance.now();
  const withoutThread = await (await fetch(`${baseUrl}/metrics`)).text();
  expect(performance.now() - started).toBeLessThan(3_000);
  expect(withoutThread).toMatch(/^nodejs_heap_size_used_bytes \d/m);
  expect(withoutThread).not.toContain('thread="pages"');
  await held;
});

test("the socket is in a directory only this user may open", () => {
  const directory = path.dirname(pagesThread.socketPath);
  expect(fs.statSync(directory).mode & 0o777).toBe(0o700);
  expect(fs.statSync(pagesThread.socketPath).isSocket()).toBe(true);
});

test.each(["/exit", "/throw"])(
  "a thread that dies (%s) is started again, and pages answer as before",
  async (death) => {
    const logged: unknown[] = [];
    const stopTap = tapLogs((line) => logged.push(line.msg));
    await fetch(`${baseUrl}${death}`).catch(() => undefined);
    const statuses: number[] = [];
    await expect
      .poll(
        async () => {
          const { status } = await fetch(`${baseUrl}/echo`);
          statuses.push(status);
          return status;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(201);
    // Nothing but the restart's 502 (a request that met the closing socket) or 503 before it answered again.
    expect(statuses.filter((status) => status !== 201 && status !== 502 && status !== 503)).toEqual([]);
    stopTap();
    expect(logged).toContain("the dashboard's thread stopped; starting it again");
  },
);

test("close ends the thread and removes the socket's directory", async () => {
  const directory = path.dirname(pagesThread.socketPath);
  await pagesThread.close();
  expect(fs.existsSync(directory)).toBe(false);
  expect((await fetch(`${baseUrl}/main`)).status).toBe(200);
});
