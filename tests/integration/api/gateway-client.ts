// A raw gateway client for protocol tests: a `ws` socket, zlib-stream inflated as discord.py does it (one context per
// connection, a payload complete at each 00 00 ff ff), every payload kept in order, and waits on what comes next.
import zlib from "node:zlib";
import WebSocket from "ws";

export interface GatewayPayload {
  op: number;
  d: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- payloads are checked field by field in tests
  s?: number | null;
  t?: string | null;
}

const SYNC_FLUSH_SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

export class RawGatewayClient {
  /** Every payload received, in order. */
  readonly received: GatewayPayload[] = [];
  /** Compressed frames received (zlib-stream only). */
  binaryFrames = 0;
  readonly closed: Promise<{ code: number; reason: string }>;
  private readIndex = 0;
  private wakeUp: (() => void) | null = null;
  private inflate: zlib.Inflate | null = null;
  private pending: Buffer[] = [];
  private inflated: Buffer[] = [];
  private inflating = Promise.resolve();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private autoHeartbeat = true;
  /** The last sequence number received, sent with heartbeats. */
  seq: number | null = null;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.notify();
      }),
    );
  }

  /**
   * Connects to `${wsBase}/gateway?` + `query` and waits for the socket to open. With `heartbeat`, it beats at HELLO's
   * interval as a well-behaved client does.
   */
  static async connect(
    wsBase: string,
    query = "v=10&encoding=json",
    { heartbeat = true } = {},
  ): Promise<RawGatewayClient> {
    const socket = new WebSocket(`${wsBase}/gateway?${query}`);
    const client = new RawGatewayClient(socket);
    if (query.includes("compress=zlib-stream")) {
      client.inflate = zlib.createInflate();
      client.inflate.on("readable", () => client.readInflated());
    }
    socket.on("message", (data: Buffer, isBinary) => client.onMessage(data, isBinary));
    client.autoHeartbeat = heartbeat;
    socket.on("close", () => client.stopHeartbeat());
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return client;
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (!isBinary) return this.push(JSON.parse(data.toString("utf8")) as GatewayPayload);
    this.binaryFrames++;
    this.pending.push(data);
    if (data.length < 4 || !data.subarray(-4).equals(SYNC_FLUSH_SUFFIX)) return;
    const message = Buffer.concat(this.pending);
    this.pending = [];
    const inflate = this.inflate!;
    // One payload at a time through the shared context, so they come out in the order they came in.
    this.inflating = this.inflating.then(
      () =>
        new Promise<void>((resolve) => {
          inflate.write(message);
          inflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
            this.readInflated();
            const text = Buffer.concat(this.inflated).toString("utf8");
            this.inflated = [];
            this.push(JSON.parse(text) as GatewayPayload);
            resolve();
          });
        }),
    );
  }

  private readInflated(): void {
    for (let chunk: Buffer | null; (chunk = (this.inflate?.read() as Buffer | null) ?? null) !== null;)
      this.inflated.push(chunk);
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
  }

  private push(payload: GatewayPayload): void {
    if (typeof payload.s === "number") this.seq = payload.s;
    if (payload.op === 10 && this.autoHeartbeat && !this.heartbeatTimer)
      this.heartbeatTimer = setInterval(() => this.send(1, this.seq), payload.d.heartbeat_interval as number);
    this.received.push(payload);
    this.notify();
  }

  private notify(): void {
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  send(op: number, d: unknown): void {
    this.socket.send(JSON.stringify({ op, d }));
  }

  sendRaw(text: string): void {
    this.socket.send(text);
  }

  /** The next payload (after those already taken) matching `match`; payloads skipped on the way are consumed. */
  async next(match: (payload: GatewayPayload) => boolean = () => true, timeoutMs = 5_000): Promise<GatewayPayload> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.readIndex < this.received.length) {
        const payload = this.received[this.readIndex++];
        if (match(payload)) return payload;
      }
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error("the gateway closed the connection");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching payload within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** The next dispatch of `type` (optionally matching `match`). */
  dispatch(type: string, match: (d: GatewayPayload["d"]) => boolean = () => true, timeoutMs = 5_000) {
    return this.next((p) => p.op === 0 && p.t === type && match(p.d), timeoutMs);
  }

  /** Dispatches received so far and not yet taken. */
  drainDispatches(): GatewayPayload[] {
    const rest = this.received.slice(this.readIndex).filter((p) => p.op === 0);
    this.readIndex = this.received.length;
    return rest;
  }

  /** IDENTIFY and wait for READY. */
  async identify(token: string, intents: number, extra: Record<string, unknown> = {}): Promise<GatewayPayload> {
    await this.next((p) => p.op === 10);
    this.send(2, { token, intents, properties: { os: "linux", browser: "test", device: "test" }, ...extra });
    return this.dispatch("READY");
  }

  close(): void {
    this.stopHeartbeat();
    this.socket.terminate();
  }
}
