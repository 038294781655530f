// The WebSocket endpoint at /gateway on the one HTTP server: the upgrade (v, encoding, compress), HELLO, and each
// client payload checked (size, rate, JSON, opcode, authentication) before its opcode's handler runs.
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { parseJsonBody } from "../json-body";
import { GatewayConnection } from "./connection";
import { OPCODE_HANDLERS, type Peer } from "./handlers";
import { GatewayHub } from "./hub";
import { gatewayOptions, type GatewayOptions } from "./options";
import { CLIENT_SEND_LIMIT, CloseCode, GATEWAY_VERSIONS, Op } from "./protocol";
import { GatewayPayloadSchema } from "./schemas";
import { setActiveHub } from "./registry";

export interface GatewayServer {
  hub: GatewayHub;
  /** Takes over an HTTP upgrade to /gateway. */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Where clients connect and resume: ws(s)://<public origin>/gateway. */
  setPublicOrigin(origin: string): void;
  close(): void;
}

export const GATEWAY_PATH = "/gateway";

/** The gateway URL for a public http(s) origin, as GET /gateway answers it. */
export const gatewayUrlOf = (origin: string): string =>
  `${origin.replace(/^http/, "ws").replace(/\/$/, "")}${GATEWAY_PATH}`;

export function createGatewayServer(overrides: Partial<GatewayOptions> = {}): GatewayServer {
  const options = gatewayOptions(overrides);
  const hub = new GatewayHub(options);
  // Larger than Discord's 4,096-byte limit so an oversized payload is answered with 4002, as Discord does, not 1009.
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 });
  const unidentified = new Map<GatewayConnection, number>();
  let gatewayUrl = gatewayUrlOf("http://localhost");

  const sweep = setInterval(() => {
    const now = Date.now();
    hub.sweep(now);
    const deadline = options.heartbeatIntervalMs * options.heartbeatTimeoutFactor;
    for (const [connection, openedAt] of unidentified)
      if (now - openedAt > deadline) connection.close(CloseCode.SessionTimedOut, "No IDENTIFY in time.");
  }, options.sweepIntervalMs).unref();

  const accept = (socket: WebSocket, query: URLSearchParams, transport: Duplex) => {
    const version = Number(query.get("v") ?? "10");
    const compress = query.get("compress") === "zlib-stream";
    const connection = new GatewayConnection(socket, { version, compress }, transport);
    if (!GATEWAY_VERSIONS.includes(version))
      return connection.close(CloseCode.InvalidAPIVersion, `v=${query.get("v")}`);
    const encoding = query.get("encoding") ?? "json";
    if (encoding !== "json") return connection.close(CloseCode.DecodeError, `encoding=${encoding} is not offered.`);

    const peer: Peer = { connection, session: null, gatewayUrl };
    unidentified.set(connection, Date.now());
    socket.on("message", (data, isBinary) => {
      receive(hub, peer, data, isBinary);
      if (peer.session) unidentified.delete(connection);
    });
    socket.on("close", (code) => {
      unidentified.delete(connection);
      const session = peer.session;
      if (session && session.connection === connection) {
        // A client that closes normally (1000, 1001) ends its session, as on Discord; any other drop may resume.
        if (code === 1000 || code === 1001) hub.remove(session);
        else session.detach(hub.head);
      }
      connection.dispose();
    });
    socket.on("error", () => socket.terminate());
    connection.sendJson({ op: Op.Hello, d: { heartbeat_interval: options.heartbeatIntervalMs } });
  };

  const server: GatewayServer = {
    hub,
    handleUpgrade(req, socket, head) {
      const query = new URL(req.url ?? "/", "http://gateway").searchParams;
      wss.handleUpgrade(req, socket, head, (ws) => accept(ws, query, socket));
    },
    setPublicOrigin(origin) {
      gatewayUrl = gatewayUrlOf(origin);
    },
    close() {
      clearInterval(sweep);
      hub.reconnectAll();
      hub.stop();
      for (const client of wss.clients) client.terminate();
      wss.close();
      setActiveHub(null, hub);
    },
  };
  setActiveHub(hub);
  return server;
}

function receive(hub: GatewayHub, peer: Peer, data: RawData, isBinary: boolean): void {
  const { connection } = peer;
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  if (bytes.length > CLIENT_SEND_LIMIT.maxBytes)
    return connection.close(CloseCode.DecodeError, `Payloads are at most ${CLIENT_SEND_LIMIT.maxBytes} bytes.`);
  if (!connection.admitClientPayload())
    return connection.close(CloseCode.RateLimited, `At most ${CLIENT_SEND_LIMIT.payloads} payloads a minute.`);
  let payload: { op: number; d?: unknown };
  try {
    const parsed = GatewayPayloadSchema.safeParse(parseJsonBody(bytes.toString("utf8")));
    if (!parsed.success || isBinary) throw new Error("not a gateway payload");
    payload = parsed.data;
  } catch {
    return connection.close(CloseCode.DecodeError, "Send JSON text: {op, d}.");
  }
  const handler = OPCODE_HANDLERS.get(payload.op);
  if (!handler) return connection.close(CloseCode.UnknownOpcode, `op ${payload.op}`);
  // A peer's payloads are handled one after another, each after the last one's store reads: an IDENTIFY has set up
  // its session before the next payload is looked at, as when handlers were synchronous.
  const handle = async () => {
    if (handler.needsSession && !peer.session) return connection.close(CloseCode.NotAuthenticated);
    try {
      await handler.handle(hub, peer, payload.d);
    } catch (error) {
      console.error(`[gateway] op ${payload.op} failed:`, error);
      connection.close(CloseCode.UnknownError);
    }
  };
  const next = (handling.get(peer) ?? Promise.resolve()).then(handle);
  handling.set(peer, next);
}

/** The payload each peer is being handled for: the next waits for it. */
const handling = new WeakMap<Peer, Promise<void>>();
