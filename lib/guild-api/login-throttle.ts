// Password-guessing brake for the built-in provider's sign-in (the OAuth2 authorize page and the Developer Portal).
// Failed attempts are counted under three keys, and an attempt waits while any of them does:
//  - the account at this address (ACCOUNT_AT_ADDRESS_POLICY): past a few free failures each further one doubles the
//    wait (1 s, 2 s, 4 s … up to a cap). It falls on the guessing address only, so someone guessing from one address
//    cannot lock the owner out from another (they could, when this key was the account alone);
//  - the address (IP_POLICY): one address cannot try every account;
//  - the account from everywhere (ACCOUNT_WIDE): once failures come from several addresses within a window, the
//    account waits for every address except those where it signed in successfully lately, so a guesser with many
//    addresses is slowed and the owner, at an address they use, is not.
// A key forgets its failures after a quiet period. While a key is waiting, attempts are refused before any password
// hashing runs, so guessing costs the server nothing.
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

/** One account from one address: what one guesser meets. */
export const ACCOUNT_AT_ADDRESS_POLICY: ThrottlePolicy = {
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

/**
 * One account from many addresses: failures from `addresses` distinct addresses within `windowMs` make the account
 * wait, until fewer remain in the window, for every address without a successful sign-in to it in `trustedForMs`.
 * One address never trips it (each address counts once, however often it fails), so one guesser cannot lock the
 * owner out; five can, but only out of addresses the owner has not signed in from lately.
 */
export const ACCOUNT_WIDE = {
  addresses: 5,
  windowMs: 15 * 60_000,
  trustedForMs: 30 * 24 * 60 * 60_000,
} as const;

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
  /** Per account: the addresses that failed on it lately, each with its last failure, oldest first. */
  private readonly accountFailures = new Map<string, Map<string, number>>();
  /** "account address" pairs with a successful sign-in, and when; least recent first. */
  private readonly trusted = new Map<string, number>();

  constructor(
    private readonly maxKeys = MAX_THROTTLE_KEYS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Refuses while any key is waiting; otherwise counts the attempt as a failure until `succeeded()`. */
  begin(keys: readonly ThrottleKey[]): AttemptStart {
    return this.start(keys, 0, () => undefined);
  }

  /**
   * One sign-in attempt of `username` from `clientIp` (null: unknown), under its three keys (see the top of the
   * file). On success the address becomes one the account trusts, spared the account-wide wait.
   */
  beginSignIn(username: string, clientIp: string | null): AttemptStart {
    const now = this.clock();
    const account = accountName(username);
    const address = clientIp ?? "";
    const pair = `${account} ${address}`;
    const trustedAt = this.trusted.get(pair);
    const trusted = trustedAt !== undefined && now - trustedAt <= ACCOUNT_WIDE.trustedForMs;
    const start = this.start(
      signInThrottleKeys(username, clientIp),
      trusted ? 0 : this.accountWideWait(account, now),
      () => {
        this.accountFailures.get(account)?.delete(address);
        this.trusted.delete(pair);
        this.trusted.set(pair, this.clock());
        this.bound(this.trusted);
      },
    );
    if (start.allowed) this.failAccountWide(account, address, now);
    return start;
  }

  private start(keys: readonly ThrottleKey[], otherWaitMs: number, onSuccess: () => void): AttemptStart {
    const now = this.clock();
    let retryAfterMs = otherWaitMs;
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
          onSuccess();
        },
      },
    };
  }

  /** How long the account waits for untrusted addresses: until fewer than ACCOUNT_WIDE.addresses failed in the window. */
  private accountWideWait(account: string, now: number): number {
    const failures = this.accountFailures.get(account);
    if (!failures || failures.size < ACCOUNT_WIDE.addresses) return 0;
    const recent = [...failures.values()].filter((at) => now - at < ACCOUNT_WIDE.windowMs).sort((a, b) => b - a);
    if (recent.length < ACCOUNT_WIDE.addresses) return 0;
    // The window lets up once the addresses-th most recent failure leaves it.
    return recent[ACCOUNT_WIDE.addresses - 1] + ACCOUNT_WIDE.windowMs - now;
  }

  private failAccountWide(account: string, address: string, now: number): void {
    let failures = this.accountFailures.get(account);
    if (failures) this.accountFailures.delete(account);
    else failures = new Map();
    // Re-inserted so both maps stay least recently failed first.
    this.accountFailures.set(account, failures);
    failures.delete(address);
    failures.set(address, now);
    // Only the most recent few addresses decide; older ones, and ones out of the window, are dropped.
    for (const [oldest, at] of failures)
      if (failures.size > 2 * ACCOUNT_WIDE.addresses || now - at >= ACCOUNT_WIDE.windowMs) failures.delete(oldest);
      else break;
    this.bound(this.accountFailures);
  }

  /** Drops the least recent entries of `map` past the key bound. */
  private bound(map: Map<string, unknown>): void {
    while (map.size > this.maxKeys) map.delete(map.keys().next().value!);
  }

  /** How long `key` must still wait before another attempt, without counting one (0: it may try now). */
  waitFor(key: string): number {
    const entry = this.entries.get(key);
    return entry ? Math.max(0, entry.blockedUntil - this.clock()) : 0;
  }

  /** Entries currently held, keys, accounts and trusted addresses together (for tests of the bound). */
  get size(): number {
    return this.entries.size + this.accountFailures.size + this.trusted.size;
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
    this.bound(this.entries);
    this.sweep(now, policy);
  }

  /** A right password clears its account at that address; an address keeps its other failures but not this attempt. */
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

/** Usernames compare case-insensitively, as sign-in does. */
const accountName = (username: string) => username.trim().toLowerCase();

/**
 * The keys one sign-in attempt is counted under: the account at this address, and the address (the account-wide
 * brake is LoginThrottle.beginSignIn's own).
 */
export function signInThrottleKeys(username: string, clientIp: string | null): ThrottleKey[] {
  const account = `account:${accountName(username)}`;
  if (!clientIp) return [{ key: account, policy: ACCOUNT_AT_ADDRESS_POLICY }];
  return [
    { key: `${account}@${clientIp}`, policy: ACCOUNT_AT_ADDRESS_POLICY },
    { key: addressThrottleKey(clientIp), policy: IP_POLICY },
  ];
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
  const longest = Math.max(ACCOUNT_AT_ADDRESS_POLICY.maxDelayMs, IP_POLICY.maxDelayMs, ACCOUNT_WIDE.windowMs);
  return seconds >= 1 && seconds <= longest / 1000 ? seconds * 1000 : null;
}

/** A sign-in form's notice from its URL (`login_error`/`error`, `retry_after`): wrong credentials, or the wait. */
export function signInErrorMessage(code: string | undefined, retryAfter: string | undefined): string | null {
  if (code === undefined) return null;
  return code === "throttled" ? throttledMessage(retryAfterFromQuery(retryAfter)) : "Wrong username or password.";
}
