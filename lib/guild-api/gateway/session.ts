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

/** How a replay entry is held in the ring: an outbox position (≥ 1) as itself, or one of these. */
const NOT_REPLAYED = -1;
/** The entry is an object, kept in the session's side table under its sequence number. */
const IN_SIDE_TABLE = -2;
/** The ring's first size; it doubles as dispatches come, up to the replay limit. */
const FIRST_RING_SIZE = 64;

export class GatewaySession {
  readonly id = randomBytes(16).toString("hex");
  /** The last sequence number sent. */
  seq = 0;
  /**
   * Replay entries for sequences firstReplaySeq … seq, oldest first from ringStart, in a ring of numbers that stops
   * growing at the replay limit: a busy session's newest dispatch takes the oldest one's place, so keeping allocates
   * nothing once the ring is full, and the collector never scans it (a typed array's numbers are outside the heap it
   * marks). The array it replaces was cut back by copying: every busy session allocated its whole buffer (tens of
   * kilobytes) again every few minutes, and the soak's 1,000 sessions kept the collector busy with the promoted copies.
   */
  private ring = new Float64Array(0);
  private ringStart = 0;
  private kept = 0;
  /** The object entries (GUILD_CREATE, GUILD_DELETE, member chunks), by sequence number: few, next to the numbers. */
  private readonly objectEntries = new Map<number, Exclude<ReplayEntry, number | null>>();
  private firstReplaySeq = 1;
  /** Bytes of member chunks among the kept entries. */
  private keptChunkBytes = 0;
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
    // At least one kept: an empty ring has nowhere to put the newest.
    this.replayLimit = Math.max(1, replayLimit);
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
    if (this.kept === this.replayLimit) this.dropOldest(1);
    if (this.kept === this.ring.length) this.growRing();
    let held: number;
    if (entry === null) held = NOT_REPLAYED;
    else if (typeof entry === "number") held = entry;
    else {
      held = IN_SIDE_TABLE;
      this.objectEntries.set(this.seq, entry);
      this.keptChunkBytes += chunkBytes(entry);
    }
    this.ring[(this.ringStart + this.kept) % this.ring.length] = held;
    this.kept++;
    if (this.keptChunkBytes > CHUNK_REPLAY_BYTES) {
      let drop = 0;
      for (let bytes = this.keptChunkBytes; bytes > CHUNK_REPLAY_BYTES; drop++) bytes -= chunkBytes(this.entryAt(drop));
      this.dropOldest(drop);
    }
  }

  /** The kept entry `index` places after the oldest. */
  private entryAt(index: number): ReplayEntry {
    const held = this.ring[(this.ringStart + index) % this.ring.length];
    if (held === NOT_REPLAYED) return null;
    return held === IN_SIDE_TABLE ? this.objectEntries.get(this.firstReplaySeq + index)! : held;
  }

  private growRing(): void {
    const grown = new Float64Array(Math.min(this.replayLimit, Math.max(FIRST_RING_SIZE, this.ring.length * 2)));
    for (let i = 0; i < this.kept; i++) grown[i] = this.ring[(this.ringStart + i) % this.ring.length];
    this.ring = grown;
    this.ringStart = 0;
  }

  private dropOldest(count: number): void {
    if (this.objectEntries.size > 0)
      for (let i = 0; i < count; i++) {
        const seq = this.firstReplaySeq + i;
        const entry = this.objectEntries.get(seq);
        if (!entry) continue;
        this.keptChunkBytes -= chunkBytes(entry);
        this.objectEntries.delete(seq);
      }
    this.ringStart = (this.ringStart + count) % this.ring.length;
    this.kept -= count;
    this.firstReplaySeq += count;
  }

  /** Whether a RESUME from `seq` can be served: every later dispatch is still kept. */
  canReplayFrom(seq: number): boolean {
    return seq <= this.seq && seq >= this.firstReplaySeq - 1;
  }

  /** The kept entries after `seq`, each with its sequence number. */
  replayAfter(seq: number): Array<{ seq: number; entry: ReplayEntry }> {
    const kept: Array<{ seq: number; entry: ReplayEntry }> = [];
    for (let i = Math.max(0, seq + 1 - this.firstReplaySeq); i < this.kept; i++)
      kept.push({ seq: this.firstReplaySeq + i, entry: this.entryAt(i) });
    return kept;
  }

  detach(cursor: number, now = Date.now()): void {
    this.connection = null;
    this.detachedAt = now;
    this.detachedCursor = cursor;
  }
}
