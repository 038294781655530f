// Who an id is, for every page that shows user ids: one batched lookup over many ids (Get User per id, a few in
// flight at a time, the same id asked once), in front of a cache shared by all requests with a short TTL. Users the
// API already returned elsewhere (a member, a ban, an audit log page) prime the cache, so they cost no request.
import type { UserRef, UserRefs } from "./user-ref";
import { placeholderUser } from "./user-ref";

/** A user as the API returns it (Get User, a member's or a ban's user, an audit log page's users). */
export interface ApiUserLike {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  bot?: boolean;
}

export interface UserDirectoryOptions {
  /** How long a found user is trusted (names and avatars change rarely; a minute keeps pages cheap and fresh). */
  ttlMs?: number;
  /** How long "no such user" is trusted. */
  unknownTtlMs?: number;
  /** Beyond this many cached ids the oldest are dropped. */
  maxEntries?: number;
  /** Lookups in flight at once. */
  concurrency?: number;
  now?: () => number;
  avatarUrl: (userId: string, hash: string | null | undefined) => string | null;
}

/** Fetches one user: the user, null when the API has none (404); throws on any other failure. */
export type FetchUser = (id: string) => Promise<ApiUserLike | null>;

interface Entry {
  ref: Promise<UserRef>;
  expires: number;
}

export class UserDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly unknownTtlMs: number;
  private readonly maxEntries: number;
  private readonly concurrency: number;
  private readonly now: () => number;

  constructor(private readonly options: UserDirectoryOptions) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.unknownTtlMs = options.unknownTtlMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 20_000;
    this.concurrency = options.concurrency ?? 8;
    this.now = options.now ?? Date.now;
  }

  toRef(user: ApiUserLike): UserRef {
    return {
      id: user.id,
      displayName: user.global_name || user.username,
      username: user.username,
      avatarUrl: this.options.avatarUrl(user.id, user.avatar),
      bot: Boolean(user.bot),
      status: "found",
    };
  }

  /** Users the API returned elsewhere: cached as if looked up now. */
  prime(users: Iterable<ApiUserLike>): void {
    for (const user of users) this.store(user.id, Promise.resolve(this.toRef(user)), this.ttlMs);
  }

  /** Every id's ref; ids nobody could look up come back as placeholders (status "unresolved"), never as errors. */
  async lookup(ids: Iterable<string>, fetchUser: FetchUser): Promise<UserRefs> {
    const wanted = [...new Set(ids)];
    const now = this.now();
    const missing: string[] = [];
    const refs = new Map<string, Promise<UserRef>>();
    for (const id of wanted) {
      const entry = this.entries.get(id);
      if (entry && entry.expires > now) refs.set(id, entry.ref);
      else missing.push(id);
    }
    // Each missing id gets its promise at once (a lookup running in parallel for the same id waits for it); at most
    // `concurrency` requests are in flight.
    let running = 0;
    const queue: Array<() => void> = [];
    const acquire = () =>
      running < this.concurrency
        ? (running++, Promise.resolve())
        : new Promise<void>((resolve) => queue.push(() => (running++, resolve())));
    const release = () => {
      running--;
      queue.shift()?.();
    };
    for (const id of missing) {
      const ref = (async (): Promise<UserRef> => {
        await acquire();
        try {
          const user = await fetchUser(id);
          if (user) return this.toRef(user);
          this.store(id, Promise.resolve(placeholderUser(id, "unknown")), this.unknownTtlMs);
          return placeholderUser(id, "unknown");
        } catch {
          // A failed lookup is not remembered: the next page asks again.
          this.entries.delete(id);
          return placeholderUser(id, "unresolved");
        } finally {
          release();
        }
      })();
      this.store(id, ref, this.ttlMs);
      refs.set(id, ref);
    }
    const out: UserRefs = {};
    for (const [id, ref] of refs) out[id] = await ref;
    return out;
  }

  private store(id: string, ref: Promise<UserRef>, ttlMs: number): void {
    this.entries.delete(id);
    this.entries.set(id, { ref, expires: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
