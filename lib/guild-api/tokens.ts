// Secrets at rest: tokens, codes and client secrets are stored only as sha256 hashes.
// Passwords (the built-in sign-in page) use scrypt with a per-user salt; checking one runs on libuv's thread pool
// (about 50 ms of CPU), never on the event loop.
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number) => Promise<Buffer>;

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

/** A new password hash with its own random salt. Synchronous: for the seed, which runs before any request. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16).toString("hex");
  return `${salt}:${scryptSync(password, salt, 32).toString("hex")}`;
}

/** A hash no password matches, checked for unknown users so their answer takes as long as a wrong password's. */
const DECOY_HASH = `${"0".repeat(32)}:${"0".repeat(64)}`;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [salt, hash] = (stored ?? DECOY_HASH).split(":");
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, "hex");
  const actual = await scryptAsync(password, salt, expected.length);
  return stored !== null && timingSafeEqual(actual, expected);
}
