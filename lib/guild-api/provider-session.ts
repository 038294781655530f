// The built-in provider's own sign-in (the /oauth2/authorize and /developers pages): an HMAC-signed cookie naming
// the user and its expiry, so a signed-in user is not asked for a password again. The key is
// GUILDHALL_PROVIDER_SECRET, or a random key generated once and kept beside the database (git-ignored), so every
// process on that database agrees and sessions survive restarts.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import { secretsPathBase } from "@/lib/db/database-url";

export const PROVIDER_SESSION_COOKIE = "guildhall_provider_session";
export const PROVIDER_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

let cachedKey: { source: string; key: Buffer } | null = null;

function sessionKey(): Buffer {
  const fromEnv = process.env.GUILDHALL_PROVIDER_SECRET;
  const file = `${secretsPathBase()}.provider-secret`;
  const source = fromEnv ? "env" : file;
  if (cachedKey?.source === source) return cachedKey.key;
  let key: Buffer;
  if (fromEnv) {
    key = Buffer.from(fromEnv);
  } else {
    try {
      key = fs.readFileSync(file);
    } catch {
      // First use on this database; "wx" keeps a concurrent process's key if it wrote one first.
      try {
        fs.writeFileSync(file, randomBytes(32), { mode: 0o600, flag: "wx" });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      key = fs.readFileSync(file);
    }
  }
  cachedKey = { source, key };
  return key;
}

const sign = (payload: string) => createHmac("sha256", sessionKey()).update(payload).digest("base64url");

/** The cookie value for a session of `userId`: "<user id>.<expiry ms>.<hmac>". */
export function createProviderSession(userId: bigint, now = Date.now()): string {
  const payload = `${userId}.${now + PROVIDER_SESSION_TTL_MS}`;
  return `${payload}.${sign(payload)}`;
}

/** The signed-in user's id, or null for a missing, forged or expired cookie. */
export function readProviderSession(cookie: string | undefined, now = Date.now()): bigint | null {
  if (!cookie) return null;
  const parts = cookie.split(".");
  if (parts.length !== 3 || !/^\d{1,20}$/.test(parts[0]) || !/^\d{1,16}$/.test(parts[1])) return null;
  const expected = Buffer.from(sign(`${parts[0]}.${parts[1]}`));
  const actual = Buffer.from(parts[2]);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  if (Number(parts[1]) <= now) return null;
  return BigInt(parts[0]);
}

/** How the cookie is set: unreadable by scripts, sent on top-level navigations back from other sites (Lax), site-wide. */
export function providerSessionCookieOptions() {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    maxAge: PROVIDER_SESSION_TTL_MS / 1000,
    secure: process.env.PUBLIC_URL?.startsWith("https://") ?? false,
  };
}
