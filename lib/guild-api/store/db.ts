// The guild API's connection: better-sqlite3 on the Prisma-migrated file, with prepared statements
// cached per SQL text. Every INTEGER column reads back as a bigint (safe integers), so 64-bit snowflakes
// never lose precision; serializers turn them into strings or numbers explicitly.
import Database from "better-sqlite3";
import { databaseFile } from "@/lib/db/database-url";
import { securePrivateDatabaseFiles } from "@/lib/db/file-mode";

export type Db = Database.Database;
export type Statement = Database.Statement;

let connection: Db | null = null;
const statements = new Map<string, Statement>();

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

/** The process-wide connection (the server, the seed and the token tool each open one). */
export function db(): Db {
  connection ??= openDatabase();
  return connection;
}

/**
 * SQLite's data_version: it moves when another connection commits (the seed, the token tool, the dashboard's Prisma,
 * another process), never for this connection's own commits.
 */
export function dataVersion(): bigint {
  return sql("PRAGMA data_version").pluck().get() as bigint;
}

/**
 * A cached prepared statement for this SQL text, in its default mode (rows as objects). Statements are shared by
 * text, and `.pluck()` and `.raw()` change a statement's mode for every later caller: two modules reading the same
 * text, one plucked and one not, would otherwise each get the other's shape. So every call starts from the default.
 */
export function sql(text: string): Statement {
  let statement = statements.get(text);
  if (!statement) {
    statement = db().prepare(text);
    statements.set(text, statement);
  } else if (statement.reader) {
    statement.pluck(false).raw(false);
  }
  return statement;
}

let transactionsEnded = 0;

/** Runs fn in one transaction (nested calls become savepoints): all or nothing. */
export function transaction<T>(fn: () => T): T {
  try {
    return db().transaction(fn)();
  } finally {
    transactionsEnded++;
  }
}

/**
 * Runs fn in one BEGIN IMMEDIATE transaction: the write lock is taken before the first read, so what fn judges
 * (the token, the caller's roles) cannot change under it before its write commits. Services' own transaction()
 * calls inside become savepoints. fn must be synchronous (better-sqlite3 refuses a promise).
 */
export function writeTransaction<T>(fn: () => T): T {
  try {
    return db().transaction(fn).immediate();
  } finally {
    transactionsEnded++;
  }
}

/** How many transactions (or savepoints) have committed or rolled back: read caches revalidate when it moves. */
export const endedTransactions = (): number => transactionsEnded;

export function closeDatabase(): void {
  // A new connection starts its total_changes() at zero: count the close as an ended transaction so read caches
  // built on the old connection are dropped.
  transactionsEnded++;
  statements.clear();
  connection?.close();
  connection = null;
}
