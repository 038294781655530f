// One writer at a time per guild for the history's guild-log side: the import of a page of the guild's audit log and
// the dashboard recording its own change each read what the other wrote before writing, so they take turns (within
// this server process; the dashboard runs as one). Kept on globalThis: Next loads this module in several bundles
// (pages and actions, route handlers), and the lock must be one.
const LOCKS_KEY = Symbol.for("guildhall.guildLogLocks");
type Locks = Map<string, Promise<unknown>>;
const locks: Locks = ((globalThis as { [LOCKS_KEY]?: Locks })[LOCKS_KEY] ??= new Map());

export async function withGuildLogLock<T>(guildId: string, work: () => Promise<T>): Promise<T> {
  const before = locks.get(guildId) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  const tail = mine.catch(() => undefined);
  locks.set(guildId, tail);
  try {
    return await mine;
  } finally {
    if (locks.get(guildId) === tail) locks.delete(guildId);
  }
}
