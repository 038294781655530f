// The WebSocket endpoint at /gateway on the one HTTP server: the upgrade (v, encoding, compress), HELLO, and each
// client payload checked (size, rate, JSON, opcode, authentication) before its opcode's handler runs. Sockets that
// have not identified yet are few and cheap: capped per address (the upgrade refused with 429) and in all (the
// oldest closed to make room), see UnidentifiedSockets; without a zlib context (connection.ts); closed with 4009
// once identifyTimeoutMs has passed without IDENTIFY or RESUME; and their memory handed back after a burst of
// closes (memory.ts).
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { clientAddress } from "@/lib/server/client-ip";
import { parseJsonBody } from "../json-body";
import { GatewayConnection, shareCompressed } from "./connection";
import { OPCODE_HANDLERS, type Peer } from "./handlers";
import { GatewayHub } from "./hub";
import { TURN_BATCH, TurnQueue } from "./in-turns";
import { gatewayAddressKey, UnidentifiedSockets, type UpgradeVerdict } from "./limits";
import { CollectionAfterBurst } from "./memory";
import { gatewayOptions, type GatewayOptions } from "./options";
import { CLIENT_SEND_LIMIT, CloseCode, GATEWAY_VERSIONS, Op } from "./protocol";
import { GatewayPayloadSchema } from "./schemas";
import { setActiveHub } from "./registry";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("gateway");

export interface GatewayServer {
  hub: GatewayHub;
  /** Takes over an HTTP upgrade to /gateway. */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Where clients connect and resume: ws(s)://<public origin>/gateway. */
  setPublicOrigin(origin: string): void;
  /** Whether new connections are taken (false once shutting down or closed): GET /readyz asks. */
  accepting(): boolean;
  /**
   * A graceful shutdown's part: no new connections, every session told to reconnect (op 7) and closed, and the wait
   * for their sockets to close, at most `timeoutMs`. close() ends what is left.
   */
  reconnectSessions(timeoutMs: number): Promise<void>;
  close(): void;
}

/** An unidentified socket's slot and when it opened; the slot is given back once it identifies or closes. */
interface Unidentified {
  openedAt: number;
  release(): void;
}

/** An upgrade to /gateway waiting for its turn (the slot it holds given back by `release`). */
interface PendingHandshake {
  req: http.IncomingMessage;
  socket: Duplex;
  head: Buffer;
  release: () => void;
}

/** About 1.5 ms of handshakes between two polls of the event loop. */
const HANDSHAKES_PER_TURN = 16;

export const GATEWAY_PATH = "/gateway";

/** The gateway URL for a public http(s) origin, as GET /gateway answers it. */
export const gatewayUrlOf = (origin: string): string =>
  `${origin.replace(/^http/, "ws").replace(/\/$/, "")}${GATEWAY_PATH}`;

export function createGatewayServer(overrides: Partial<GatewayOptions> = {}): GatewayServer {
  const options = gatewayOptions(overrides);
  const hub = new GatewayHub(options);
  // Larger than Discord's 4,096-byte limit so an oversized payload is answered with 4002, as Discord does, not 1009.
  // No permessage-deflate (zlib-stream is the gateway's compression) and no client tracking (the set below is it).
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: 64 * 1024,
    clientTracking: false,
  });
  const sockets = new Set<WebSocket>();
  const unidentifiedSockets = new UnidentifiedSockets(options);
  const unidentified = new Map<GatewayConnection, Unidentified>();
  const hello = JSON.stringify({ op: Op.Hello, d: { heartbeat_interval: options.heartbeatIntervalMs } });
  shareCompressed(hello);
  const collection = new CollectionAfterBurst();
  let gatewayUrl = gatewayUrlOf("http://localhost");

  /** A socket identified, resumed or closed: it no longer holds an unidentified slot. */
  const settle = (connection: GatewayConnection) => {
    unidentified.get(connection)?.release();
    unidentified.delete(connection);
  };

  // Upgrades are completed a few per turn of the event loop (in-turns.ts): a flood of them leaves room for requests.
  let closed = false;
  const handshakes = new TurnQueue<PendingHandshake>(({ req, socket, head, release }) => {
    if (closed) return socket.destroy();
    const query = new URL(req.url ?? "/", "http://gateway").searchParams;
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, query, socket, release));
  }, HANDSHAKES_PER_TURN);
  const lateCloses = new TurnQueue<GatewayConnection>(
    (connection) => connection.close(CloseCode.SessionTimedOut, "No IDENTIFY in time."),
    TURN_BATCH,
  );
  const sweep = setInterval(() => {
    const now = Date.now();
    // Sessions past their resume window hold their replay buffers until then: forgetting many is a burst too.
    collection.released(hub.sweep(now));
    // In the order they opened: the first one still in time ends the search.
    const late: GatewayConnection[] = [];
    for (const [connection, { openedAt }] of unidentified) {
      if (now - openedAt <= options.identifyTimeoutMs) break;
      settle(connection);
      late.push(connection);
    }
    for (const connection of late) lateCloses.push(connection);
  }, options.sweepIntervalMs).unref();

  const accept = (socket: WebSocket, query: URLSearchParams, transport: Duplex, release: () => void) => {
    sockets.add(socket);
    socket.on("error", () => socket.terminate());
    const version = Number(query.get("v") ?? "10");
    const compress = query.get("compress") === "zlib-stream";
    const connection = new GatewayConnection(socket, { version, compress }, transport);
    // IDENTIFY and RESUME set the session while they are handled: from then on (READY is on its way, before the
    // GUILD_CREATEs) the socket is no longer counted.
    const peer: Peer = { connection, session: null, gatewayUrl, sessionStarted: () => settle(connection) };
    unidentified.set(connection, { openedAt: Date.now(), release });
    socket.on("message", (data, isBinary) => receive(hub, peer, data, isBinary));
    socket.on("close", (code) => {
      sockets.delete(socket);
      settle(connection);
      collection.released();
      const session = peer.session;
      if (session && session.connection === connection) {
        // A client that closes normally (1000, 1001) ends its session, as on Discord; any other drop may resume.
        if (code === 1000 || code === 1001) hub.remove(session);
        else session.detach(hub.head);
      }
      connection.dispose();
    });
    if (!GATEWAY_VERSIONS.includes(version))
      return connection.close(CloseCode.InvalidAPIVersion, `v=${query.get("v")}`);
    const encoding = query.get("encoding") ?? "json";
    if (encoding !== "json") return connection.close(CloseCode.DecodeError, `encoding=${encoding} is not offered.`);
    connection.send(hello);
  };

  const server: GatewayServer = {
    hub,
    handleUpgrade(req, socket, head) {
      const address = gatewayAddressKey(clientAddress(req));
      const verdict = unidentifiedSockets.check(address);
      if (!verdict.ok) {
        // A refused flood leaves garbage too (its requests and sockets): it counts towards the collection.
        collection.released();
        return refuseUpgrade(socket, verdict);
      }
      // Full: the socket that has waited longest makes room (a client told 4009 reconnects and identifies).
      for (const [oldest] of unidentified) {
        if (!unidentifiedSockets.full) break;
        settle(oldest);
        oldest.close(CloseCode.SessionTimedOut, "Too many connections waiting to identify.");
      }
      // The slot is taken now, so queued handshakes count towards the caps; a socket that closes before its turn,
      // or whose handshake ws refuses, gives it back.
      const release = unidentifiedSockets.take(address);
      socket.once("close", release);
      socket.on("error", () => socket.destroy());
      handshakes.push({ req, socket, head, release });
    },
    setPublicOrigin(origin) {
      gatewayUrl = gatewayUrlOf(origin);
    },
    accepting: () => !closed,
    async reconnectSessions(timeoutMs) {
      closed = true;
      hub.reconnectAll();
      // Sockets that have not identified yet have no session to resume: they are closed as a restart closes them.
      for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.close(1012, "Server restarting.");
      const deadline = Date.now() + timeoutMs;
      while (sockets.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    close() {
      closed = true;
      clearInterval(sweep);
      collection.stop();
      hub.reconnectAll();
      hub.stop();
      for (const socket of sockets) socket.terminate();
      wss.close();
      setActiveHub(null, hub);
    },
  };
  setActiveHub(hub);
  return server;
}

/**
 * Answers an upgrade from an address past its cap as a proxy in front of the gateway would: HTTP 429 with
 * Retry-After, which clients' WebSocket libraries report as a failed connection and retry later. Nothing of ws is
 * built for it, and the connection is closed.
 */
function refuseUpgrade(socket: Duplex, verdict: Extract<UpgradeVerdict, { ok: false }>): void {
  const body = '{"message":"Too many gateway connections waiting to identify from this address.","code":0}';
  socket.on("error", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${verdict.status} Too Many Requests\r\nRetry-After: ${verdict.retryAfterSeconds}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** Checks one client payload and queues its handler. */
function receive(hub: GatewayHub, peer: Peer, data: RawData, isBinary: boolean): void {
  const { connection } = peer;
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  if (bytes.length > CLIENT_SEND_LIMIT.maxBytes) {
    connection.close(CloseCode.DecodeError, `Payloads are at most ${CLIENT_SEND_LIMIT.maxBytes} bytes.`);
    return;
  }
  if (!connection.admitClientPayload()) {
    connection.close(CloseCode.RateLimited, `At most ${CLIENT_SEND_LIMIT.payloads} payloads a minute.`);
    return;
  }
  let payload: { op: number; d?: unknown };
  try {
    const parsed = GatewayPayloadSchema.safeParse(parseJsonBody(bytes.toString("utf8")));
    if (!parsed.success || isBinary) throw new Error("not a gateway payload");
    payload = parsed.data;
  } catch {
    connection.close(CloseCode.DecodeError, "Send JSON text: {op, d}.");
    return;
  }
  const handler = OPCODE_HANDLERS.get(payload.op);
  if (!handler) {
    connection.close(CloseCode.UnknownOpcode, `op ${payload.op}`);
    return;
  }
  // A peer's payloads are handled one after another, each after the last one's store reads: an IDENTIFY has set up
  // its session before the next payload is looked at, as when handlers were synchronous.
  const handle = async () => {
    if (handler.needsSession && !peer.session) return connection.close(CloseCode.NotAuthenticated);
    try {
      await handler.handle(hub, peer, payload.d);
    } catch (error) {
      log.error({ err: error, op: payload.op }, "a gateway payload's handler failed");
      connection.close(CloseCode.UnknownError);
    }
  };
  handling.set(peer, (handling.get(peer) ?? Promise.resolve()).then(handle));
}

/** The payload each peer is being handled for: the next waits for it. */
const handling = new WeakMap<Peer, Promise<void>>();
