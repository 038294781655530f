// Secrets at rest: tokens, codes and client secrets are stored only as sha256 hashes.
// Passwords (the built-in sign-in page) use scrypt with a per-user salt.
import { createHash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function randomToken(bytes = 30): string {
  return randomBytes(bytes).toString("base64url");
}

/** Discord-like bot token: base64(user id) . base64(timestamp) . random, so it names its bot at a glance. */
export function newBotToken(botUserId: bigint): string {
  const id = Buffer.from(String(botUserId)).toString("base64url");
  const time = Buffer.from(String(Math.floor(Date.now() / 1000))).toString("base64url");
  return `${id}.${time}.${randomToken(27)}`;
}

export function hashPassword(password: string): string {
  const salt = randomBytes(16).toString("hex");
  return `${salt}:${scryptSync(password, salt, 32).toString("hex")}`;
}

export function verifyPassword(password: string, stored: string | null): boolean {
  if (!stored) return false;
  const [salt, hash] = stored.split(":");
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, "hex");
  const actual = scryptSync(password, salt, expected.length);
  return timingSafeEqual(actual, expected);
}
