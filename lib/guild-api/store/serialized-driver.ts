// What both store drivers share: one connection per process, used by one transaction at a time. The transaction's
// owner is the async context that began it (a store of lib/server/async-context.ts, inherited by everything the body
// awaits), and:
//   - transactions of different contexts are serialized by an async lock, in the order they asked;
//   - a statement from any other context while a transaction is open waits until it ends: no context ever reads
//     another's uncommitted writes, and none slips its own write into another's transaction;
//   - statements of the owning context run at once;
//   - nested transaction() / writeTransaction() calls of the owning context become savepoints, one at a time.
// A driver says how to run one statement (`query`) and one transaction-control statement (`control`); SQLite's are
// synchronous (store/sqlite-driver.ts), PostgreSQL's travel to the server (store/postgresql-driver.ts).
import { ContextStorage } from "@/lib/server/async-context";
import { recordStoreTransaction, watchStoreConnection } from "@/lib/server/metrics";
import { TransactionBodyError, type Params, type RunResult, type StoreDriver } from "./driver";

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

/** What a statement answers: the first row or every row, as objects, first columns (pluck) or arrays (raw); or a write. */
export type QueryKind = "get" | "all" | "value" | "values" | "row" | "rows" | "run";

/** How a transaction begins: deferred (its first write takes the lock) or taking the write lock at once. */
export type BeginKind = "deferred" | "write";

// Counted across drivers and connections (a closed one and its successor), so a read cache never sees it repeat.
let transactionsEnded = 0;

export abstract class SerializedDriver implements StoreDriver {
  private readonly frames = new ContextStorage<Frame>();
  /** The open outermost transaction, or null. */
  private holder: Frame | null = null;
  /** Whether a transaction holds or is about to take the connection; waiters queue behind it. */
  private locked = false;
  private readonly waiting: Array<() => void> = [];

  constructor() {
    watchStoreConnection(this);
  }

  /** Runs one statement on the connection. */
  protected abstract query(kind: QueryKind, text: string, params: Params): unknown;
  /** Begins, commits or rolls back the transaction, or a savepoint of it. */
  protected abstract begin(kind: BeginKind): void | Promise<void>;
  protected abstract control(text: string): void | Promise<void>;
  /** Whether the connection still has a transaction open (after a failure, the engine may have ended it already). */
  protected abstract connectionInTransaction(): boolean;
  /** Whether the connection is usable now (the metrics' guildhall_store_connection_up). */
  abstract connectionUp(): boolean;
  abstract dataVersion(): bigint;
  abstract totalChanges(): bigint;
  protected abstract closeConnection(): void;

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

  private async execute<T>(kind: QueryKind, text: string, params: Params): Promise<T> {
    if (this.holder !== null && !this.owns()) await this.waitForOthers();
    return this.query(kind, text, params) as T;
  }

  get<T>(text: string, ...params: Params): Promise<T | undefined> {
    return this.execute("get", text, params);
  }

  all<T>(text: string, ...params: Params): Promise<T[]> {
    return this.execute("all", text, params);
  }

  value<T>(text: string, ...params: Params): Promise<T | undefined> {
    return this.execute("value", text, params);
  }

  values<T>(text: string, ...params: Params): Promise<T[]> {
    return this.execute("values", text, params);
  }

  row<T extends readonly unknown[]>(text: string, ...params: Params): Promise<T | undefined> {
    return this.execute("row", text, params);
  }

  rows<T extends readonly unknown[]>(text: string, ...params: Params): Promise<T[]> {
    return this.execute("rows", text, params);
  }

  run(text: string, ...params: Params): Promise<RunResult> {
    return this.execute("run", text, params);
  }

  async append(text: string, ...params: Params): Promise<void> {
    if (this.holder !== null && this.owns()) await this.hold(text, params);
    else await this.execute("run", text, params);
  }

  /** An appended row of the caller's own transaction: run at once, unless the driver batches them. */
  protected async hold(text: string, params: Params): Promise<void> {
    await this.query("run", text, params);
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.enter(fn, "deferred");
  }

  writeTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.enter(fn, "write");
  }

  private enter<T>(fn: () => Promise<T>, kind: BeginKind): Promise<T> {
    const frame = this.frames.getStore();
    if (frame !== undefined && frame.root === this.holder) return this.savepoint(frame, fn);
    return this.outermost(fn, kind);
  }

  private async outermost<T>(fn: () => Promise<T>, kind: BeginKind): Promise<T> {
    if (this.locked) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.locked = true;
    const held = performance.now();
    let ended!: () => void;
    const root = { depth: 0, ended: new Promise<void>((resolve) => (ended = resolve)) } as Frame;
    root.root = root;
    root.innermost = root;
    // Held before BEGIN is sent: on a connection that answers later, another context's statement must not run
    // between BEGIN and the body, inside this transaction.
    this.holder = root;
    try {
      await this.frames.run(root, () => this.begin(kind));
    } catch (error) {
      this.release(ended);
      throw error;
    }
    try {
      const result = await this.frames.run(root, fn);
      await this.frames.run(root, () => this.control("COMMIT"));
      return result;
    } catch (error) {
      if (this.connectionInTransaction()) await this.frames.run(root, () => this.control("ROLLBACK"));
      throw error;
    } finally {
      transactionsEnded++;
      this.release(ended);
      recordStoreTransaction(kind === "write" ? "write" : "read", held);
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
    // Taken before SAVEPOINT is sent, so a second nested call of the same moment is refused above.
    root.innermost = frame;
    try {
      await this.control(`SAVEPOINT ${name}`);
    } catch (error) {
      root.innermost = parent;
      throw error;
    }
    try {
      const result = await this.frames.run(frame, fn);
      await this.control(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (this.connectionInTransaction()) {
        await this.control(`ROLLBACK TO ${name}`);
        await this.control(`RELEASE ${name}`);
      }
      throw error;
    } finally {
      root.innermost = parent;
      transactionsEnded++;
    }
  }

  endedTransactions(): number {
    return transactionsEnded;
  }

  close(): void {
    // A new connection starts its own change count at zero: count the close as an ended transaction so read caches
    // built on the old connection are dropped.
    transactionsEnded++;
    watchStoreConnection(this, false);
    this.closeConnection();
  }
}
