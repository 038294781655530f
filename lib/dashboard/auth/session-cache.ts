// The signed-in moderator's session as last read, kept for a few seconds per session token in this server process.
// Every dashboard page reads it before its first byte, and the read (the session, its user and provider account,
// through Prisma) was the largest part of the guild shell's own time left (measured: about 1.7 ms of CPU per page, of
// a dynamic page's whole floor of about 6). Every write this process makes to a session, its user or its account
// forgets what is kept (sign-in, sign-out, token refresh, rolling expiry), so only a change made outside the process
// (another instance signing the person out) can go unseen, for at most FRESH_MS; the API judges every call by the
// token itself either way. Forgetting reaches every thread of the process: the moderation scheduler's worker thread
// refreshes moderators' grants too (data/acting-api.ts, cases/scheduler-thread.ts), and a refresh replaces the tokens
// a session kept here holds.
import "server-only";
import { BroadcastChannel } from "node:worker_threads";

/** How long a read is reused. */
export const SESSION_FRESH_MS = 3_000;
/** Sessions kept at most; the oldest leaves first. */
const MAX_ENTRIES = 1_000;

interface Kept<S> {
  session: S;
  userId: string;
  at: number;
}

/** On globalThis: Next loads this module in several bundles (pages, route handlers), and forgetting must reach all. */
const CACHE_KEY = Symbol.for("guildhall.dashboardSessions");
const kept: Map<string, Kept<unknown>> = ((globalThis as { [CACHE_KEY]?: Map<string, Kept<unknown>> })[CACHE_KEY] ??=
  new Map());

/** What one thread forgot, told to the process's other threads. */
type Forgotten = { session: string } | { user: string } | { all: true };

const CHANNEL_KEY = Symbol.for("guildhall.dashboardSessionsForgotten");
const others: BroadcastChannel = ((globalThis as { [CHANNEL_KEY]?: BroadcastChannel })[CHANNEL_KEY] ??=
  listenToOtherThreads());

function listenToOtherThreads(): BroadcastChannel {
  const channel = new BroadcastChannel("guildhall.dashboardSessionsForgotten");
  // Listening holds no process (or thread) open.
  channel.unref();
  channel.onmessage = (event) => forgetHere(event.data as Forgotten);
  return channel;
}

function forgetHere(what: Forgotten): void {
  if ("session" in what) kept.delete(what.session);
  else if ("user" in what) {
    for (const [token, entry] of kept) if (entry.userId === what.user) kept.delete(token);
  } else kept.clear();
}

/** Forgets here and in the process's other threads. */
function forget(what: Forgotten): void {
  forgetHere(what);
  others.postMessage(what);
}

/** The session for `sessionToken` from the last SESSION_FRESH_MS, else from `read()` (kept only when found). */
export async function readSessionThroughCache<S extends { userId: string }>(
  sessionToken: string,
  read: () => Promise<S | null>,
  now: () => number = Date.now,
): Promise<S | null> {
  const entry = kept.get(sessionToken) as Kept<S> | undefined;
  if (entry && now() - entry.at < SESSION_FRESH_MS) return entry.session;
  const session = await read();
  kept.delete(sessionToken);
  if (!session) return null;
  if (kept.size >= MAX_ENTRIES) kept.delete(kept.keys().next().value as string);
  kept.set(sessionToken, { session, userId: session.userId, at: now() });
  return session;
}

/** Forgets one session (signed out, its expiry moved). */
export function forgetSession(sessionToken: string): void {
  forget({ session: sessionToken });
}

/** Forgets every session of a dashboard user (their tokens or name changed, or they signed out everywhere). */
export function forgetUserSessions(userId: string): void {
  forget({ user: userId });
}

/** Forgets everything (an account changed and its user is not known here). */
export function forgetAllSessions(): void {
  forget({ all: true });
}
