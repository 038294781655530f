// The dashboard server's one gateway connection: a plain `ws` client speaking the public gateway protocol (HELLO,
// heartbeats and their ACKs, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION), so it works against the built-in API and
// against Discord alike. It never imports the built-in API. A dropped socket is resumed at READY's
// resume_gateway_url with the last sequence number, so no dispatch is lost; a session the gateway will not resume is
// identified again. Dispatches are handed to `onDispatch` in the order the gateway numbered them.
import "server-only";
import WebSocket from "ws";
import { GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes } from "discord-api-types/v10";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("live");

export interface LiveGatewayOptions {
  /** A bot token (sent bare), or a user's access token with Guildhall's management scope ("Bearer …"). */
  token: string;
  intents: number;
  /** Where to connect first (Get Gateway Bot's url); asked again before each fresh IDENTIFY. */
  gatewayUrl: () => Promise<string>;
  onDispatch: (type: string, data: unknown) => void;
  /** Every change of what the connection can deliver: ready (with the guilds it follows) or not. */
  onStatus?: (status: LiveGatewayStatus) => void;
  log?: (line: string) => void;
  /** Reconnect delays grow from this to `maxBackoffMs` (doubling) while attempts fail. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export type LiveGatewayStatus =
  | { state: "connecting" }
  | { state: "ready"; guildIds: ReadonlySet<string> }
  /** The gateway refused the credentials or the intents for good: no more attempts. */
  | { state: "failed"; reason: string };

interface GatewayPayload {
  op: number;
  d: unknown;
  s?: number | null;
  t?: string | null;
}

/** Close codes after which reconnecting cannot help (Discord's table: authentication, sharding, intents, version). */
const FATAL_CLOSE_CODES = new Set<number>([
  GatewayCloseCodes.AuthenticationFailed,
  GatewayCloseCodes.InvalidShard,
  GatewayCloseCodes.ShardingRequired,
  GatewayCloseCodes.InvalidAPIVersion,
  GatewayCloseCodes.InvalidIntents,
]);
/** Close codes after which the session is gone: reconnect and IDENTIFY afresh. */
const SESSION_ENDING_CLOSE_CODES = new Set<number>([GatewayCloseCodes.InvalidSeq, GatewayCloseCodes.SessionTimedOut]);
/** Intents the application must have switched on (Discord closes with 4014 otherwise). */
const PRIVILEGED_INTENTS =
  GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;
/** Our own close when we drop a socket to resume (4000 keeps the session resumable; 1000 would end it on Discord). */
const RESUME_CLOSE_CODE = 4000;

export class LiveGatewayClient {
  private socket: WebSocket | null = null;
  private intents: number;
  private sessionId: string | null = null;
  private ownUserId: string | null = null;
  private resumeUrl: string | null = null;
  private seq: number | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private acked = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private backoffMs: number;
  private stopped = false;
  private readonly guildIds = new Set<string>();
  private readonly log: (line: string) => void;

  constructor(private readonly options: LiveGatewayOptions) {
    this.intents = options.intents;
    this.backoffMs = options.minBackoffMs ?? 1_000;
    this.log = options.log ?? ((line) => log.warn(line));
  }

  /** Whether the session is established (READY or RESUMED seen on the current socket). */
  ready = false;

  /** The guilds the connection follows (READY's list, then GUILD_CREATE and GUILD_DELETE). */
  get guilds(): ReadonlySet<string> {
    return this.guildIds;
  }

  /** Whom the connection identified as (READY's user). */
  get userId(): string | null {
    return this.ownUserId;
  }

  /** The session's last sequence number, for tests and diagnostics. */
  get sequence(): number | null {
    return this.seq;
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopHeartbeat();
    this.socket?.close(1000, "Dashboard stopping.");
    this.socket = null;
  }

  /** Drops the socket as a network failure would; the client resumes (tests, and a zombie connection). */
  dropConnection(): void {
    this.socket?.terminate();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.options.onStatus?.({ state: "connecting" });
    let base: string;
    try {
      base = this.sessionId && this.resumeUrl ? this.resumeUrl : await this.options.gatewayUrl();
    } catch (error) {
      this.log(`cannot find the gateway: ${(error as Error).message}`);
      return this.scheduleReconnect();
    }
    if (this.stopped) return;
    const url = new URL(base);
    url.searchParams.set("v", "10");
    url.searchParams.set("encoding", "json");
    const socket = new WebSocket(url, { perMessageDeflate: false });
    this.socket = socket;
    socket.on("message", (data: WebSocket.RawData) => {
      if (this.socket !== socket) return;
      try {
        this.handle(JSON.parse(data.toString()) as GatewayPayload);
      } catch (error) {
        this.log(`unreadable gateway payload: ${(error as Error).message}`);
      }
    });
    socket.on("close", (code: number) => {
      if (this.socket !== socket) return;
      this.onClose(code);
    });
    // "close" follows every error; the error itself only needs saying.
    socket.on("error", (error: Error) => this.log(`gateway socket error: ${error.message}`));
  }

  private handle(payload: GatewayPayload): void {
    switch (payload.op) {
      case GatewayOpcodes.Hello:
        return this.hello((payload.d as { heartbeat_interval: number }).heartbeat_interval);
      case GatewayOpcodes.HeartbeatAck:
        this.acked = true;
        return;
      case GatewayOpcodes.Heartbeat:
        return this.beat();
      case GatewayOpcodes.Reconnect:
        // The gateway asks us to come back (it is restarting): resume on a new socket.
        return this.socket?.close(RESUME_CLOSE_CODE, "Reconnect requested.");
      case GatewayOpcodes.InvalidSession:
        if (payload.d !== true) this.forgetSession();
        // Discord asks for a wait of 1–5 s before the next IDENTIFY.
        this.socket?.removeAllListeners("close");
        this.socket?.terminate();
        this.socket = null;
        this.ready = false;
        this.stopHeartbeat();
        this.reconnectTimer = setTimeout(() => void this.connect(), 1_000 + Math.random() * 4_000);
        return;
      case GatewayOpcodes.Dispatch:
        return this.dispatch(payload);
    }
  }

  private hello(intervalMs: number): void {
    this.stopHeartbeat();
    this.acked = true;
    // The first beat after a random part of the interval, as Discord asks, so reconnecting clients spread out.
    this.heartbeat = setTimeout(() => {
      this.beat();
      this.heartbeat = setInterval(() => this.beat(), intervalMs);
    }, Math.random() * intervalMs);
    if (this.sessionId) {
      this.send({
        op: GatewayOpcodes.Resume,
        d: { token: this.options.token, session_id: this.sessionId, seq: this.seq ?? 0 },
      });
    } else {
      this.send({
        op: GatewayOpcodes.Identify,
        d: {
          token: this.options.token,
          intents: this.intents,
          properties: { os: process.platform, browser: "guildhall-dashboard", device: "guildhall-dashboard" },
        },
      });
    }
  }

  /** A heartbeat; when the last one was never acknowledged the connection is a zombie: drop it and resume. */
  private beat(): void {
    if (!this.acked) {
      this.log("no heartbeat ACK: dropping the connection to resume");
      this.socket?.terminate();
      return;
    }
    this.acked = false;
    this.send({ op: GatewayOpcodes.Heartbeat, d: this.seq });
  }

  private dispatch(payload: GatewayPayload): void {
    if (typeof payload.s === "number") this.seq = payload.s;
    const type = payload.t ?? "";
    const data = payload.d as Record<string, unknown> | null;
    if (type === "READY") {
      const ready = data as {
        session_id: string;
        resume_gateway_url?: string;
        user: { id: string };
        guilds: Array<{ id: string }>;
      };
      this.sessionId = ready.session_id;
      this.ownUserId = ready.user.id;
      this.resumeUrl = ready.resume_gateway_url ?? null;
      this.guildIds.clear();
      for (const guild of ready.guilds) this.guildIds.add(guild.id);
      this.established();
    } else if (type === "RESUMED") {
      this.established();
    } else if (type === "GUILD_CREATE" && data) {
      if (!this.guildIds.has(String(data.id))) {
        this.guildIds.add(String(data.id));
        this.options.onStatus?.({ state: "ready", guildIds: this.guildIds });
      }
    } else if (type === "GUILD_DELETE" && data && data.unavailable !== true) {
      this.guildIds.delete(String(data.id));
      this.options.onStatus?.({ state: "ready", guildIds: this.guildIds });
    }
    try {
      this.options.onDispatch(type, data);
    } catch (error) {
      this.log(`a dispatch handler threw on ${type}: ${(error as Error).message}`);
    }
  }

  private established(): void {
    this.ready = true;
    this.backoffMs = this.options.minBackoffMs ?? 1_000;
    this.options.onStatus?.({ state: "ready", guildIds: this.guildIds });
  }

  private onClose(code: number): void {
    this.socket = null;
    this.ready = false;
    this.stopHeartbeat();
    if (this.stopped) return;
    if (code === GatewayCloseCodes.DisallowedIntents && this.intents & PRIVILEGED_INTENTS) {
      // The application has not switched the privileged intents on: follow what it may see without them.
      this.log("privileged intents are not enabled for the application: following guilds without member events");
      this.intents &= ~PRIVILEGED_INTENTS;
      this.forgetSession();
      return this.scheduleReconnect();
    }
    if (FATAL_CLOSE_CODES.has(code) || code === GatewayCloseCodes.DisallowedIntents) {
      const reason = `the gateway closed the connection with ${code}; live updates are off`;
      this.log(reason);
      this.stopped = true;
      this.options.onStatus?.({ state: "failed", reason });
      return;
    }
    if (SESSION_ENDING_CLOSE_CODES.has(code)) this.forgetSession();
    this.scheduleReconnect();
  }

  private forgetSession(): void {
    this.sessionId = null;
    this.resumeUrl = null;
    this.seq = null;
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs ?? 30_000);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) {
      clearTimeout(this.heartbeat);
      clearInterval(this.heartbeat);
    }
    this.heartbeat = null;
  }

  private send(payload: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(payload));
  }
}
