// One writer at a time per guild for the history's guild-log side: the import of a page of the guild's audit log and
// the dashboard recording its own change each read what the other wrote before writing, so they take turns. Within
// this server process through a promise chain per guild, kept on globalThis (Next loads this module in several
// bundles: pages and actions, route handlers, and the lock must be one). On PostgreSQL, where several instances
// share the history, also across instances: the work runs while a transaction holds the guild's advisory lock.
import { databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { prisma } from "@/lib/dashboard/db";

const LOCKS_KEY = Symbol.for("guildhall.guildLogLocks");
type Locks = Map<string, Promise<unknown>>;
const locks: Locks = ((globalThis as { [LOCKS_KEY]?: Locks })[LOCKS_KEY] ??= new Map());

/** How long one turn may take before PostgreSQL gives the lock up (a page import is well under a second). */
const TURN_TIMEOUT_MS = 60_000;

export async function withGuildLogLock<T>(guildId: string, work: () => Promise<T>): Promise<T> {
  const before = locks.get(guildId) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(() => acrossInstances(guildId, work));
  const tail = mine.catch(() => undefined);
  locks.set(guildId, tail);
  try {
    return await mine;
  } finally {
    if (locks.get(guildId) === tail) locks.delete(guildId);
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
