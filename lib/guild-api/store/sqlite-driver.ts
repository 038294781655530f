// The store's SQLite driver: better-sqlite3 underneath (synchronous, so a statement costs what it cost before the
// store became asynchronous), one connection per process, prepared statements cached per SQL text and read mode.
//
// One connection means one transaction at a time. The transaction's owner is the async context that began it (an
// AsyncLocalStorage frame, inherited by everything the body awaits), and:
//   - transactions of different contexts are serialized by an async lock, in the order they asked;
//   - a statement from any other context while a transaction is open waits until it ends: no context ever reads
//     another's uncommitted writes, and none slips its own write into another's transaction;
//   - statements of the owning context run at once;
//   - nested transaction() / writeTransaction() calls of the owning context become savepoints, one at a time.
import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import { TransactionBodyError, type Params, type RunResult, type StoreDriver } from "./driver";

type Statement = Database.Statement;

/** One open transaction or savepoint, as the async context that runs its body sees it. */
interface Frame {
  /** The outermost transaction this frame belongs to (itself at depth 0). */
  root: Frame;
  depth: number;
  /** The innermost savepoint open in this transaction (kept on the root frame). */
  innermost: Frame;
  /** Settles when the outermost transaction has ended (kept on the root frame). */
  ended: Promise<void>;
}

// Statements past this many distinct texts are all dropped at once: member search builds its SQL per filter set, and
// a bounded cache costs less than a least-recently-used order kept on every hit of the hot static texts.
const STATEMENT_CACHE_MAX = 4096;

// Counted across connections (a closed one and its successor), so a read cache never sees the count repeat.
let transactionsEnded = 0;

enum Mode {
  Objects,
  Pluck,
  Raw,
}

export class SqliteDriver implements StoreDriver {
  private readonly frames = new AsyncLocalStorage<Frame>();
  private readonly statements: Array<Map<string, Statement>> = [new Map(), new Map(), new Map()];
  /** The open outermost transaction, or null. */
  private holder: Frame | null = null;
  /** Whether a transaction holds or is about to take the connection; waiters queue behind it. */
  private locked = false;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly connection: Database.Database) {}

  private statement(text: string, mode: Mode): Statement {
    const cache = this.statements[mode];
    let statement = cache.get(text);
    if (!statement) {
      if (cache.size >= STATEMENT_CACHE_MAX) cache.clear();
      statement = this.connection.prepare(text);
      if (mode === Mode.Pluck) statement.pluck(true);
      else if (mode === Mode.Raw) statement.raw(true);
      cache.set(text, statement);
    }
    return statement;
  }

  /** Whether the calling context owns the open transaction. */
  private owns(): boolean {
    const frame = this.frames.getStore();
    return frame !== undefined && frame.root === this.holder;
  }

  inTransaction(): boolean {
    return this.holder !== null && this.owns();
  }

  outside<T>(fn: () => T): T {
    return this.frames.exit(fn);
  }

  idle(): Promise<void> | undefined {
    if (this.holder === null || this.owns()) return undefined;
    return this.waitForOthers();
  }

  private async waitForOthers(): Promise<void> {
    while (this.holder !== null && !this.owns()) await this.holder.ended;
  }

  async get<T>(text: string, ...params: Params): Promise<T | undefined> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    return this.statement(text, Mode.Objects).get(...params) as T | undefined;
  }

  async all<T>(text: string, ...params: Params): Promise<T[]> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    return this.statement(text, Mode.Objects).all(...params) as T[];
  }

  async value<T>(text: string, ...params: Params): Promise<T | undefined> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    return this.statement(text, Mode.Pluck).get(...params) as T | undefined;
  }

  async values<T>(text: string, ...params: Params): Promise<T[]> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    return this.statement(text, Mode.Pluck).all(...params) as T[];
  }

  async row<T extends readonly unknown[]>(text: string, ...params: Params): Promise<T | undefined> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    return this.statement(text, Mode.Raw).get(...params) as T | undefined;
  }

  async rows<T extends readonly unknown[]>(text: string, ...params: Params): Promise<T[]> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    return this.statement(text, Mode.Raw).all(...params) as T[];
  }

  async run(text: string, ...params: Params): Promise<RunResult> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    const { changes, lastInsertRowid } = this.statement(text, Mode.Objects).run(...params);
    return { changes, lastInsertRowid: BigInt(lastInsertRowid) };
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.begin(fn, "BEGIN");
  }

  writeTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.begin(fn, "BEGIN IMMEDIATE");
  }

  private begin<T>(fn: () => Promise<T>, begin: string): Promise<T> {
    const frame = this.frames.getStore();
    if (frame !== undefined && frame.root === this.holder) return this.savepoint(frame, fn);
    return this.outermost(fn, begin);
  }

  private async outermost<T>(fn: () => Promise<T>, begin: string): Promise<T> {
    if (this.locked) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.locked = true;
    let ended!: () => void;
    const root = { depth: 0, ended: new Promise<void>((resolve) => (ended = resolve)) } as Frame;
    root.root = root;
    root.innermost = root;
    try {
      this.statement(begin, Mode.Objects).run();
    } catch (error) {
      this.release(ended);
      throw error;
    }
    this.holder = root;
    try {
      const result = await this.frames.run(root, fn);
      this.statement("COMMIT", Mode.Objects).run();
      return result;
    } catch (error) {
      if (this.connection.inTransaction) this.statement("ROLLBACK", Mode.Objects).run();
      throw error;
    } finally {
      transactionsEnded++;
      this.release(ended);
    }
  }

  /** Ends the hold: first every statement that waited runs, then the next transaction in line begins. */
  private release(ended: () => void): void {
    this.holder = null;
    ended();
    const next = this.waiting.shift();
    if (next) next();
    else this.locked = false;
  }

  private async savepoint<T>(parent: Frame, fn: () => Promise<T>): Promise<T> {
    const root = parent.root;
    if (root.innermost !== parent)
      throw new TransactionBodyError(
        "Nested transactions of one transaction run one at a time: await each before starting the next",
      );
    const frame: Frame = { root, depth: parent.depth + 1, innermost: root, ended: root.ended };
    const name = `store_savepoint_${frame.depth}`;
    this.statement(`SAVEPOINT ${name}`, Mode.Objects).run();
    root.innermost = frame;
    try {
      const result = await this.frames.run(frame, fn);
      this.statement(`RELEASE ${name}`, Mode.Objects).run();
      return result;
    } catch (error) {
      if (this.connection.inTransaction) {
        this.statement(`ROLLBACK TO ${name}`, Mode.Objects).run();
        this.statement(`RELEASE ${name}`, Mode.Objects).run();
      }
      throw error;
    } finally {
      root.innermost = parent;
      transactionsEnded++;
    }
  }

  dataVersion(): bigint {
    return this.statement("PRAGMA data_version", Mode.Pluck).get() as bigint;
  }

  totalChanges(): bigint {
    return this.statement("SELECT total_changes()", Mode.Pluck).get() as bigint;
  }

  endedTransactions(): number {
    return transactionsEnded;
  }

  close(): void {
    // A new connection starts its total_changes() at zero: count the close as an ended transaction so read caches
    // built on the old connection are dropped.
    transactionsEnded++;
    for (const cache of this.statements) cache.clear();
    this.connection.close();
  }
}
