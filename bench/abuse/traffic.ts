// The traffic of the abuse bench, all on loopback addresses and bounded in count and time: the latency probe (a paced
// well-behaved client), and the abusers (password guessers, a 10 MB CSV upload loop, a token flooding at 1,000
// requests per second, gateway sockets that never identify). Each abuser runs until its stop signal or its own cap
// and reports what it was answered.
import http from "node:http";
import net from "node:net";
import { summarize, type LoadResult } from "../load";

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Answer {
  status: number;
  body: string;
}

function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    // A server may answer (429, 413) before the whole body is sent and close: that is an answer, not a failure.
    req.on("error", reject);
    req.end(options.body);
  });
}

/** What one abuser was answered: counts by HTTP status ("error" for broken connections). */
export type Tally = Record<string, number>;

const count = (tally: Tally, key: string | number) => {
  tally[key] = (tally[key] ?? 0) + 1;
};

export interface ProbeResult extends LoadResult {
  samples: number;
}

/**
 * `samples` GETs after 3 unmeasured ones, one every `intervalMs` (under every limit for one token), timed one by
 * one; it stops early after `maxSeconds`, since a stalled server would otherwise keep it waiting for long.
 */
export async function probe(
  url: string,
  authorization: string,
  samples: number,
  intervalMs = 40,
  maxSeconds = 30,
): Promise<ProbeResult> {
  const times: number[] = [];
  const started = performance.now();
  // Three unmeasured requests first; then each request at least `intervalMs` after the previous one started, so a
  // stall is never followed by a catch-up burst past the route's limit.
  for (let i = 0; i < samples + 3 && performance.now() - started < maxSeconds * 1000; i++) {
    const t0 = performance.now();
    const answer = await request(url, { headers: { authorization } });
    if (answer.status !== 200) throw new Error(`probe answered ${answer.status}: ${answer.body.slice(0, 120)}`);
    if (i >= 3) times.push(performance.now() - t0);
    const wait = t0 + intervalMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  if (times.length === 0) throw new Error(`no probe answer within ${maxSeconds} s`);
  return { ...summarize(times, (performance.now() - started) / 1000), samples: times.length };
}

export interface Abuser {
  tally: Tally;
  /** Stops sending and waits (at most a few seconds) for what is in flight. */
  stop(): Promise<void>;
}

function loops(workers: number, maxIterations: number, once: (tally: Tally) => Promise<void>): Abuser {
  const tally: Tally = {};
  let stopped = false;
  let iterations = 0;
  const running = Array.from({ length: workers }, async () => {
    while (!stopped && iterations++ < maxIterations) {
      try {
        await once(tally);
      } catch {
        count(tally, "error");
      }
    }
  });
  return {
    tally,
    async stop() {
      stopped = true;
      await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, 15_000))]);
    },
  };
}

/**
 * `workers` password guessers against the built-in provider's sign-in, driven as a browser without JavaScript
 * drives a Next server action: the form's hidden $ACTION_ID_ field, posted multipart to the page with its Origin.
 */
export async function passwordGuessers(
  origin: string,
  authorizeQuery: string,
  username: string,
  workers: number,
): Promise<Abuser> {
  const page = await request(`${origin}/oauth2/authorize?${authorizeQuery}`);
  const actionField = /name="(\$ACTION_ID_[^"]+)"/.exec(page.body)?.[1];
  if (!actionField) throw new Error(`no sign-in form on the authorize page (HTTP ${page.status})`);
  let attempt = 0;
  return loops(workers, 20_000, async (tally) => {
    const form = new FormData();
    form.set(actionField, "");
    form.set("query", authorizeQuery);
    form.set("username", username);
    form.set("password", `wrong-${attempt++}`);
    const encoded = new Response(form);
    const answer = await request(`${origin}/oauth2/authorize?${authorizeQuery}`, {
      method: "POST",
      headers: { "content-type": encoded.headers.get("content-type")!, origin },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    count(tally, answer.status);
  });
}

/** A CSV of about `bytes` bytes: one snowflake-sized id per line. */
export function targetUsersCsv(bytes: number): Buffer {
  const line = (i: number) => `${(1_000_000_000_000_000_000n + BigInt(i) * 4_194_304n).toString()}\n`;
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const next = line(i);
    lines.push(next);
    size += next.length;
  }
  return Buffer.from(lines.join(""));
}

/** One client uploading `csv` as Update Target Users, again and again (at most `maxUploads`). */
export function csvUploads(url: string, authorization: string, csv: Buffer, maxUploads = 40): Abuser {
  const boundary = "----guildhall-abuse-bench";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="target_users_file"; filename="users.csv"\r\n` +
        "Content-Type: text/csv\r\n\r\n",
    ),
    csv,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return loops(1, maxUploads, async (tally) => {
    const answer = await request(url, {
      method: "PUT",
      headers: { authorization, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    count(tally, answer.status);
  });
}

/**
 * One token sending `perSecond` GETs a second (in 10 ms ticks), not waiting for answers; at most `maxRequests` (the
 * default stays under the invalid-request limit, 10,000 429s per address, which would also block the probe: every
 * client here shares 127.0.0.1).
 */
export function flood(url: string, authorization: string, perSecond: number, maxRequests = 8_000): Abuser {
  const tally: Tally = {};
  const inFlight = new Set<Promise<void>>();
  const perTick = Math.max(1, Math.round(perSecond / 100));
  let sentCount = 0;
  const timer = setInterval(() => {
    if (sentCount >= maxRequests) return clearInterval(timer);
    for (let i = 0; i < perTick; i++, sentCount++) {
      const sent: Promise<void> = request(url, { headers: { authorization } }).then(
        (answer) => count(tally, answer.status),
        () => count(tally, "error"),
      );
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
    }
  }, 10);
  return {
    tally,
    async stop() {
      clearInterval(timer);
      await Promise.race([Promise.all(inFlight), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    },
  };
}

/** Gateway sockets held open without identifying: how many were upgraded, what the rest were answered. */
export interface HeldSockets {
  tally: Tally;
  open: number;
  /** Closes every held socket and waits until each is gone. */
  close(): Promise<void>;
}

/**
 * Opens `total` gateway sockets (compress=zlib-stream, as the finding measured) to 127.0.0.1:`port`, the i-th from
 * `addresses[i % addresses.length]` (loopback addresses only), at most `parallel` handshakes at once and for at most
 * `maxSeconds`. A raw TCP client: the upgrade request, then whatever comes is read and dropped and nothing is sent,
 * so the server holds each upgraded socket until its identify deadline. Answers are counted by HTTP status (101:
 * upgraded and held).
 */
export async function unidentifiedSockets(
  port: number,
  addresses: readonly string[],
  total: number,
  { parallel = 100, maxSeconds = 60 } = {},
): Promise<HeldSockets> {
  if (!addresses.every((address) => address.startsWith("127."))) throw new Error("loopback source addresses only");
  const tally: Tally = {};
  const held: net.Socket[] = [];
  const started = Date.now();
  let next = 0;
  const attempt = (localAddress: string) =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ port, host: "127.0.0.1", localAddress });
      let head = "";
      const answered = (status: string) => {
        count(tally, status);
        resolve();
      };
      socket.setTimeout(10_000, () => socket.destroy());
      socket.on("error", () => undefined);
      socket.once("close", () => {
        if (!head.includes("\r\n")) answered("error");
      });
      socket.on("data", (chunk: Buffer) => {
        if (head.includes("\r\n")) return;
        head += chunk.toString("latin1");
        if (!head.includes("\r\n")) return;
        const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? "error";
        if (status === "101") {
          socket.setTimeout(0);
          held.push(socket);
        } else socket.destroy();
        answered(status);
      });
      socket.write(
        "GET /gateway?v=10&encoding=json&compress=zlib-stream HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
          "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
          "Sec-WebSocket-Version: 13\r\n\r\n",
      );
    });
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < total && Date.now() - started < maxSeconds * 1000)
        await attempt(addresses[next++ % addresses.length]);
    }),
  );
  return {
    tally,
    open: held.length,
    async close() {
      await Promise.all(
        held.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.destroyed) return resolve();
              socket.once("close", () => resolve());
              socket.destroy();
            }),
        ),
      );
      held.length = 0;
    },
  };
}
