// The store's PostgreSQL driver: one `pg` connection per process, used as SQLite's is (store/serialized-driver.ts:
// one transaction at a time, other contexts' statements wait for it), so every store module and read cache keeps the
// guarantees it was written for. Instances scale out as processes, each with its connection.
//
// The store's statements are written once, in the SQL both engines speak; this driver adapts what differs on the way:
//   - placeholders: `?` and `@name` (SQLite's) become `$1…` (PostgreSQL's), once per text;
//   - every text is a named prepared statement on the connection (parsed and planned once), up to a bound;
//   - values read back as SQLite's do: integers of any width as bigint, booleans as 1n / 0n, json as its text;
//   - every transaction, and every write outside one, takes one advisory lock across every instance, as SQLite's
//     BEGIN IMMEDIATE takes the file's write lock: what a transaction judged cannot change under it before it commits
//     (SQLite's deferred transactions would fail instead when another connection wrote first; here they wait).
//   - rows appended to log-like tables (Executor.append: gateway events, audit entries, bans) are held until the
//     transaction's next other statement and sent as multi-row INSERTs: a bulk ban of 200 is a handful of round
//     trips instead of a thousand;
//   - other connections' commits (another instance, the dashboard's Prisma) are heard through LISTEN: the tables'
//     statement triggers (migration …_change_notifications) NOTIFY guildhall_changes, and dataVersion() counts the
//     notifications from other server processes.
import pg from "pg";
import { recordStoreCatchUp, recordStoreStatement } from "@/lib/server/metrics";
import { StoreUnavailableError, type Params, type RunResult } from "./driver";
import { SerializedDriver, type BeginKind, type QueryKind } from "./serialized-driver";

/** Distinct texts prepared on the server; texts past it run unnamed (member search builds one per filter shape). */
const PREPARED_MAX = 4096;
/** The advisory lock every transaction takes: one writer at a time across instances, as with SQLite. */
export const WRITE_LOCK_KEY = 0x6775696c64; // "guild"
export const CHANGES_CHANNEL = "guildhall_changes";
/** Rows per multi-row INSERT of appended rows, largest first: few distinct texts to prepare, few round trips. */
const APPEND_BATCH_SIZES = [256, 64, 16, 4, 1];

const { builtins } = pg.types;
const toBigInt = (text: string) => BigInt(text);

/** Reads every value as the SQLite driver does (safe integers as bigint, booleans as integers, JSON as text). */
function typeParser(oid: number, format?: string): (text: string) => unknown {
  switch (oid) {
    case builtins.INT2:
    case builtins.INT4:
    case builtins.INT8:
      return toBigInt;
    case builtins.BOOL:
      return (text) => (text === "t" ? 1n : 0n);
    case builtins.NUMERIC:
      // SUM() of bigints is numeric: whole numbers stay exact.
      return (text) => (/^-?\d+$/.test(text) ? BigInt(text) : Number(text));
    case builtins.JSON:
    case builtins.JSONB:
      return (text) => text;
    default:
      return pg.types.getTypeParser(oid, format as "text");
  }
}

interface Translated {
  text: string;
  /** For `@name` placeholders: the parameter object's keys, in $n order. */
  names: string[] | null;
  /** The prepared statement's name on the connection, or undefined to run it unnamed. */
  name: string | undefined;
  /** Whether it writes: outside a transaction it then runs in one of its own, under the write lock. */
  writes: boolean;
}

const WRITES = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b|^\s*WITH\b[\s\S]*\b(INSERT|UPDATE|DELETE)\b/i;

/**
 * SQLite's placeholders as PostgreSQL's: each `?` is the next $n; `@name` and `:name` name one key of the parameters
 * object (the same name, the same $n). Quoted text, quoted identifiers and dollar-quoted bodies ($tag$ … $tag$, as a
 * plpgsql function's) are left alone.
 */
export function translatePlaceholders(sql: string): { text: string; names: string[] | null } {
  let out = "";
  let positional = 0;
  const names: string[] = [];
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    const dollarQuote = c === "$" ? /^\$[A-Za-z_]*\$/.exec(sql.slice(i)) : null;
    if (c === "'" || c === '"' || dollarQuote) {
      const closing = dollarQuote ? dollarQuote[0] : c;
      const end = sql.indexOf(closing, i + closing.length);
      const stop = end === -1 ? sql.length : end + closing.length;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "?") {
      out += `$${++positional}`;
    } else if ((c === "@" || c === ":") && /[A-Za-z_]/.test(sql[i + 1] ?? "") && sql[i - 1] !== ":") {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!;
      let index = names.indexOf(match[0]);
      if (index === -1) index = names.push(match[0]) - 1;
      out += `$${index + 1}`;
      i += match[0].length;
    } else {
      out += c;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`Mixed ? and named placeholders: ${sql}`);
  return { text: out, names: names.length > 0 ? names : null };
}

const SINGLE_ROW_INSERT = /^(\s*INSERT\s+INTO\s+[\w.]+\s*\([^()]*\)\s*VALUES\s*)(\([^()]*\))([\s\S]*)$/i;

/** `INSERT INTO t (…) VALUES (?, …) [suffix]` for `rows` rows: the VALUES tuple repeated (its `?`s number on). */
export function multiRowInsert(text: string, rows: number): string {
  const match = SINGLE_ROW_INSERT.exec(text);
  if (!match) throw new Error(`append() takes INSERT INTO t (…) VALUES (?, …): ${text}`);
  const [, head, tuple, tail] = match;
  return `${head}${Array.from({ length: rows }, () => tuple).join(", ")}${tail}`;
}

/** Reconnection attempts back off from the first delay to the last, doubling. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_LAST_MS = 5_000;

export class PostgresqlDriver extends SerializedDriver {
  private client!: pg.Client;
  private ready!: Promise<void>;
  private reconnectDelay = RECONNECT_FIRST_MS;
  /** The connection lost last (each is handled once, whether its error or its end says so first). */
  private lostClient: pg.Client | null = null;
  private closed = false;
  private readonly translated = new Map<string, Translated>();
  private prepared = 0;
  private changes = 0n;
  private otherCommits = 0n;
  private backendPid = 0;
  private open = false;
  /** Whether the current connection is ready (connected, listening) and not lost since. */
  private up = false;
  private failure: StoreUnavailableError | null = null;
  private readonly commitListeners = new Set<() => void>();
  /** Rows appended in the open transaction and not sent yet, in the order they came. */
  private held: Array<{ text: string; params: Params }> = [];
  /** Multi-row texts by single-row text and row count. */
  private readonly multiRowTexts = new Map<string, string>();
  /** Statements go to the connection one after another, in the order they were issued (pg queues no more). */
  private queue: Promise<unknown> = Promise.resolve();
  /** A catch-up queued and not yet sent, which later callers share (catchUp); it answers whether it was sent outside. */
  private waitingCatchUp: Promise<boolean> | null = null;
  /** Whether the statements sent so far leave the server inside a transaction (BEGIN sent, COMMIT or ROLLBACK not yet). */
  private transactionSent = false;
  /** The write stamp this connection last read (begin), null before the first. */
  private writeStamp: bigint | null = null;

  constructor(private readonly connectionString: string) {
    super();
    this.connect(false);
  }

  /**
   * Opens the connection (again, after a loss): LISTEN, and statements prepared anew on it. Until it is ready every
   * statement waits for it; if it fails, they fail and the next attempt is scheduled.
   */
  private connect(again: boolean): void {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: RECONNECT_LAST_MS,
      types: { getTypeParser: typeParser as never },
    });
    client.on("notification", (message) => {
      if (message.processId === this.backendPid) return;
      this.otherCommitted();
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, new Error("the server closed the connection")));
    this.client = client;
    this.ready = (async () => {
      await client.connect();
      const result = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      this.backendPid = Number(result.rows[0].pid);
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      // Listening: commits from here on are heard or move the stamp past this value (a database not migrated yet
      // has no stamp; the first transaction's reading then starts the count).
      const stamp = await client
        .query<{ last_value: unknown }>("SELECT last_value FROM guildhall_write_stamps")
        .then((read) => BigInt(String(read.rows[0].last_value)))
        .catch(() => null);
      this.writeStamp = stamp;
    })();
    this.ready.then(
      () => {
        this.failure = null;
        this.up = true;
        this.reconnectDelay = RECONNECT_FIRST_MS;
        // Commits made elsewhere while this connection was gone were never heard: every cache and reader checks.
        if (again) this.otherCommitted();
      },
      (error: Error) => this.lost(client, error),
    );
  }

  /**
   * The connection failed (the server restarted, a network cut, the backend was terminated): the open transaction
   * is gone with it (rolled back by the server), statements fail with StoreUnavailableError until a new connection
   * is ready, and one is attempted after a delay that doubles up to RECONNECT_LAST_MS.
   */
  private lost(client: pg.Client, error: Error): void {
    if (client !== this.client || this.closed || this.lostClient === client) return;
    this.lostClient = client;
    this.failure = new StoreUnavailableError(`PostgreSQL is unreachable: ${error.message}`);
    this.up = false;
    this.open = false;
    this.transactionSent = false;
    this.held = [];
    // Prepared statements belonged to the lost connection.
    this.translated.clear();
    this.prepared = 0;
    void client.end().catch(() => undefined);
    setTimeout(() => this.closed || this.connect(true), this.reconnectDelay).unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_LAST_MS);
  }

  /** Waits for the connection; throws StoreUnavailableError while it is lost. */
  private async connected(): Promise<void> {
    await this.ready.catch(() => undefined);
    if (this.failure) throw this.failure;
  }

  private otherCommitted(): void {
    this.otherCommits++;
    for (const listener of this.commitListeners) listener();
  }

  private statementFor(text: string): Translated {
    let statement = this.translated.get(text);
    if (!statement) {
      const { text: translated, names } = translatePlaceholders(text);
      const name = this.prepared < PREPARED_MAX ? `s${++this.prepared}` : undefined;
      statement = { text: translated, names, name, writes: WRITES.test(text) };
      this.translated.set(text, statement);
    }
    return statement;
  }

  private async send(
    kind: QueryKind,
    text: string,
    params: Params,
  ): Promise<pg.QueryResult<Record<string, unknown>> | pg.QueryArrayResult<unknown[]>> {
    await this.connected();
    const statement = this.statementFor(text);
    const values = statement.names
      ? statement.names.map((key) => (params[0] as Record<string, unknown>)[key])
      : (params as unknown[]);
    const arrays = kind === "value" || kind === "values" || kind === "row" || kind === "rows";
    const started = performance.now();
    try {
      const result = await this.inTurn(() =>
        this.client.query({
          name: statement.name,
          text: statement.text,
          values: values.map(toParameter),
          ...(arrays ? { rowMode: "array" as const } : {}),
        }),
      );
      if (result.command === "INSERT" || result.command === "UPDATE" || result.command === "DELETE")
        this.changes += BigInt(result.rowCount ?? 0);
      return result;
    } finally {
      recordStoreStatement(started);
    }
  }

  private inTurn<R>(send: () => Promise<R>): Promise<R> {
    const result = this.queue.then(send);
    this.queue = result.catch(() => undefined);
    return result;
  }

  protected async hold(text: string, params: Params): Promise<void> {
    if (params.some((param) => typeof param === "object" && param !== null && !(param instanceof Uint8Array)))
      throw new Error(`append() takes positional parameters: ${text}`);
    this.multiRowText(text, 1); // refuses a text it cannot batch now, not at the commit
    this.held.push({ text, params });
  }

  private multiRowText(text: string, rows: number): string {
    const key = `${rows}:${text}`;
    let multiRow = this.multiRowTexts.get(key);
    if (multiRow === undefined) this.multiRowTexts.set(key, (multiRow = multiRowInsert(text, rows)));
    return multiRow;
  }

  /** Sends the held rows, each text's rows as few multi-row INSERTs as APPEND_BATCH_SIZES allows. */
  private async sendHeld(): Promise<void> {
    const held = this.held;
    this.held = [];
    const rowsByText = new Map<string, Params[]>();
    for (const { text, params } of held) {
      const rows = rowsByText.get(text);
      if (rows) rows.push(params);
      else rowsByText.set(text, [params]);
    }
    for (const [text, rows] of rowsByText)
      for (let start = 0; start < rows.length;) {
        const size = APPEND_BATCH_SIZES.find((candidate) => candidate <= rows.length - start)!;
        await this.send("run", this.multiRowText(text, size), rows.slice(start, start + size).flat());
        start += size;
      }
  }

  protected async query(kind: QueryKind, text: string, params: Params): Promise<unknown> {
    if (this.held.length > 0) await this.sendHeld();
    // A write outside any transaction takes the write lock like every transaction, as SQLite's autocommit write takes
    // the file's: it cannot land between another instance's reads and writes.
    if (!this.inTransaction() && this.statementFor(text).writes)
      return this.transaction(() => this.query(kind, text, params));
    const result = await this.send(kind, text, params);
    const rows = result.rows as unknown[];
    switch (kind) {
      case "get":
      case "row":
        return rows[0];
      case "all":
      case "rows":
        return rows;
      case "value":
        return (rows[0] as unknown[] | undefined)?.[0];
      case "values":
        return rows.map((row) => (row as unknown[])[0]);
      case "run":
        return { changes: result.rowCount ?? 0 } satisfies RunResult;
    }
  }

  protected async begin(_kind: BeginKind): Promise<void> {
    await this.control("BEGIN");
    // The lock, then the write stamp as it stands once the lock is held (migration …_write_stamps): another value than
    // this connection last saw means another connection wrote since, maybe while this one waited for the lock, and its
    // notification is held back until this transaction ends; the caches hear of it now.
    await this.connected();
    const result = await this.inTurn(() => this.client.query(`SELECT guildhall_take_write_lock(${WRITE_LOCK_KEY})`));
    this.sawWriteStamp(BigInt(String(result.rows[0].guildhall_take_write_lock)));
  }

  /**
   * A write stamp read now: counted as another connection's commit when it moved since the last one seen. This
   * connection's own writes move it too; the caches are emptied after those anyway, and the gateway's reader checks
   * the outbox once more for nothing.
   */
  private sawWriteStamp(stamp: bigint): void {
    if (this.writeStamp !== null && stamp !== this.writeStamp) this.otherCommitted();
    this.writeStamp = stamp;
  }

  protected async control(text: string): Promise<void> {
    await this.connected();
    // Held rows go before SAVEPOINT, RELEASE and COMMIT; a rollback drops them (all were appended after the
    // innermost savepoint began, since SAVEPOINT sent those before it).
    if (text.startsWith("ROLLBACK")) this.held = [];
    else if (this.held.length > 0) await this.sendHeld();
    if (text === "BEGIN") this.open = true;
    try {
      await this.inTurn(() => {
        if (text === "BEGIN") this.transactionSent = true;
        else if (text === "COMMIT" || text === "ROLLBACK") this.transactionSent = false;
        return this.client.query(text);
      });
    } finally {
      if (text === "COMMIT" || text === "ROLLBACK") this.open = false;
    }
  }

  protected connectionInTransaction(): boolean {
    return this.open && !this.failure;
  }

  dataVersion(): bigint {
    return this.otherCommits;
  }

  /**
   * One round trip: PostgreSQL delivers a connection's pending notifications before it answers, so once this resolves
   * every commit made elsewhere before the call has been counted. Not inside a transaction, where the server holds
   * them back until it ends: within the caller's own there is nothing to wait for (begin() read the write stamp), and
   * a round trip that went inside another context's is made again once that one has ended.
   */
  async catchUp(): Promise<void> {
    if (this.inTransaction()) return;
    while (!(await this.sharedCatchUp())) await this.idle();
  }

  /**
   * The catch-up's round trip, answering whether it was sent outside any transaction. Calls made while one waits in
   * line, not yet sent, share it: sent after each of them, it answers for all (under load, many requests' catch-ups
   * become one round trip instead of one each on the one connection).
   */
  private sharedCatchUp(): Promise<boolean> {
    if (this.waitingCatchUp) return this.waitingCatchUp;
    const shared = (async () => {
      await this.connected();
      return this.inTurn(async () => {
        this.waitingCatchUp = null; // sent: a later call needs a round trip of its own
        const outside = !this.transactionSent;
        recordStoreCatchUp();
        await this.client.query("");
        return outside;
      });
    })();
    this.waitingCatchUp = shared;
    // One that failed before it was sent (no connection) must not answer every later call.
    shared.catch(() => {
      if (this.waitingCatchUp === shared) this.waitingCatchUp = null;
    });
    return shared;
  }

  /** Calls `listener` whenever another connection commits a write; returns the unsubscribe. */
  onOtherCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  totalChanges(): bigint {
    return this.changes;
  }

  /** Whether the connection, and with it the LISTEN for other instances' commits, is up now. */
  connectionUp(): boolean {
    return this.up;
  }

  protected closeConnection(): void {
    this.closed = true;
    void this.client.end().catch(() => undefined);
  }
}

/** Values as PostgreSQL's text protocol takes them (SQLite's store passes integers as bigint or number). */
function toParameter(value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
