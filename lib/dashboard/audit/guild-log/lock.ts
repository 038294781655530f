// One writer at a time per guild for the history's guild-log side: the import of a page of the guild's audit log and
// the dashboard recording its own change each read what the other wrote before writing, so they take turns. Within
// this server process through a promise chain per guild, kept on globalThis (Next loads this module in several
// bundles: pages and actions, route handlers, and the lock must be one). The moderation scheduler's worker thread
// (cases/scheduler-thread.ts) records its changes too, and a thread has a globalThis of its own: there each turn is
// also taken from the chain of the thread that started it (takeTurnsFrom, lendTurn), so the process still has one chain per guild. On
// PostgreSQL, where several instances share the history, also across instances: the work runs while a transaction
// holds the guild's advisory lock.
import { databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { prisma } from "@/lib/dashboard/db";

/** A guild's turn in another thread of the process: resolves, once the turn is the caller's, to its release. */
export type TurnSource = (guildId: string) => Promise<() => void>;

const LOCKS_KEY = Symbol.for("guildhall.guildLogTurns");
interface Locks {
  chains: Map<string, Promise<unknown>>;
  /** Where else a turn must be taken before the work runs: its parent's chain, in a worker thread. */
  elsewhere: TurnSource | null;
}
const locks: Locks = ((globalThis as { [LOCKS_KEY]?: Locks })[LOCKS_KEY] ??= { chains: new Map(), elsewhere: null });

/** How long one turn may take before PostgreSQL gives the lock up (a page import is well under a second). */
const TURN_TIMEOUT_MS = 60_000;

export async function withGuildLogLock<T>(guildId: string, work: () => Promise<T>): Promise<T> {
  return inThisThread(guildId, async () => {
    const release = await locks.elsewhere?.(guildId);
    try {
      return await acrossInstances(guildId, work);
    } finally {
      release?.();
    }
  });
}

/**
 * In a worker thread: every turn here is also taken from `source` (its parent's chain, through lendTurn there).
 * The thread's own chain is taken first, so it waits on its parent for one turn at a time.
 */
export function takeTurnsFrom(source: TurnSource): void {
  locks.elsewhere = source;
}

/**
 * A turn of this thread's chain for the guild, lent to a worker thread: resolves, once it is the borrower's, to the
 * release the borrower's work ends with. Only this process's chain: the borrower takes PostgreSQL's lock itself.
 */
export function lendTurn(guildId: string): Promise<() => void> {
  return new Promise((lent) => {
    void inThisThread(guildId, () => new Promise<void>((release) => lent(() => release())));
  });
}

async function inThisThread<T>(guildId: string, work: () => Promise<T>): Promise<T> {
  const before = locks.chains.get(guildId) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  const tail = mine.catch(() => undefined);
  locks.chains.set(guildId, tail);
  try {
    return await mine;
  } finally {
    if (locks.chains.get(guildId) === tail) locks.chains.delete(guildId);
  }
}

function acrossInstances<T>(guildId: string, work: () => Promise<T>): Promise<T> {
  if (databaseProvider(databaseUrl()) !== "postgresql") return work();
  // The lock's transaction only holds the lock; the work's own statements run on the pool's other connections.
  return prisma.$transaction(
    async (tx) => {
      // Prisma has no advisory locks; this one statement is the lock itself, not data the store should own. It
      // selects 1, not the lock function's void, which the driver adapter cannot read.
      // eslint-disable-next-line no-restricted-syntax
      await tx.$queryRaw`SELECT 1 AS held FROM (SELECT pg_advisory_xact_lock(hashtext(${`guildhall.guild-log:${guildId}`}))) AS lock`;
      return work();
    },
    { maxWait: TURN_TIMEOUT_MS, timeout: TURN_TIMEOUT_MS },
  );
}
