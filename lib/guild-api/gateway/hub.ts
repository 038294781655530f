// The hub: every session of this process, indexed by guild and by user, and the outbox reader that delivers each
// committed event to the sessions that may see it, in commit order. It wakes after this process's commits (the
// outbox signal), when another instance commits (PostgreSQL's NOTIFY), and polls for commits by other connections.
// Delivery is one drain at a time (the hub's serial queue, shared with session starts and resumes): an event reaches
// every recipient's socket before the next one is read, so no session sees two events out of order. Each event is
// serialized once for all its recipients, and each recipient's frames of one slice go out in one write. A drain
// works in slices of a few milliseconds and lets the event loop run between them, keeping its place in the queue.
import { componentLogger } from "@/lib/server/logger";
import { DispatchLog } from "./dispatch-log";
import { outsideRequest } from "@/lib/server/request-id";
import { DISPATCH_POLICIES, type DispatchPolicy } from "@/lib/discord/policies";
import { recordGatewayFanOut } from "@/lib/server/metrics";
import { dataVersion, onOtherConnectionsCommit, outsideTransaction } from "../store/db";
import { outboxAfter, outboxHead, outboxRowsAt, type OutboxRow } from "../store/gateway-outbox";
import type { GatewayDispatch } from "../events";
import { EventAudience } from "./audience";
import { WriteBatch, type GatewayConnection } from "./connection";
import { SerializedDispatch } from "./frames";
import { guildCreateJson } from "./guild-create";
import { nextTurn } from "./in-turns";
import { IdentifyLimits } from "./limits";
import { onOutboxWrite } from "./outbox-signal";
import type { GatewayOptions } from "./options";
import { CloseCode, Op, shardOf } from "./protocol";
import { dispatchFrame, type GatewaySession, type ReplayEntry } from "./session";

const log = componentLogger("gateway");

/** One outbox event as in-process subscribers receive it. */
export interface GuildEvent {
  guildId: string;
  type: GatewayDispatch;
  data: unknown;
  /** The event's outbox position: increasing in commit order. */
  position: number;
}
export type GuildEventListener = (event: GuildEvent) => void;

const BATCH = 500;

/** Recipients between two looks at the clock within one event's fan-out (see GatewayOptions.drainSliceMs). */
const RECIPIENTS_PER_CLOCK_CHECK = 128;

/** Events that add or drop the guilds a session follows (the index changes while recipients are walked). */
const MEMBERSHIP_EVENTS: ReadonlySet<GatewayDispatch> = new Set([
  "GUILD_MEMBER_ADD",
  "GUILD_MEMBER_REMOVE",
  "GUILD_DELETE",
]);

/** One outbox event on its way to its recipients, with what they share: the audience's judgements, the frame. */
interface Delivery {
  row: OutboxRow;
  /** The user a member event is about (their own joins and departures change what they follow). */
  subject: bigint | null;
  audience: EventAudience;
  dispatch: SerializedDispatch;
}

interface MemberEventData {
  user?: { id?: string };
}

export class GatewayHub {
  readonly sessions = new Map<string, GatewaySession>();
  readonly limits: IdentifyLimits;
  private readonly byGuild = new Map<bigint, Set<GatewaySession>>();
  private readonly byUser = new Map<bigint, Set<GatewaySession>>();
  private readonly subscribers = new Map<string, Set<GuildEventListener>>();
  /** Every outbox row up to here has been delivered. */
  private position = 0;
  /** When the running drain last let the event loop run (see sliceSpent). */
  private sliceStartedAt = 0;
  /** The outbox head when the hub started: rows written before it are not events for anyone connected now. */
  private readonly started: Promise<void>;
  /** The hub's serial work (drains, session starts, resumes), one at a time: rows go out once and in commit order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** A drain queued and not yet begun: later calls share it. */
  private queuedDrain: Promise<void> | null = null;
  private wakeScheduled = false;
  private dataVersion = -1n;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly writes = new WriteBatch();
  private readonly dispatchLog = new DispatchLog();
  private readonly stopSignal: () => void;

  constructor(readonly options: GatewayOptions) {
    this.limits = new IdentifyLimits(options);
    // The head is read at once (no transaction is open while the hub is built), before any event can be written.
    this.started = outboxHead().then((head) => {
      this.position = head;
    });
    // A database that fails here fails every drain after, which logs it; the process must not die of it.
    this.started.catch(() => undefined);
    const stopOwn = onOutboxWrite(() => this.wake());
    // Another instance's commits, heard at once where the database tells (PostgreSQL); the poll below otherwise.
    const stopOthers = onOtherConnectionsCommit(() => this.wake());
    this.stopSignal = () => {
      stopOwn();
      stopOthers();
    };
    this.timers.push(setInterval(() => this.pollOtherConnections(), options.pollIntervalMs).unref());
  }

  stop(): void {
    this.stopSignal();
    for (const timer of this.timers) clearInterval(timer);
  }

  get head(): number {
    return this.position;
  }

  // ── Sessions ──────────────────────────────────────────────────────────────────────────────────────────────────

  add(session: GatewaySession): void {
    this.sessions.set(session.id, session);
    indexAdd(this.byUser, session.userId, session);
    for (const guildId of session.guildIds) indexAdd(this.byGuild, guildId, session);
  }

  remove(session: GatewaySession): void {
    session.ended = true;
    this.sessions.delete(session.id);
    indexDelete(this.byUser, session.userId, session);
    for (const guildId of session.guildIds) indexDelete(this.byGuild, guildId, session);
  }

  private follow(session: GatewaySession, guildId: bigint): void {
    session.guildIds.add(guildId);
    indexAdd(this.byGuild, guildId, session);
  }

  private unfollow(session: GatewaySession, guildId: bigint): void {
    session.guildIds.delete(guildId);
    indexDelete(this.byGuild, guildId, session);
  }

  /** Sessions of `userId` (the dashboard's live view asks whether a moderator is connected). */
  sessionsOf(userId: bigint): GatewaySession[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  // ── In-process subscriptions ──────────────────────────────────────────────────────────────────────────────────

  /** Calls `listener` with every event of the guild committed from now on, in commit order. Returns unsubscribe. */
  subscribe(guildId: string, listener: GuildEventListener): () => void {
    let listeners = this.subscribers.get(guildId);
    if (!listeners) this.subscribers.set(guildId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.subscribers.delete(guildId);
    };
  }

  // ── Delivery ──────────────────────────────────────────────────────────────────────────────────────────────────

  /** Schedules a drain after the current turn of the event loop; the drain reads as an outsider (see below). */
  wake(): void {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    // Woken from inside the writing transaction: the drain must read as an outsider, after that transaction ends, and
    // as no request's work (it delivers every request's events; each row names its own).
    setImmediate(() =>
      outsideRequest(() =>
        outsideTransaction(() => {
          this.wakeScheduled = false;
          this.guarded(() => this.drain());
        }),
      ),
    );
  }

  /** Commits by other connections (the seed, the token tool, another process) move SQLite's data_version. */
  private pollOtherConnections(): void {
    this.guarded(async () => {
      const version = dataVersion();
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        await this.drain();
      }
    });
  }

  /** Work started by a timer: a failing database must be logged, not crash the process; the next wake retries. */
  private guarded(work: () => Promise<void>): void {
    work().catch((error: unknown) => log.error({ err: error }, "reading the outbox failed"));
  }

  /**
   * Runs `work` after the hub's serial work before it, and before any queued after: while it runs, no drain delivers
   * anything (a session starting or resuming sends its READY or replay with nothing slipped in between).
   */
  serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Delivers every committed outbox row not yet delivered, in a drain that begins after this call: calls while one
   * is queued share it.
   */
  drain(): Promise<void> {
    this.queuedDrain ??= this.serially(() => {
      this.queuedDrain = null;
      return this.drainNow();
    });
    return this.queuedDrain;
  }

  /** The drain itself, for work already running serially (see serially). */
  async drainNow(): Promise<void> {
    await this.started;
    this.sliceStartedAt = performance.now();
    try {
      for (;;) {
        const rows = await outboxAfter(this.position, Number.MAX_SAFE_INTEGER, BATCH);
        for (const row of rows) {
          if (this.sliceSpent()) await this.endSlice();
          const fanOutStarted = performance.now();
          try {
            await this.deliver(row);
          } catch (error) {
            // One event that cannot be delivered must not stop every later one.
            log.error({ err: error, position: row.position, dispatch: row.type }, "delivering an outbox row failed");
          }
          recordGatewayFanOut(row.type, fanOutStarted);
          this.dispatchLog.note(row);
          this.position = row.position;
        }
        this.dispatchLog.flush();
        // Out with each batch of rows: a long backlog neither waits for its end nor piles up in memory.
        await this.writes.releaseInTurns();
        if (rows.length < BATCH) return;
      }
    } finally {
      this.writes.release();
    }
  }

  /**
   * Whether the running drain has worked its slice (GatewayOptions.drainSliceMs). A bulk ban of 200 fans some 400
   * events out to every session: to 1,000 sessions that was 400,000 deliveries in one macrotask, and the API's reads
   * waited up to 1.8 s behind it.
   */
  private sliceSpent(): boolean {
    return performance.now() - this.sliceStartedAt >= this.options.drainSliceMs;
  }

  /**
   * Sends what the drain has written so far, and lets the event loop run before the drain goes on. The drain keeps
   * its place in the hub's serial queue meanwhile, so no session start or resume slips in between two events.
   */
  private async endSlice(): Promise<void> {
    await this.writes.releaseInTurns();
    await nextTurn();
    this.sliceStartedAt = performance.now();
  }

  private async deliver(row: OutboxRow): Promise<void> {
    if (row.guild_id === null) return;
    const data = JSON.parse(row.payload) as MemberEventData;
    const indexed = this.byGuild.get(row.guild_id);
    const subject = data.user?.id ? BigInt(data.user.id) : null;
    const joining = row.type === "GUILD_MEMBER_ADD" && subject !== null ? this.byUser.get(subject) : undefined;
    if (indexed || joining) {
      // Membership events change the index while it is walked: walk a copy then. A user joining a guild is not
      // indexed under it yet: their sessions learn of it from GUILD_MEMBER_ADD.
      const recipients = MEMBERSHIP_EVENTS.has(row.type) ? new Set([...(indexed ?? []), ...(joining ?? [])]) : indexed!;
      const event: Delivery = {
        row,
        subject,
        audience: new EventAudience(row.guild_id, row.type, data as object),
        dispatch: new SerializedDispatch(row.type, row.payload),
      };
      let walked = 0;
      for (const session of recipients) {
        if (++walked % RECIPIENTS_PER_CLOCK_CHECK === 0 && this.sliceSpent()) await this.endSlice();
        if (!session.connection) continue;
        this.writes.hold(session.connection);
        // Most deliveries need no wait (the audience's verdict is known): no promise for them.
        const delivered = this.deliverTo(session, event);
        if (delivered) await delivered;
      }
    }
    this.notifySubscribers(row, data);
  }

  private notifySubscribers(row: OutboxRow, data: unknown): void {
    const listeners = this.subscribers.get(String(row.guild_id));
    if (!listeners) return;
    const event: GuildEvent = { guildId: String(row.guild_id), type: row.type, data, position: row.position };
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        log.error({ err: error }, "a guild event subscriber threw");
      }
    }
  }

  /**
   * One event for one session: its own joins and departures change the guilds it follows (with GUILD_CREATE and
   * GUILD_DELETE, as Discord sends them), then the intent and the audience decide.
   */
  private deliverTo(session: GatewaySession, delivery: Delivery): Promise<void> | undefined {
    const { row, subject, audience, dispatch } = delivery;
    const guildId = row.guild_id!;
    const rule: DispatchPolicy = DISPATCH_POLICIES[row.type];
    const aboutSelf = subject === session.userId;

    if (row.type === "GUILD_MEMBER_ADD" && aboutSelf) {
      if (shardOf(guildId, session.shard[1]) !== session.shard[0] || session.guildIds.has(guildId)) return;
      this.follow(session, guildId);
      if (holdsIntent(session, DISPATCH_POLICIES.GUILD_MEMBER_ADD)) session.dispatchSerialized(dispatch, row.position);
      return this.sendGuildCreate(session, guildId);
    }
    if (!session.guildIds.has(guildId)) return;
    const leaves = (row.type === "GUILD_MEMBER_REMOVE" && aboutSelf) || row.type === "GUILD_DELETE";
    // Discord sends a member their own GUILD_MEMBER_UPDATE whatever their intents (the rule's subjectAlways).
    const intentHeld = holdsIntent(session, rule) || (aboutSelf && rule.subjectAlways === true);
    if (leaves) {
      if (row.type === "GUILD_MEMBER_REMOVE" && intentHeld) session.dispatchSerialized(dispatch, row.position);
      if (holdsIntent(session, DISPATCH_POLICIES.GUILD_DELETE)) {
        const payload = row.type === "GUILD_DELETE" ? row.payload : JSON.stringify({ id: String(guildId) });
        session.dispatch(
          "GUILD_DELETE",
          payload,
          row.type === "GUILD_DELETE" ? row.position : { guildDelete: guildId },
        );
      }
      this.unfollow(session, guildId);
      return;
    }
    if (!intentHeld) return;
    const admitted = audience.admits(session.userId);
    if (admitted === true) session.dispatchSerialized(dispatch, row.position);
    else if (admitted !== false)
      return admitted.then((yes) => {
        if (yes) session.dispatchSerialized(dispatch, row.position);
      });
  }

  async sendGuildCreate(session: GatewaySession, guildId: bigint): Promise<void> {
    if (!holdsIntent(session, DISPATCH_POLICIES.GUILD_CREATE)) return;
    const json = await guildCreateJson(session, guildId);
    if (json) session.dispatch("GUILD_CREATE", json, { guildCreate: guildId });
  }

  // ── RESUME ────────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Attaches `connection` to the session, then sends again what the session sent after `seq` (with the same sequence
   * numbers), then what it missed while detached, then RESUMED. The connection is attached here, in the hub's turn
   * and after the drain: attached earlier, a drain queued before this turn would send it a missed event live and the
   * replay would send it again (as happened on PostgreSQL, where a commit's drain can still be queued when the
   * client's RESUME arrives).
   */
  resume(session: GatewaySession, seq: number, connection: GatewayConnection): Promise<boolean> {
    return this.serially(async () => {
      await this.drainNow();
      // Closed while waiting for this turn: the session stays detached, and resumable.
      if (!connection.open || session.ended) return true;
      // The old socket may not have noticed it is gone (a client that resumes after seeing a zombie).
      if (session.connection) {
        session.connection.close(CloseCode.SessionTimedOut, "Resumed on another connection.");
        session.detach(this.position);
      }
      session.connection = connection;
      this.writes.hold(connection);
      try {
        return await this.replay(session, seq);
      } finally {
        this.writes.release();
      }
    });
  }

  /** Sends the replay and RESUMED; false when it cannot be whole (the session is then ended, told INVALID_SESSION). */
  private async replay(session: GatewaySession, seq: number): Promise<boolean> {
    const kept = session.replayAfter(seq);
    const positions = kept.flatMap(({ entry }) => (typeof entry === "number" ? [entry] : []));
    const rows = await outboxRowsAt(positions);
    if (positions.some((position) => !rows.has(position))) {
      // A missed dispatch is past the outbox's retention (outbox-retention.ts): a replay would skip it unsaid. As
      // Discord answers when its buffer is gone: no resume, a new session.
      this.remove(session);
      session.connection?.sendJson({ op: Op.InvalidSession, d: false });
      session.connection = null;
      return false;
    }
    for (const { seq: sequence, entry } of kept) {
      const frame = await this.replayFrame(session, sequence, entry, rows);
      if (frame) session.connection?.send(frame);
    }
    // A row being delivered when the session detached is kept (and replayed above) though the cursor is before it.
    for (let from = Math.max(session.detachedCursor, session.lastOutboxPosition); ;) {
      const missed = await outboxAfter(from, this.position, BATCH);
      for (const row of missed) {
        if (row.guild_id === null) continue;
        const data = JSON.parse(row.payload) as MemberEventData;
        await this.deliverTo(session, {
          row,
          subject: data.user?.id ? BigInt(data.user.id) : null,
          audience: new EventAudience(row.guild_id, row.type, data as object),
          dispatch: new SerializedDispatch(row.type, row.payload),
        });
      }
      if (missed.length < BATCH) break;
      from = missed[missed.length - 1].position;
    }
    session.dispatch("RESUMED", "{}", null);
    return true;
  }

  private async replayFrame(
    session: GatewaySession,
    seq: number,
    entry: ReplayEntry,
    rows: Map<number, OutboxRow>,
  ): Promise<string | null> {
    if (entry === null) return null;
    if (typeof entry === "number") {
      const row = rows.get(entry);
      return row ? dispatchFrame(row.type, seq, row.payload) : null;
    }
    if ("chunk" in entry) return dispatchFrame("GUILD_MEMBERS_CHUNK", seq, entry.chunk);
    if ("guildDelete" in entry)
      return dispatchFrame("GUILD_DELETE", seq, JSON.stringify({ id: String(entry.guildDelete) }));
    const json = await guildCreateJson(session, entry.guildCreate);
    return json ? dispatchFrame("GUILD_CREATE", seq, json) : null;
  }

  // ── Liveness ──────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Closes connections that stopped heartbeating (zombies) with 4009, and forgets detached sessions whose resume
   * window has passed; answers how many it forgot (their replay buffers are garbage now, memory.ts).
   */
  sweep(now = Date.now()): number {
    const deadline = this.options.heartbeatIntervalMs * this.options.heartbeatTimeoutFactor;
    let forgotten = 0;
    for (const session of this.sessions.values()) {
      const connection = session.connection;
      if (connection) {
        if (now - connection.lastBeatAt > deadline) {
          connection.close(CloseCode.SessionTimedOut, "No heartbeat in time.");
          session.detach(this.position, now);
        }
      } else if (now - session.detachedAt > this.options.resumeWindowMs) {
        this.remove(session);
        forgotten++;
      }
    }
    return forgotten;
  }

  /** On shutdown: every live session is told to reconnect (op 7), as Discord does before it restarts a node. */
  reconnectAll(): void {
    for (const session of this.sessions.values()) {
      session.connection?.sendJson({ op: Op.Reconnect, d: null });
      session.connection?.close(CloseCode.UnknownError, "Server restarting.");
    }
  }
}

/** Whether the session asked for the intent that gates the dispatch (none: every session receives it). */
function holdsIntent(session: GatewaySession, rule: DispatchPolicy): boolean {
  return rule.intent === null || session.has(rule.intent);
}

function indexAdd<K>(index: Map<K, Set<GatewaySession>>, key: K, session: GatewaySession): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(session);
}

function indexDelete<K>(index: Map<K, Set<GatewaySession>>, key: K, session: GatewaySession): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(session);
  if (set.size === 0) index.delete(key);
}
