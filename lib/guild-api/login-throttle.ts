// Password-guessing brake for the built-in provider's sign-in (the OAuth2 authorize page and the Developer Portal).
// Failed attempts are counted per account and per client IP; past a few free failures each further one doubles the
// wait (1 s, 2 s, 4 s … up to a cap), and a key forgets its failures after a quiet period. While a key is waiting,
// attempts are refused before any password hashing runs, so guessing costs the server nothing.
//
// An attempt counts as a failure from the moment it starts until it succeeds: parallel guessers cannot all slip
// through before the first failure is recorded. State is in memory, bounded in size (oldest keys are dropped
// first); one process holds it.

export interface ThrottlePolicy {
  /** Failures allowed before the first wait: the attempt after this many is refused until the wait is over. */
  freeFailures: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key with no failure for this long starts over. */
  forgetAfterMs: number;
  /**
   * An attempt refused because another key is waiting still counts as a failure of this key. True for addresses:
   * one address that keeps guessing at a locked account is held back itself, and then the server turns it away
   * before any work (lib/server/sign-in-gate.ts). False for accounts, so a locked-out address cannot lock others.
   */
  countsRefusals: boolean;
}

export const ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
  forgetAfterMs: 15 * 60_000,
  countsRefusals: false,
};

/** Looser than per account: many people may share one address (NAT), but one address may not try every account. */
export const IP_POLICY: ThrottlePolicy = {
  freeFailures: 20,
  baseDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
  forgetAfterMs: 15 * 60_000,
  countsRefusals: true,
};

/** Keys kept at most (each is a few dozen bytes); beyond it the least recently failed are forgotten. */
export const MAX_THROTTLE_KEYS = 50_000;

interface Entry {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

export interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
}

export type AttemptStart = { allowed: true; attempt: Attempt } | { allowed: false; retryAfterMs: number };

export interface Attempt {
  /** The password was right: the account's failures are cleared and this attempt no longer counts. */
  succeeded(): void;
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxKeys = MAX_THROTTLE_KEYS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Refuses while any key is waiting; otherwise counts the attempt as a failure until `succeeded()`. */
  begin(keys: readonly ThrottleKey[]): AttemptStart {
    const now = this.clock();
    let retryAfterMs = 0;
    const free: ThrottleKey[] = [];
    for (const throttleKey of keys) {
      const wait = (this.entries.get(throttleKey.key)?.blockedUntil ?? 0) - now;
      if (wait > 0) retryAfterMs = Math.max(retryAfterMs, wait);
      else free.push(throttleKey);
    }
    if (retryAfterMs > 0) {
      for (const { key, policy } of free) if (policy.countsRefusals) this.fail(key, policy, now);
      return { allowed: false, retryAfterMs };
    }
    for (const { key, policy } of keys) this.fail(key, policy, now);
    let settled = false;
    return {
      allowed: true,
      attempt: {
        succeeded: () => {
          if (settled) return;
          settled = true;
          for (const { key } of keys) this.forgive(key);
        },
      },
    };
  }

  /** How long `key` must still wait before another attempt, without counting one (0: it may try now). */
  waitFor(key: string): number {
    const entry = this.entries.get(key);
    return entry ? Math.max(0, entry.blockedUntil - this.clock()) : 0;
  }

  /** Keys currently held (for tests of the bound). */
  get size(): number {
    return this.entries.size;
  }

  private fail(key: string, policy: ThrottlePolicy, now: number): void {
    const previous = this.entries.get(key);
    const stale = !previous || now - previous.lastFailureAt > policy.forgetAfterMs;
    const failures = stale ? 1 : previous.failures + 1;
    const over = failures - policy.freeFailures + 1;
    const delay = over > 0 ? Math.min(policy.baseDelayMs * 2 ** (over - 1), policy.maxDelayMs) : 0;
    // Re-inserted so the Map's order is least recently failed first.
    this.entries.delete(key);
    this.entries.set(key, { failures, lastFailureAt: now, blockedUntil: delay ? now + delay : 0 });
    while (this.entries.size > this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    this.sweep(now, policy);
  }

  /** A right password clears its account; an address keeps its other failures but not this attempt. */
  private forgive(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (key.startsWith("account:") || entry.failures <= 1) this.entries.delete(key);
    else entry.failures -= 1;
  }

  /** Drops a few forgotten keys from the oldest end, so idle entries do not wait for the size bound. */
  private sweep(now: number, policy: ThrottlePolicy): void {
    let checked = 0;
    for (const [key, entry] of this.entries) {
      if (++checked > 8 || now - entry.lastFailureAt <= policy.forgetAfterMs) break;
      this.entries.delete(key);
    }
  }
}

/** The keys one sign-in attempt is counted under. Usernames compare case-insensitively, as sign-in does. */
export function signInThrottleKeys(username: string, clientIp: string | null): ThrottleKey[] {
  const keys: ThrottleKey[] = [{ key: `account:${username.trim().toLowerCase()}`, policy: ACCOUNT_POLICY }];
  if (clientIp) keys.push({ key: addressThrottleKey(clientIp), policy: IP_POLICY });
  return keys;
}

const SHARED_THROTTLE = Symbol.for("guildhall.signInThrottle");

/**
 * The one brake of this process. Kept on globalThis because this module is loaded twice in one process: by the
 * server, whose sign-in gate refuses locked-out addresses before Next (lib/server/sign-in-gate.ts), and inside
 * Next's own server bundle, where the sign-in actions run. Both must count into the same brake.
 */
export function processSignInThrottle(): LoginThrottle {
  const shared = globalThis as Record<symbol, LoginThrottle | undefined>;
  return (shared[SHARED_THROTTLE] ??= new LoginThrottle());
}

export const addressThrottleKey = (clientIp: string) => `ip:${clientIp}`;

/** "30 seconds", "1 minute", "5 minutes": the wait in words, rounded up. */
export function describeWait(retryAfterMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** What a refused sign-in tells the person: "Too many attempts. Try again in 30 seconds." */
export function throttledMessage(retryAfterMs: number | null): string {
  return retryAfterMs === null
    ? "Too many attempts. Try again later."
    : `Too many attempts. Try again in ${describeWait(retryAfterMs)}.`;
}

/** The wait carried in a sign-in page's URL (`retry_after`, whole seconds), or null when absent or implausible. */
export function retryAfterFromQuery(value: string | undefined): number | null {
  if (!value || !/^\d{1,5}$/.test(value)) return null;
  const seconds = Number(value);
  return seconds >= 1 && seconds <= ACCOUNT_POLICY.maxDelayMs / 1000 ? seconds * 1000 : null;
}

/** A sign-in form's notice from its URL (`login_error`/`error`, `retry_after`): wrong credentials, or the wait. */
export function signInErrorMessage(code: string | undefined, retryAfter: string | undefined): string | null {
  if (code === undefined) return null;
  return code === "throttled" ? throttledMessage(retryAfterFromQuery(retryAfter)) : "Wrong username or password.";
}
