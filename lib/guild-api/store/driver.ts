// The one interface every store module reads and writes through, so that the same store functions can run on SQLite
// (store/sqlite-driver.ts, today's only driver) or on PostgreSQL (issue 19) behind it. Every call is asynchronous;
// the transaction a call belongs to is not a parameter but travels with the caller's async context
// (AsyncLocalStorage), so store functions keep their parameters and only return promises.
//
// The rule for transaction bodies: nothing but store calls (and the synchronous work around them) inside
// `transaction(async () => …)` and `writeTransaction(async () => …)`. A transaction holds the one connection, and
// every statement from any other request waits until it ends: an awaited HTTP call, a timer or a file read inside a
// body would hold every request of the process. Drivers refuse what they cheaply can (see assertOutsideTransaction).

/** What a write reports. */
export interface RunResult {
  changes: number;
}

/** Parameters as the statement's placeholders take them: positional values, or one object for named ones. */
export type Params = readonly unknown[];

export interface Executor {
  /** The first row as an object keyed by column name, or undefined when there is none. */
  get<T>(text: string, ...params: Params): Promise<T | undefined>;
  /** Every row as an object keyed by column name. */
  all<T>(text: string, ...params: Params): Promise<T[]>;
  /** The first column of the first row, or undefined when there is no row. */
  value<T>(text: string, ...params: Params): Promise<T | undefined>;
  /** The first column of every row. */
  values<T>(text: string, ...params: Params): Promise<T[]>;
  /** The first row as an array of its columns (no objects built: hot paths that read two columns). */
  row<T extends readonly unknown[]>(text: string, ...params: Params): Promise<T | undefined>;
  /** Every row as an array of its columns. */
  rows<T extends readonly unknown[]>(text: string, ...params: Params): Promise<T[]>;
  /** A statement that returns no rows (INSERT, UPDATE, DELETE). */
  run(text: string, ...params: Params): Promise<RunResult>;
  /**
   * One row for a log-like table, `INSERT INTO t (…) VALUES (?, …)` with positional placeholders, whose outcome the
   * caller does not read. Inside a transaction the driver may hold it and send it later, with the other rows of the
   * same text, as one multi-row INSERT (PostgreSQL: one round trip instead of one per row); it is sent before the
   * transaction's next statement of another kind and before it commits, and a failure fails the transaction there.
   * Rows of one text keep their order; rows of different texts may be sent in another order than they were appended,
   * so an appended row must not need another appended row of a different text to exist first (a foreign key).
   */
  append(text: string, ...params: Params): Promise<void>;
}

export interface StoreDriver extends Executor {
  /**
   * Runs fn in one transaction: all or nothing. Inside fn (and everything it awaits in its own async context), every
   * store call belongs to the transaction, and nested transaction() or writeTransaction() calls become savepoints:
   * their failure rolls back their own work only. Transactions of different contexts run one after another.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * The same, taking the write lock before the first read (SQLite's BEGIN IMMEDIATE): what fn judges cannot change
   * under it before its write commits.
   */
  writeTransaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Whether the calling context is inside one of this driver's open transactions. */
  inTransaction(): boolean;
  /**
   * Runs fn outside any transaction of the calling context: for work a transaction body schedules (a timer, an
   * immediate) that must never count as the transaction's own, even if it ran while the transaction was open.
   */
  outside<T>(fn: () => T): T;
  /** Resolves when no other context holds a transaction (at once, without a tick, when none does). */
  idle(): Promise<void> | undefined;
  /** A stamp that moves when another connection commits (never for this connection's own commits). */
  dataVersion(): bigint;
  /** Rows this connection has inserted, updated or deleted, ever. */
  totalChanges(): bigint;
  /** How many transactions (or savepoints) have committed or rolled back. */
  endedTransactions(): number;
  close(): void;
}

/** Thrown where work that must not hold the connection (network, timers) is attempted inside a transaction body. */
export class TransactionBodyError extends Error {}

/** Thrown for statements while the database connection is lost and not back yet: answered 503, try again shortly. */
export class StoreUnavailableError extends Error {}
