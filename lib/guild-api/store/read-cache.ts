// Rows almost every request reads first (the caller's token, the guild, its roles, the caller's member and role ids),
// kept in memory until the database may have changed. Validity is checked on every read, not maintained by writers,
// so no write path can forget to invalidate:
//   - total_changes(): rows this connection has inserted, updated or deleted, ever (moves on every write here);
//   - PRAGMA data_version: moves when another connection commits (the seed, the token tool, the dashboard's Prisma);
//     on PostgreSQL, the count of other connections' commit notifications, caught up with when a read scope opens;
//   - a counter bumped when a transaction ends, because rows read after a write inside a transaction that is then
//     rolled back would otherwise outlive the rollback at an unchanged total_changes().
// Any change clears every cache: writes are rare next to reads, and a coarse rule is easy to trust. One exception, for
// bulk jobs that write on every request: a cache given a `generation` (a stamp that triggers move on every write to
// the tables it is built from, store/cache-generations.ts) is kept across this connection's writes and reloaded when
// the stamp it was built at is no longer current; other connections' commits still clear it.
// Cached values are frozen: a caller that tried to modify one would corrupt every later request's view.
//
// Cost: total_changes() and the counter cost well under a microsecond; data_version costs a few (SQLite looks at the
// WAL index for other connections' commits). A request's reads form one read scope (readScope): data_version is read
// once when the scope opens, as if the request read all its cached rows at that instant, while this connection's own
// writes and rollbacks are still seen on the very next read. Outside a scope, every read checks everything.
//
// Isolation: the caches are shared by every async context, and a transaction's reads may load its own uncommitted
// rows into them. So a read from any other context first waits until no transaction is open (as its statements
// would), and the transaction's end (commit or rollback) moves the ended-transaction counter, which empties them.
// A load that spans another context's transaction (it waited in the middle) is answered but not kept.
import type { MaybePromise } from "../maybe-promise";
import { caughtUpWithOtherConnections, dataVersion, endedTransactions, storeIdle, totalChanges } from "./db";

let seenChanges = -1n;
let seenDataVersion = -1n;
let seenTransactions = -1;
/**
 * Read scopes open now, process-wide. Requests interleave at their awaits, so while any scope is open a cached read
 * anywhere skips the data_version check: it sees other connections' commits as of the latest scope's opening (every
 * request opens one), which is as fresh as a scope promises. Counting scopes per async context instead
 * (AsyncLocalStorage) cost about 20 µs of CPU per request on the hot cached paths (Get Guild, List Guild Members).
 */
let scopeDepth = 0;
const caches: Array<Map<unknown, unknown>> = [];
/** Caches with a generation: emptied only by other connections' commits. */
const stampedCaches: Array<Map<unknown, unknown>> = [];

function clearAll(): void {
  for (const cache of caches) cache.clear();
}

/** Other connections' commits: data_version (a separate statement: pragma_data_version() in a SELECT costs 3× more). */
function checkOtherConnections(): void {
  const version = dataVersion();
  if (version === seenDataVersion) return;
  clearAll();
  for (const cache of stampedCaches) cache.clear();
  seenDataVersion = version;
}

/** This connection's writes and ended transactions (rollbacks). */
function checkThisConnection(): void {
  const changes = totalChanges();
  const transactions = endedTransactions();
  if (changes === seenChanges && transactions === seenTransactions) return;
  clearAll();
  seenChanges = changes;
  seenTransactions = transactions;
}

/**
 * Runs `fn` as one read scope: other connections' commits are checked once, now; inside, cached reads check only
 * this connection's writes. Open it where the reads must see one moment anyway: a request's judgement and handler,
 * inside the write transaction when there is one (no other connection can commit while it holds the lock).
 */
export function readScope<T>(fn: () => MaybePromise<T>): MaybePromise<T> {
  const idle = storeIdle();
  return idle ? idle.then(() => readScopeWhenIdle(fn)) : readScopeWhenIdle(fn);
}

function readScopeWhenIdle<T>(fn: () => MaybePromise<T>): MaybePromise<T> {
  const caughtUp = caughtUpWithOtherConnections();
  return caughtUp ? caughtUp.then(() => runReadScope(fn)) : runReadScope(fn);
}

/** `fn` inside the scope; the scope ends when its answer is there (at once when it is not a promise). */
function runReadScope<T>(fn: () => MaybePromise<T>): MaybePromise<T> {
  checkOtherConnections();
  scopeDepth++;
  let answer: MaybePromise<T>;
  try {
    answer = fn();
  } catch (error) {
    scopeDepth--;
    throw error;
  }
  if (answer instanceof Promise) return answer.finally(() => scopeDepth--);
  scopeDepth--;
  return answer;
}

function invalidateIfChanged(): void {
  if (scopeDepth === 0) checkOtherConnections();
  checkThisConnection();
}

/** A stamp of everything that could make a load read differently: compared before and after an asynchronous load. */
const loadStamp = () => `${totalChanges()}:${endedTransactions()}`;

export interface ReadCacheOptions<V> {
  /** At most this many keys (the cache is emptied when full). */
  maxEntries?: number;
  /** Values worth keeping; others are answered but not kept (say, unknown tokens, so garbage cannot crowd out real ones). */
  keep?: (value: V) => boolean;
  /** When a kept value stops being true with no write at all (ms since the epoch): it is loaded again from then on. */
  validUntil?: (value: V) => number;
  /**
   * The current stamp of the tables the values are built from (read inside the caller's transaction, so a write
   * rolled back restores it): a value is valid while its stamp is current, whatever else this connection writes.
   */
  generation?: () => Promise<unknown>;
}

/** A kept value (wrapped: undefined is a value too). */
interface Kept<V> {
  value: V;
}

const kept = <V>(value: V): Kept<V> => ({ value });

/**
 * `read(key)`, after any other context's open transaction has ended (as its statements would wait); a throw becomes the
 * answer's rejection, as in an async function.
 */
function whenIdle<K, V>(read: (key: K) => MaybePromise<V>): (key: K) => MaybePromise<V> {
  return (key: K) => {
    const idle = storeIdle();
    if (idle) return idle.then(() => read(key));
    try {
      return read(key);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/**
 * A read-through cache of `load`, valid until the database may have changed. A hit answers the value itself, not a
 * promise of it (maybe-promise.ts: the hot path makes no promise it can avoid); a miss answers the load's promise.
 */
export function readCache<K, V>(
  load: (key: K) => Promise<V>,
  options: number | ReadCacheOptions<V> = {},
): (key: K) => MaybePromise<V> {
  const {
    maxEntries = 10_000,
    keep,
    validUntil,
    generation,
  } = typeof options === "number" ? { maxEntries: options } : options;
  if (generation) return stampedCache(load, { maxEntries, keep, validUntil, generation });
  const cache = new Map<K, Kept<V>>();
  caches.push(cache as Map<unknown, unknown>);
  const loadAndKeep = async (key: K): Promise<V> => {
    const before = loadStamp();
    const value = deepFreeze(await load(key));
    if ((keep && !keep(value)) || loadStamp() !== before) return value;
    if (cache.size >= maxEntries) cache.clear();
    cache.set(key, kept(value));
    return value;
  };
  return whenIdle((key: K) => {
    invalidateIfChanged();
    const cached = cache.get(key);
    if (cached !== undefined && !(validUntil && validUntil(cached.value) <= Date.now())) return cached.value;
    return loadAndKeep(key);
  });
}

function stampedCache<K, V>(
  load: (key: K) => Promise<V>,
  {
    maxEntries,
    keep,
    validUntil,
    generation,
  }: Required<Pick<ReadCacheOptions<V>, "maxEntries" | "generation">> & ReadCacheOptions<V>,
): (key: K) => MaybePromise<V> {
  // `checkedAt`: the load stamp when the value's stamp was last found current. While this connection has written
  // nothing and ended no transaction since, the stamp cannot have moved (other connections' commits empty the cache
  // instead), so the value is answered without reading the stamp: the read-mostly case costs no statement.
  const cache = new Map<K, Kept<V> & { stamp: unknown; checkedAt: string }>();
  stampedCaches.push(cache as Map<unknown, unknown>);
  const checkAndLoad = async (
    key: K,
    cached: (Kept<V> & { stamp: unknown; checkedAt: string }) | undefined,
    now: string,
  ): Promise<V> => {
    const stamp = await generation();
    if (cached && cached.stamp === stamp) {
      cached.checkedAt = now;
      return cached.value;
    }
    const value = deepFreeze(await load(key));
    if ((keep && !keep(value)) || loadStamp() !== now) return value;
    if (cache.size >= maxEntries) cache.clear();
    cache.set(key, { ...kept(value), stamp, checkedAt: now });
    return value;
  };
  return whenIdle((key: K) => {
    if (scopeDepth === 0) checkOtherConnections();
    const found = cache.get(key);
    const cached =
      found !== undefined && validUntil !== undefined && validUntil(found.value) <= Date.now() ? undefined : found;
    const now = loadStamp();
    if (cached && cached.checkedAt === now) return cached.value;
    return checkAndLoad(key, cached, now);
  });
}

function deepFreeze<T>(value: T): T {
  // Byte buffers (answers kept as their UTF-8 bytes) cannot be frozen; they are only ever written to sockets.
  if (ArrayBuffer.isView(value)) return value;
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
