// The built-in provider's own sign-in (the OAuth2 authorize page and the Developer Portal share it): username and
// password, checked with async scrypt behind the guessing brake (login-throttle.ts). A throttled attempt is refused
// before any hashing; an unknown username costs the same hashing as a wrong password, so timing names no account.
// Wrong passwords for an account are counted in the database, and its owner is told after their next successful
// sign-in (signInNoticeFor, shown on the provider's pages until dismissed): the brake no longer locks the owner out,
// so they should hear that someone was guessing.
import {
  clearSignInNotice,
  countWrongPassword,
  findSignInNotice,
  moveWrongPasswordsToNotice,
} from "../store/sign-in-notices";
import { findPasswordByUsername } from "../store/users";
import { verifyPassword } from "../tokens";
import { processSignInThrottle, type LoginThrottle } from "../login-throttle";

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
  const start = throttle.beginSignIn(username, options.clientIp ?? null);
  if (!start.allowed) return { ok: false, reason: "throttled", retryAfterMs: start.retryAfterMs };
  const user = await findPasswordByUsername(username.trim());
  const right = await verifyPassword(password, user ? user.password_hash : null);
  if (!user || !right) {
    if (user) await countWrongPassword(user.id, Date.now());
    return { ok: false, reason: "wrong-credentials" };
  }
  start.attempt.succeeded();
  await moveWrongPasswordsToNotice(user.id);
  return { ok: true, userId: user.id };
}

export interface SignInNotice {
  /** Wrong passwords refused before the owner's latest successful sign-ins, not yet dismissed. */
  count: number;
  /** When the last of them was typed (ms), if known. */
  lastAt: number | null;
  message: string;
}

/** What to tell `userId` on the page after signing in: the wrong passwords refused meanwhile, or null. */
export async function signInNoticeFor(userId: bigint): Promise<SignInNotice | null> {
  const row = await findSignInNotice(userId);
  if (!row) return null;
  const count = Number(row.notice_count);
  const lastAt = row.notice_last_at === null ? null : Number(row.notice_last_at);
  return { count, lastAt, message: signInNoticeMessage(count, lastAt) };
}

/** "3 sign-in attempts with a wrong password were refused since your last sign-in; the last on …". */
export function signInNoticeMessage(count: number, lastAt: number | null): string {
  const attempts =
    count === 1
      ? "1 sign-in attempt with a wrong password was"
      : `${count} sign-in attempts with a wrong password were`;
  const when =
    lastAt === null
      ? ""
      : `; the last on ${new Date(lastAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
  return `${attempts} refused since your last sign-in${when}. If they were not yours, someone tried to guess your password.`;
}

/** The owner has read the notice. */
export async function dismissSignInNotice(userId: bigint): Promise<void> {
  await clearSignInNotice(userId);
}
