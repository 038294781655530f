// The moderators' OAuth2 tokens are encrypted before they reach DashboardAccount, so a copy of the database (a
// backup, a leaked file) yields no usable token. AES-256-GCM with a random 12-byte IV per value and its 16-byte
// authentication tag, the column's name as associated data (a value moved to another column fails to decrypt),
// and a version prefix so the scheme can change later. The key is derived with HKDF from the app's secret
// (NEXTAUTH_SECRET, or the random secret created 0600 beside the database on first start: lib/dashboard/config.ts).
import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { nextAuthSecret } from "@/lib/dashboard/config";

/** Stored values start with this; anything else is a token stored in plain text before encryption existed. */
export const ENCRYPTED_PREFIX = "enc:v1:";

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_INFO = "guildhall dashboard-account tokens v1";

export type TokenColumn = "access_token" | "refresh_token" | "id_token";

let cachedKey: { secret: string; key: Buffer } | null = null;

function key(): Buffer {
  const secret = nextAuthSecret();
  if (cachedKey?.secret !== secret)
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "guildhall", KEY_INFO, 32)) };
  return cachedKey.key;
}

/** The value as stored: `enc:v1:` + base64url(iv ‖ tag ‖ ciphertext). Null stays null. */
export function encryptToken(value: string | null | undefined, column: TokenColumn): string | null {
  if (value === null || value === undefined) return null;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(column));
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return ENCRYPTED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

/**
 * The token, or null when none is stored or it cannot be decrypted (the secret changed, the value was altered):
 * either way the moderator signs in again. Values stored before encryption are read as they are and encrypted
 * the next time they are written (every refresh and sign-in writes them).
 */
export function decryptToken(stored: string | null | undefined, column: TokenColumn): string | null {
  if (stored === null || stored === undefined) return null;
  if (!stored.startsWith(ENCRYPTED_PREFIX)) return stored;
  const raw = Buffer.from(stored.slice(ENCRYPTED_PREFIX.length), "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(column));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
