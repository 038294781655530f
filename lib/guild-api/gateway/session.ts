// A gateway session: who identified, with which intents and shard, the guilds it follows, its sequence, and what it
// needs to RESUME. State only: the hub decides what it receives, the connection carries it.
import { randomBytes } from "node:crypto";
import type { GatewayConnection } from "./connection";
import { dispatchFrame, type SerializedDispatch } from "./frames";

export { dispatchFrame };

export interface SessionIdentity {
  userId: bigint;
  applicationId: bigint;
  kind: "bot" | "bearer";
}

/**
 * A sent dispatch as RESUME sends it again: the outbox position it came from (the frame is rebuilt from the outbox),
 * the guild of a GUILD_CREATE or GUILD_DELETE the gateway composed (rebuilt from the current state: a frame kept
 * per session would cost kilobytes each), a member chunk's data as sent (it answers a request, so nothing else
 * holds it; kept within CHUNK_REPLAY_BYTES per session), or null for what is not replayed (READY, RESUMED).
 */
export type ReplayEntry = number | { guildCreate: bigint } | { guildDelete: bigint } | { chunk: string } | null;

/**
 * Member chunks a session keeps for RESUME, in bytes of JSON (a chunk of 1,000 members is about 150 KB). Past it the
 * oldest kept dispatches are dropped up to the chunk that overflowed: a RESUME from before then starts a new session
 * (INVALID_SESSION), as Discord answers when its buffer is gone.
 */
export const CHUNK_REPLAY_BYTES = 4 * 1024 * 1024;

const chunkBytes = (entry: ReplayEntry) =>
  entry !== null && typeof entry === "object" && "chunk" in entry ? entry.chunk.length : 0;

export class GatewaySession {
  readonly id = randomBytes(16).toString("hex");
  /** The last sequence number sent. */
  seq = 0;
  /** Replay entries for sequences firstReplaySeq … seq, oldest first. */
  private replay: ReplayEntry[] = [];
  private firstReplaySeq = 1;
  /** Bytes of member chunks among the kept entries. */
  private keptChunkBytes = 0;
  /** How far past replayLimit this session's replay grows before it is cut back (a quarter to a half of it). */
  private readonly replaySlack: number;
  /** Set when the session is forgotten (closed for good, or its resume window passed): its work stops. */
  ended = false;
  /** The live connection, or null while the session waits to be resumed. */
  connection: GatewayConnection | null = null;
  /** While detached: when it dropped, and the outbox position it had been delivered up to. */
  detachedAt = 0;
  detachedCursor = 0;
  /** The outbox position of the newest dispatch sent (or kept, while detached) from the outbox. */
  lastOutboxPosition = 0;

  constructor(
    readonly identity: SessionIdentity,
    readonly intents: number,
    readonly shard: readonly [number, number],
    readonly largeThreshold: number,
    /** Guilds of this shard the user is a member of; kept current by the hub's membership events. */
    readonly guildIds: Set<bigint>,
    private readonly replayLimit: number,
  ) {
    this.replaySlack = Math.floor(replayLimit * (0.25 + Math.random() * 0.25));
  }

  get userId(): bigint {
    return this.identity.userId;
  }

  has(intent: number): boolean {
    return (this.intents & intent) === intent;
  }

  /** Sends a dispatch with the next sequence number, and keeps what RESUME needs to send it again. */
  dispatch(type: string, dataJson: string, replay: ReplayEntry): void {
    this.seq++;
    this.keep(replay);
    this.connection?.send(dispatchFrame(type, this.seq, dataJson));
  }

  /** The same for an event serialized once for all its recipients. */
  dispatchSerialized(dispatch: SerializedDispatch, replay: ReplayEntry): void {
    this.seq++;
    this.keep(replay);
    this.connection?.sendDispatch(dispatch, this.seq);
  }

  private keep(entry: ReplayEntry): void {
    if (typeof entry === "number") this.lastOutboxPosition = entry;
    this.replay.push(entry);
    this.keptChunkBytes += chunkBytes(entry);
    if (this.replay.length > this.replayLimit + this.replaySlack) {
      // Down to the last replayLimit at once, past a slack of this session's own: a shift per dispatch would copy the
      // whole array each time, and with one threshold for all, every session of a fan-out would copy at the same
      // dispatch (1,000 sessions: millions of entries in one turn of the event loop).
      this.dropOldest(this.replay.length - this.replayLimit);
    }
    if (this.keptChunkBytes > CHUNK_REPLAY_BYTES) {
      let drop = 0;
      for (let bytes = this.keptChunkBytes; bytes > CHUNK_REPLAY_BYTES; drop++) bytes -= chunkBytes(this.replay[drop]);
      this.dropOldest(drop);
    }
  }

  private dropOldest(count: number): void {
    for (let i = 0; i < count; i++) this.keptChunkBytes -= chunkBytes(this.replay[i]);
    this.replay = this.replay.slice(count);
    this.firstReplaySeq += count;
  }

  /** Whether a RESUME from `seq` can be served: every later dispatch is still kept. */
  canReplayFrom(seq: number): boolean {
    return seq <= this.seq && seq >= this.firstReplaySeq - 1;
  }

  /** The kept entries after `seq`, each with its sequence number. */
  replayAfter(seq: number): Array<{ seq: number; entry: ReplayEntry }> {
    const from = Math.max(0, seq + 1 - this.firstReplaySeq);
    return this.replay.slice(from).map((entry, i) => ({ seq: this.firstReplaySeq + from + i, entry }));
  }

  detach(cursor: number, now = Date.now()): void {
    this.connection = null;
    this.detachedAt = now;
    this.detachedCursor = cursor;
  }
}
