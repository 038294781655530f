// Finding 7 (unidentified gateway sockets): a socket that has not identified costs no zlib context (HELLO, heartbeat
// ACKs and INVALID_SESSION are compressed once for every connection; the connection's own deflater comes with READY
// or RESUMED); unidentified sockets are capped per address (the upgrade answered 429) and in all (the oldest closed
// with 4009 to make room); one that does not identify in time is closed with 4009 and let go even if it never
// answers the close; one that identifies just before the deadline is not closed; every slot comes back when its
// socket closes or identifies; and after a burst of closes V8 is asked once for a full collection.
import net from "node:net";
import zlib from "node:zlib";
import { GatewayIntentBits as I } from "discord-api-types/v10";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { gatewayAddressKey } from "@/lib/guild-api/gateway/limits";
import { CollectionAfterBurst } from "@/lib/guild-api/gateway/memory";
import { RawGatewayClient } from "../integration/api/gateway-client";
import { startTestServer, type TestServer } from "../integration/harness";

const PER_ADDRESS = 4;
const TOTAL = 6;
/** HELLO's interval; a connection that has not identified 1.5 intervals after it opened is closed (3 s). */
const HEARTBEAT_MS = 2_000;
const IDENTIFY_DEADLINE_MS = HEARTBEAT_MS * 1.5;

let server: TestServer;
let gatewayUrl: string;
const opened: Array<{ close(): void }> = [];

beforeAll(async () => {
  server = await startTestServer({
    gateway: {
      heartbeatIntervalMs: HEARTBEAT_MS,
      sweepIntervalMs: 50,
      // The bot identifies in several tests, each right after the other.
      identifyIntervalMs: 0,
      sessionStartLimit: 1_000,
      maxUnidentifiedPerAddress: PER_ADDRESS,
      maxUnidentified: TOTAL,
    } as never,
  });
  gatewayUrl = `${server.baseUrl.replace(/^http/, "ws")}/gateway`;
});
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.close();
  // The server sees each close in its next turns; the next test starts with every slot free.
  await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(() => server?.close());

type Attempt = { socket: WebSocket; status: 101 } | { status: number; retryAfter: string | null };

/** Opens a gateway socket from `localAddress` (any 127.x.y.z): the open socket, or the HTTP status it was refused with. */
function attempt(localAddress: string, query = "v=10&encoding=json"): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${gatewayUrl}?${query}`, { localAddress, perMessageDeflate: false });
    socket.once("open", () => {
      opened.push({ close: () => socket.terminate() });
      resolve({ socket, status: 101 });
    });
    socket.once("unexpected-response", (_req, res) => {
      resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] ?? null });
      res.resume();
      socket.terminate();
    });
    socket.once("error", reject);
  });
}

async function open(localAddress: string): Promise<WebSocket> {
  const result = await attempt(localAddress);
  if (result.status !== 101) throw new Error(`refused with ${result.status}`);
  return (result as { socket: WebSocket }).socket;
}

const closedWith = (socket: WebSocket) =>
  new Promise<number>((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) resolve(-1);
    socket.once("close", (code) => resolve(code));
  });

async function client(options?: { heartbeat?: boolean }, query?: string): Promise<RawGatewayClient> {
  const connected = await RawGatewayClient.connect(server.baseUrl.replace(/^http/, "ws"), query, options);
  opened.push(connected);
  return connected;
}

describe("memory before IDENTIFY", () => {
  it("a compress=zlib-stream socket gets no zlib context of its own until it identifies", async () => {
    const created = [vi.spyOn(zlib, "createDeflate"), vi.spyOn(zlib, "createDeflateRaw")];
    const deflaters = () => created.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    try {
      const query = "v=10&encoding=json&compress=zlib-stream";
      const sockets = await Promise.all(Array.from({ length: PER_ADDRESS }, () => client({ heartbeat: false }, query)));
      for (const socket of sockets) {
        // HELLO and a heartbeat's ACK arrive compressed, and inflate with the client's one zlib context.
        expect((await socket.next((p) => p.op === 10)).d.heartbeat_interval).toBe(HEARTBEAT_MS);
        socket.send(1, null);
        expect(await socket.next()).toEqual({ op: 11 });
      }
      expect(sockets.every((socket) => socket.binaryFrames === 2)).toBe(true);
      expect(deflaters()).toBe(0);

      // IDENTIFY: READY and GUILD_CREATE come from the connection's own context, in the same stream after HELLO.
      sockets[0].send(2, { token: server.botToken, intents: I.Guilds, properties: {} });
      const ready = await sockets[0].dispatch("READY");
      expect(ready.d.guilds.length).toBeGreaterThan(0);
      expect((await sockets[0].dispatch("GUILD_CREATE")).d.id).toBe(ready.d.guilds[0].id);
      expect(deflaters()).toBe(1);
      // A heartbeat after READY still inflates in order with the rest.
      sockets[0].send(1, sockets[0].seq);
      expect(await sockets[0].next((p) => p.op === 11)).toEqual({ op: 11 });
    } finally {
      for (const spy of created) spy.mockRestore();
    }
  });
});

describe("caps on unidentified sockets", () => {
  it("per address: past the cap the upgrade is refused with 429 and a Retry-After; other addresses go on", async () => {
    for (let i = 0; i < PER_ADDRESS; i++) await open("127.0.0.2");
    const refused = await attempt("127.0.0.2");
    expect(refused.status).toBe(429);
    expect(Number((refused as { retryAfter: string }).retryAfter)).toBeGreaterThan(0);
    expect((await attempt("127.0.0.3")).status).toBe(101);
  });

  it("in all: past the total the oldest unidentified socket is closed with 4009 to make room", async () => {
    const sockets: WebSocket[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) sockets.push(await open("127.0.0.4"));
    for (let i = PER_ADDRESS; i < TOTAL; i++) sockets.push(await open("127.0.0.5"));
    const oldest = closedWith(sockets[0]);
    // A flood from many addresses cannot keep others out: the newcomer is let in, the longest waiting goes.
    expect((await attempt("127.0.0.6")).status).toBe(101);
    expect(await oldest).toBe(4009);
    expect(sockets.slice(1).every((socket) => socket.readyState === WebSocket.OPEN)).toBe(true);
  });

  it("identifying frees the slot: identified sockets are not counted", async () => {
    const sockets = await Promise.all(Array.from({ length: PER_ADDRESS }, () => client()));
    expect((await attempt("127.0.0.1")).status).toBe(429);
    await sockets[0].identify(server.botToken, I.Guilds);
    expect((await attempt("127.0.0.1")).status).toBe(101);
  });

  it("closing frees the slot, and every slot comes back once all are closed", async () => {
    const first = await Promise.all(Array.from({ length: PER_ADDRESS }, () => open("127.0.0.7")));
    expect((await attempt("127.0.0.7")).status).toBe(429);
    first[0].close(1000);
    await closedWith(first[0]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await attempt("127.0.0.7")).status).toBe(101);
    for (const socket of opened.splice(0)) socket.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Nothing is left behind: the whole total is free again, up to each address's cap.
    for (let i = 0; i < TOTAL; i++)
      expect((await attempt(`127.0.1.${1 + Math.floor(i / PER_ADDRESS)}`)).status).toBe(101);
  });

  it("IPv6 addresses share a cap per /64; IPv4-mapped addresses count as IPv4", () => {
    expect(gatewayAddressKey("::ffff:127.0.0.2")).toBe(gatewayAddressKey("127.0.0.2"));
    expect(gatewayAddressKey("2001:db8:1:2::1")).toBe(gatewayAddressKey("2001:db8:1:2:ffff:1:2:3"));
    expect(gatewayAddressKey("2001:db8:1:2::1")).not.toBe(gatewayAddressKey("2001:db8:1:3::1"));
    expect(gatewayAddressKey("203.0.113.1")).not.toBe(gatewayAddressKey("203.0.113.2"));
  });
});

describe("memory after close", () => {
  it("once a burst of closes is over, one full collection is asked for; small bursts and repeats wait", () => {
    vi.useFakeTimers();
    try {
      let collections = 0;
      const burst = new CollectionAfterBurst({ minClosed: 100, quietMs: 1_000, minIntervalMs: 60_000 }, () => {
        collections++;
      });
      for (let i = 0; i < 99; i++) burst.released();
      vi.advanceTimersByTime(5_000);
      expect(collections).toBe(0);
      // The 100th: a burst, collected once the closes have been quiet for a second, not before.
      burst.released();
      vi.advanceTimersByTime(900);
      burst.released();
      vi.advanceTimersByTime(900);
      expect(collections).toBe(0);
      vi.advanceTimersByTime(200);
      expect(collections).toBe(1);
      // Another burst right after waits for the interval.
      for (let i = 0; i < 100; i++) burst.released();
      vi.advanceTimersByTime(30_000);
      expect(collections).toBe(1);
      vi.advanceTimersByTime(31_000);
      expect(collections).toBe(2);
      // Sessions forgotten by the sweep count by the hundred; a sweep that forgot none starts nothing.
      burst.released(0);
      vi.advanceTimersByTime(61_000);
      expect(collections).toBe(2);
      burst.released(100);
      vi.advanceTimersByTime(1_000);
      expect(collections).toBe(3);
      burst.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the identify deadline", () => {
  it("a socket that never identifies is closed with 4009, and dropped even if it never answers the close", async () => {
    // A raw TCP client: it upgrades, then never answers anything, its close frame included.
    const raw = net.connect({
      port: Number(new URL(server.baseUrl).port),
      host: "127.0.0.1",
      localAddress: "127.0.0.8",
    });
    opened.push({ close: () => raw.destroy() });
    raw.write(
      "GET /gateway?v=10&encoding=json HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    );
    const received: Buffer[] = [];
    raw.on("data", (chunk: Buffer) => received.push(chunk));
    const started = Date.now();
    const ended = new Promise<number>((resolve) => raw.once("close", () => resolve(Date.now() - started)));
    raw.on("error", () => undefined);
    // The close frame (4009) came, then the server let go of the socket without waiting for ws's 30 s.
    const after = await Promise.race([ended, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 15_000))]);
    expect(after).toBeGreaterThanOrEqual(IDENTIFY_DEADLINE_MS - 100);
    expect(after).toBeLessThan(IDENTIFY_DEADLINE_MS + 8_000);
    const bytes = Buffer.concat(received);
    expect(bytes.toString("latin1")).toContain("101 Switching Protocols");
    const closeFrame = bytes.subarray(bytes.lastIndexOf(0x88));
    expect(closeFrame.readUInt16BE(2)).toBe(4009);
  }, 20_000);

  it("a socket that identifies just before the deadline is not closed as unidentified", async () => {
    const late = await client({ heartbeat: false });
    await late.next((p) => p.op === 10);
    // A client waiting for its identify turn (as @discordjs/ws does) beats meanwhile, then identifies late.
    late.send(1, null);
    await new Promise((resolve) => setTimeout(resolve, IDENTIFY_DEADLINE_MS - 900));
    late.send(1, null);
    late.send(2, { token: server.botToken, intents: I.Guilds, properties: {} });
    await late.dispatch("READY");
    // Past the deadline, before its next heartbeat is due: still open.
    await new Promise((resolve) => setTimeout(resolve, 1_400));
    expect(late.socket.readyState).toBe(WebSocket.OPEN);
  }, 15_000);
});
