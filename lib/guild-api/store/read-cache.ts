// Rows almost every request reads first (the guild, its roles, the caller's member and role ids), kept in memory
// until the database may have changed. Validity is checked on every read, not maintained by writers, so no write
// path can forget to invalidate:
//   - total_changes(): rows this connection has inserted, updated or deleted, ever (moves on every write here);
//   - data_version: moves when another connection commits (the seed, the token tool, the dashboard's Prisma);
//   - a counter bumped when a transaction ends, because rows read after a write inside a transaction that is then
//     rolled back would otherwise outlive the rollback at an unchanged total_changes().
// Any change clears every cache: writes are rare next to reads, and a coarse rule is easy to trust.
// Cached values are frozen: a caller that tried to modify one would corrupt every later request's view.
import { endedTransactions, sql } from "./db";

let seenChanges = -1n;
let seenDataVersion = -1n;
let seenTransactions = -1;
const caches: Array<Map<unknown, unknown>> = [];

function invalidateIfChanged(): void {
  const [changes, dataVersion] = sql("SELECT total_changes(), (SELECT data_version FROM pragma_data_version())")
    .raw(true)
    .get() as [bigint, bigint];
  const transactions = endedTransactions();
  if (changes === seenChanges && dataVersion === seenDataVersion && transactions === seenTransactions) return;
  for (const cache of caches) cache.clear();
  seenChanges = changes;
  seenDataVersion = dataVersion;
  seenTransactions = transactions;
}

/** A read-through cache of `load`, valid until the database may have changed; at most `maxEntries` keys. */
export function readCache<K, V>(load: (key: K) => V, maxEntries = 10_000): (key: K) => V {
  const cache = new Map<K, V>();
  caches.push(cache as Map<unknown, unknown>);
  return (key: K) => {
    invalidateIfChanged();
    if (cache.has(key)) return cache.get(key) as V;
    const value = deepFreeze(load(key));
    if (cache.size >= maxEntries) cache.clear();
    cache.set(key, value);
    return value;
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
