// The built-in provider's own sign-in (the /oauth2/authorize and /developers pages): an HMAC-signed cookie
// naming the user and its expiry. The key is PROVIDER_SESSION_SECRET, or a random key generated once and
// kept beside the database (git-ignored).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import { databaseFile } from "@/lib/db/database-url";

export const PROVIDER_SESSION_COOKIE = "guildhall_provider_session";
export const PROVIDER_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

let key: Buffer | null = null;

function sessionKey(): Buffer {
  if (key) return key;
  if (process.env.PROVIDER_SESSION_SECRET) return (key = Buffer.from(process.env.PROVIDER_SESSION_SECRET));
  const file = `${databaseFile()}.provider-secret`;
  try {
    key = fs.readFileSync(file);
  } catch {
    key = randomBytes(32);
    fs.writeFileSync(file, key, { mode: 0o600 });
  }
  return key;
}

const sign = (payload: string) => createHmac("sha256", sessionKey()).update(payload).digest("base64url");

export function createProviderSession(userId: bigint, now = Date.now()): string {
  const payload = `${userId}.${now + PROVIDER_SESSION_TTL_MS}`;
  return `${payload}.${sign(payload)}`;
}

/** The signed-in user's id, or null for a missing, forged or expired cookie. */
export function readProviderSession(cookie: string | undefined, now = Date.now()): bigint | null {
  if (!cookie) return null;
  const parts = cookie.split(".");
  if (parts.length !== 3 || !/^\d+$/.test(parts[0]) || !/^\d+$/.test(parts[1])) return null;
  const expected = Buffer.from(sign(`${parts[0]}.${parts[1]}`));
  const actual = Buffer.from(parts[2]);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  if (Number(parts[1]) <= now) return null;
  return BigInt(parts[0]);
}
