// Prisma's better-sqlite3 driver adapter for the dashboard's client, changed in two ways.
//
// Each transaction is begun by BEGIN IMMEDIATE (the file's write lock taken before its first read), as the guild API's
// store begins its writes (lib/guild-api/store/sqlite-driver.ts). The adapter's own BEGIN is deferred: a transaction
// that reads, then writes, fails at once (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT) when another connection writes in
// between, where BEGIN IMMEDIATE waits its turn (the connection's busy timeout). Another connection writing the
// dashboard's tables is not only another instance on the same file: every server process has two, its own thread's
// and the moderation scheduler's worker thread's (cases/scheduler-thread.ts). Every transaction the dashboard makes
// writes, so none takes the lock for nothing, and a transaction's statements run without a turn of the event loop
// between them (Prisma's interactive transactions over this synchronous driver), so the lock is held for its own work
// only.
//
// Statements outside a transaction run one per turn of the event loop. better-sqlite3 answers at once, so a page's
// reads (a Promise.all of them, each compiled, run and mapped by Prisma) ran back to back in one microtask drain: on
// the Bans and Cases pages that held the thread 20 to 170 ms, and every API request that arrived meanwhile waited it
// out (the soak's p99, bench/soak.ts). One per turn, the loop polls between two statements and the API's requests
// get in; a page waits a turn per statement, microseconds when the process is idle.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { TurnQueue } from "@/lib/server/turn-queue";

type Connected = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
/** What of the adapter's better-sqlite3 connection this touches. */
interface Preparing {
  prepare(source: string): { run(): unknown };
}

const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === "SQLITE_BUSY";

/** BEGIN IMMEDIATE, or a deferred BEGIN when the write lock could not be had in time. */
const beginImmediately = (prepare: Preparing["prepare"]) => ({
  run() {
    try {
      return prepare("BEGIN IMMEDIATE").run();
    } catch (error) {
      if (!isBusy(error)) throw error;
      return prepare("BEGIN").run();
    }
  },
});

/** A statement method of the adapter, run when its turn comes. */
function inTurns<Query, Result>(turns: TurnQueue<() => void>, method: (query: Query) => Promise<Result>) {
  return (query: Query) =>
    new Promise<Result>((resolve, reject) => turns.push(() => void method(query).then(resolve, reject)));
}

export class DashboardSQLite3 extends PrismaBetterSQLite3 {
  override async connect(): Promise<Connected> {
    const adapter = await super.connect();
    // The adapter keeps its connection as `client` and begins a transaction with client.prepare("BEGIN").run()
    // (@prisma/adapter-better-sqlite3 6.19): that one statement's text is replaced.
    const client = (adapter as Connected & { client: Preparing }).client;
    const prepare = client.prepare.bind(client);
    client.prepare = (source) => (source === "BEGIN" ? beginImmediately(prepare) : prepare(source));
    // Only the adapter's own statements wait their turn: a transaction's run on the transaction object it returns,
    // at once (see above). Prisma calls these methods on the adapter each time, so replacing them here is enough.
    const turns = new TurnQueue<() => void>((statement) => statement(), 1);
    adapter.queryRaw = inTurns(turns, adapter.queryRaw.bind(adapter));
    adapter.executeRaw = inTurns(turns, adapter.executeRaw.bind(adapter));
    return adapter;
  }
}
