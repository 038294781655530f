// The guild API's store: one driver per process, chosen here by DATABASE_URL, that every store module reads and writes
// through (`sql.get(text, …)`, `transaction(async () => …)`): SQLite (store/sqlite-driver.ts) on the Prisma-migrated
// file, or PostgreSQL (store/postgresql-driver.ts). Every INTEGER column reads back as a bigint (safe integers), so 64-bit snowflakes never lose
// precision; serializers turn them into strings or numbers explicitly.
//
// Transaction bodies hold nothing but store calls: see store/driver.ts.
import Database from "better-sqlite3";
import { databaseFile, databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { securePrivateDatabaseFiles } from "@/lib/db/file-mode";
import { TransactionBodyError, type Executor, type StoreDriver } from "./driver";
import { SqliteDriver } from "./sqlite-driver";
import { PostgresqlDriver } from "./postgresql-driver";

export type Db = Database.Database;

export function openDatabase(file = databaseFile()): Db {
  securePrivateDatabaseFiles(file);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  // Up to 256 MB of pages in SQLite's own cache (grown only as pages are used): a 1M-member guild's member table
  // and indexes are about 800 MB, and writes that touch scattered members (Bulk Guild Ban) spent half their time
  // re-reading pages through the OS with 64 MB (measured: 21 ms against 17 ms median for 200 bans).
  db.pragma("cache_size = -262144");
  db.defaultSafeIntegers(true);
  return db;
}

let current: SqliteDriver | PostgresqlDriver | null = null;

function driver(): StoreDriver {
  if (current) return current;
  const url = databaseUrl();
  current = databaseProvider(url) === "postgresql" ? new PostgresqlDriver(url) : new SqliteDriver(openDatabase());
  return current;
}

/** Whether the store runs on PostgreSQL (statements whose SQL differs between the engines ask: store/dialect.ts). */
export function storeOnPostgresql(): boolean {
  return driver() instanceof PostgresqlDriver;
}

/**
 * The process-wide SQLite connection, for the tools that work on the SQLite file itself (backup, the WAL
 * checkpointer, benches and tests that set rows up). Store modules go through `sql` instead.
 */
export function db(): Db {
  const store = driver();
  if (!(store instanceof SqliteDriver)) throw new Error("db(): the store runs on PostgreSQL, not on a SQLite file");
  return store.connection;
}

/** Statements of the current transaction, or standalone ones outside any. */
export const sql: Executor = {
  get: (text, ...params) => driver().get(text, ...params),
  all: (text, ...params) => driver().all(text, ...params),
  value: (text, ...params) => driver().value(text, ...params),
  values: (text, ...params) => driver().values(text, ...params),
  row: (text, ...params) => driver().row(text, ...params),
  rows: (text, ...params) => driver().rows(text, ...params),
  run: (text, ...params) => driver().run(text, ...params),
  append: (text, ...params) => driver().append(text, ...params),
};

/** Runs fn in one transaction (nested calls become savepoints): all or nothing. */
export function transaction<T>(fn: () => Promise<T>): Promise<T> {
  return driver().transaction(fn);
}

/**
 * Runs fn in one transaction that takes the write lock before the first read (SQLite's BEGIN IMMEDIATE): what fn
 * judges (the token, the caller's roles) cannot change under it before its write commits. Services' own
 * transaction() calls inside become savepoints.
 */
export function writeTransaction<T>(fn: () => Promise<T>): Promise<T> {
  return driver().writeTransaction(fn);
}

/** Resolves when no other context holds a transaction; undefined (nothing to wait for) when none does. */
export function storeIdle(): Promise<void> | undefined {
  return driver().idle();
}

/** Runs fn as no transaction's work, whatever context scheduled it (see StoreDriver.outside). */
export function outsideTransaction<T>(fn: () => T): T {
  return driver().outside(fn);
}

/**
 * For work that must never run inside a transaction body (a network call, a wait): it would hold the connection,
 * and with it every other request, for as long as it takes.
 */
export function assertOutsideTransaction(what: string): void {
  if (current?.inTransaction())
    throw new TransactionBodyError(`${what} inside a transaction body would hold every request: move it outside`);
}

/**
 * Moves when another connection commits (the seed, the token tool, the dashboard's Prisma, another process), never
 * for this connection's own commits.
 */
export function dataVersion(): bigint {
  return driver().dataVersion();
}

/**
 * Resolves once every commit another connection made before this call counts in dataVersion(): at once on SQLite
 * (data_version is read from the file), after one round trip on PostgreSQL (the server hands a connection the
 * notifications of earlier commits before it answers). A request's read scope starts with it, so a request never
 * answers from a cache that another instance's finished write has made stale.
 */
export function caughtUpWithOtherConnections(): Promise<void> | undefined {
  const store = driver();
  return store instanceof PostgresqlDriver ? store.catchUp() : undefined;
}

/**
 * Calls `listener` as soon as another connection commits, where the engine says so (PostgreSQL's NOTIFY); on SQLite
 * nothing does, and readers poll dataVersion() instead. Returns the unsubscribe.
 */
export function onOtherConnectionsCommit(listener: () => void): () => void {
  const store = driver();
  return store instanceof PostgresqlDriver ? store.onOtherCommit(listener) : () => {};
}

/** Rows this connection has inserted, updated or deleted, ever. */
export function totalChanges(): bigint {
  return driver().totalChanges();
}

/** How many transactions (or savepoints) have committed or rolled back: read caches revalidate when it moves. */
export function endedTransactions(): number {
  return driver().endedTransactions();
}

export function closeDatabase(): void {
  current?.close();
  current = null;
}
