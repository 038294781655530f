// One WebSocket as the gateway speaks over it: JSON text frames, or with compress=zlib-stream one zlib stream for
// the whole connection, each payload ending in a flush (00 00 ff ff), as discord.py and @discordjs/ws inflate it.
// The connection's own payloads (READY, GUILD_CREATE, ACKs after them) are compressed by its zlib context off the
// event loop, each ending in a full flush, so that no later payload refers back into an earlier one; that lets a
// fan-out's dispatches, compressed once for every recipient (SerializedDispatch.zlibFrame), sit between them in the
// same stream, and so too the payloads every connection sends alike before IDENTIFY (HELLO, HEARTBEAT_ACK,
// INVALID_SESSION), compressed once for all (sharedCompressed): a socket that never identifies holds no zlib context
// (about 80 KB of zlib state and buffers each); its own comes with its first payload of its own (READY or RESUMED).
// The send queue keeps payloads in order. While the hub
// delivers a batch of events, each connection's writes are held (its TCP socket corked) and go out together: one
// system call per connection for all the frames it got, not one per frame.
import type { Duplex } from "node:stream";
import zlib from "node:zlib";
import WebSocket from "ws";
import { nextTurn, TURN_BATCH, TurnQueue } from "./in-turns";
import { ZLIB_WINDOW_BITS, type SerializedDispatch } from "./frames";
import { CLIENT_SEND_LIMIT, CLOSE_REASONS, type CloseCode } from "./protocol";

export interface ConnectionParams {
  version: number;
  compress: boolean;
}

// A smaller window than zlib's default (32 KiB, 256 KiB of state with memLevel 8) keeps a compressed connection near
// 40 KiB; the stream header carries the window size, so any inflater reads it.
const DEFLATE_OPTIONS: zlib.ZlibOptions = { windowBits: ZLIB_WINDOW_BITS, memLevel: 6, level: 6 };

/**
 * The zlib stream header (window size and level) that opens every connection's stream, in front of its first frame.
 * What follows it is raw deflate blocks: the shared payloads', the dispatches' and the connection's own.
 */
const ZLIB_HEADER = zlib.deflateSync(Buffer.alloc(0), DEFLATE_OPTIONS).subarray(0, 2);

/** Payloads every connection sends alike, as raw deflate blocks ending in a sync flush; compressed once each. */
const SHARED_COMPRESSED = new Map<string, Buffer>();

/**
 * Makes `text` one of the payloads sent compressed from one copy for every connection (HELLO for a heartbeat
 * interval, HEARTBEAT_ACK, INVALID_SESSION): a fresh deflate stream flushed at its end, so it refers to nothing
 * before it and nothing after it refers into it.
 */
export function shareCompressed(text: string): void {
  if (!SHARED_COMPRESSED.has(text))
    SHARED_COMPRESSED.set(
      text,
      zlib.deflateRawSync(text, { ...DEFLATE_OPTIONS, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    );
}
for (const text of ['{"op":11}', '{"op":9,"d":false}', '{"op":9,"d":true}']) shareCompressed(text);

/**
 * How long a connection the server closes may take to answer the close frame before its socket is destroyed (ws
 * waits 30 s): a peer that never answers would otherwise hold its socket, and its slot, that long.
 */
export const CLOSE_HANDSHAKE_MS = 2_000;

/** Sockets whose peer did not answer the close frame in time, destroyed a batch per turn (see in-turns.ts). */
const overdueCloses = new TurnQueue<WebSocket>((socket) => {
  if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
}, TURN_BATCH);

/** A queued payload: text to compress, or deflate blocks compressed already (a fan-out's shared frame). */
type Queued = string | Buffer | { compressed: Buffer };

export class GatewayConnection {
  /** When the last heartbeat (or the HELLO) was seen: the zombie sweep closes connections silent for too long. */
  lastBeatAt = Date.now();
  /** The connection's own zlib context: none until its first payload of its own (see the top of the file). */
  private deflate: zlib.DeflateRaw | null = null;
  /** Whether the zlib stream header has gone out (in front of the first compressed frame). */
  private streamStarted = false;
  private disposed = false;
  private readonly queue: Queued[] = [];
  private held = false;
  private compressing = false;
  private compressed: Buffer[] = [];
  private sentInWindow = 0;
  private windowStartedAt = Date.now();

  constructor(
    readonly socket: WebSocket,
    readonly params: ConnectionParams,
    /** The upgraded TCP socket under `socket`, whose writes a delivery pass holds (see WriteBatch). */
    private readonly transport: Duplex | null = null,
  ) {}

  /** The zlib context, made on first use: a raw stream, as the header went out with the first frame. */
  private deflater(): zlib.DeflateRaw {
    if (this.deflate) return this.deflate;
    const deflate = zlib.createDeflateRaw(DEFLATE_OPTIONS);
    // Read as output appears: zlib pauses a payload whose output outgrows the stream's buffer until it is read.
    deflate.on("readable", () => this.drainDeflate());
    this.deflate = deflate;
    return deflate;
  }

  /** Sends compressed frames, the stream header in front of the first. */
  private sendCompressed(frame: Buffer): void {
    if (!this.open) return;
    if (this.streamStarted) return this.socket.send(frame);
    this.streamStarted = true;
    this.socket.send(Buffer.concat([ZLIB_HEADER, frame]));
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends one payload, already serialized: JSON text, or its UTF-8 bytes (still a text frame). */
  send(payload: string | Buffer): void {
    if (!this.open) return;
    if (!this.params.compress) {
      this.socket.send(payload, { binary: false });
      return;
    }
    const shared = typeof payload === "string" ? SHARED_COMPRESSED.get(payload) : undefined;
    this.enqueue(shared ? { compressed: shared } : payload);
  }

  private enqueue(payload: Queued): void {
    this.queue.push(payload);
    if (!this.compressing) this.compressNext();
  }

  /**
   * Sends a dispatch serialized for every recipient. Uncompressed, its frame is written whole to the TCP socket: one
   * buffer and one write per recipient instead of ws's header and payload as two (a fan-out to 1,000 sessions
   * spends most of its time in these writes). That is safe beside ws's own writes (pings, close) because ws queues
   * nothing without per-message deflate, which the gateway never negotiates: every frame is written whole, in order.
   */
  sendDispatch(dispatch: SerializedDispatch, seq: number): void {
    if (!this.open) return;
    if (this.params.compress) this.enqueue({ compressed: dispatch.zlibFrame(seq) });
    else if (!this.transport) this.send(dispatch.frame(seq));
    else this.transport.write(dispatch.wsFrame(seq));
  }

  sendJson(payload: unknown): void {
    this.send(JSON.stringify(payload));
  }

  private drainDeflate(): void {
    for (let chunk: Buffer | null; (chunk = (this.deflate?.read() as Buffer | null) ?? null) !== null;)
      this.compressed.push(chunk);
  }

  /**
   * Sends the queued payloads in order: one compressed already goes out at once; text is compressed with a full
   * flush, and exactly what zlib produced for it is sent: by the flush callback every byte of this payload has been
   * pushed (and read here), and the next payload is not written yet.
   */
  private compressNext(): void {
    let next = this.queue.shift();
    for (; next !== undefined && typeof next === "object" && "compressed" in next; next = this.queue.shift())
      this.sendCompressed(next.compressed);
    if (this.disposed || next === undefined) {
      this.compressing = false;
      return;
    }
    const deflate = this.deflater();
    this.compressing = true;
    deflate.write(next);
    deflate.flush(zlib.constants.Z_FULL_FLUSH, () => {
      this.drainDeflate();
      const chunks = this.compressed;
      this.compressed = [];
      if (chunks.length > 0) this.sendCompressed(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      this.compressNext();
    });
  }

  /** Holds this connection's writes until release(); false when they already are (or cannot be). */
  hold(): boolean {
    if (this.held || !this.transport || !this.open) return false;
    this.transport.cork();
    this.held = true;
    return true;
  }

  /** Writes everything held, in one system call. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    this.transport?.uncork();
  }

  /** Counts one payload from the client; false once it sends more than Discord allows per minute. */
  admitClientPayload(now = Date.now()): boolean {
    if (now - this.windowStartedAt >= CLIENT_SEND_LIMIT.windowMs) {
      this.windowStartedAt = now;
      this.sentInWindow = 0;
    }
    return ++this.sentInWindow <= CLIENT_SEND_LIMIT.payloads;
  }

  /** Closes with a gateway close code; `detail` says what was wrong, after Discord's reason text. */
  close(code: CloseCode, detail?: string): void {
    const reason = detail ? `${CLOSE_REASONS[code]} ${detail}` : CLOSE_REASONS[code];
    // A close frame's reason is at most 123 bytes.
    this.socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
    this.dispose();
    const socket = this.socket;
    if (socket.readyState !== WebSocket.CLOSED)
      setTimeout(() => {
        if (socket.readyState !== WebSocket.CLOSED) overdueCloses.push(socket);
      }, CLOSE_HANDSHAKE_MS).unref();
  }

  /** Drops the zlib context and the queue once the socket is gone (or going). */
  dispose(): void {
    this.disposed = true;
    this.queue.length = 0;
    this.compressed = [];
    this.deflate?.close();
    this.deflate = null;
  }
}

/** Connections whose writes are held during one delivery pass, released together at its end. */
export class WriteBatch {
  private readonly held: GatewayConnection[] = [];

  hold(connection: GatewayConnection): void {
    if (connection.hold()) this.held.push(connection);
  }

  release(): void {
    for (const connection of this.held) connection.release();
    this.held.length = 0;
  }

  /**
   * Releases RELEASE_BATCH connections per turn of the event loop. Each release is a system call (about 45 µs on
   * this machine, idle): one event's fan-out to 1,000 sessions released at once held the loop some 50 ms, which
   * requests arriving meanwhile waited out. Connections held again meanwhile join the end of the line.
   */
  async releaseInTurns(): Promise<void> {
    while (this.held.length > 0) {
      for (const connection of this.held.splice(0, RELEASE_BATCH)) connection.release();
      if (this.held.length > 0) await nextTurn();
    }
  }
}

/**
 * Connections released per turn of the event loop: 1.5 ms of writes when idle. Under the soak's load (bench/soak.ts)
 * a release took several times as long, and turns of 128 held the loop 20 ms and more, a hundred times in 9 minutes.
 */
export const RELEASE_BATCH = 32;
