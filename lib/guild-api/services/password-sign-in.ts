// The built-in provider's own sign-in (the OAuth2 authorize page and the Developer Portal share it): username and
// password, checked with async scrypt behind the guessing brake (login-throttle.ts). A throttled attempt is refused
// before any hashing; an unknown username costs the same hashing as a wrong password, so timing names no account.
import { findPasswordByUsername } from "../store/users";
import { verifyPassword } from "../tokens";
import { processSignInThrottle, signInThrottleKeys, type LoginThrottle } from "../login-throttle";

export type PasswordSignInResult =
  | { ok: true; userId: bigint }
  | { ok: false; reason: "wrong-credentials" }
  | { ok: false; reason: "throttled"; retryAfterMs: number };

/** The process's brake (see login-throttle.ts). */
export const signInThrottle = processSignInThrottle();

/** The user id for a right username + password (never for bots), unless too many attempts failed lately. */
export async function signInWithPassword(
  username: string,
  password: string,
  options: { clientIp?: string | null; throttle?: LoginThrottle } = {},
): Promise<PasswordSignInResult> {
  const throttle = options.throttle ?? signInThrottle;
  const start = throttle.begin(signInThrottleKeys(username, options.clientIp ?? null));
  if (!start.allowed) return { ok: false, reason: "throttled", retryAfterMs: start.retryAfterMs };
  const user = await findPasswordByUsername(username.trim());
  const right = await verifyPassword(password, user ? user.password_hash : null);
  if (!user || !right) return { ok: false, reason: "wrong-credentials" };
  start.attempt.succeeded();
  return { ok: true, userId: user.id };
}
