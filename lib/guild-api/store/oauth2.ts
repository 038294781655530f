// The oauth2_tokens table (an access token and its refresh token form one row, a "pair"; the pairs one grant produces
// through refreshes form a family) and oauth2_codes (authorization codes). Only SHA-256 hashes are stored.
import { sql } from "./db";

/** What authenticating a Bearer token reads. */
export interface AccessTokenRow {
  id: bigint;
  user_id: bigint;
  application_id: bigint;
  scopes: string;
  expires_at: bigint;
}

export interface StoredTokenRow {
  id: bigint;
  application_id: bigint;
  user_id: bigint;
  scopes: string;
  expires_at: bigint;
  created_at: bigint;
  revoked_at: bigint | null;
}

export interface RefreshTokenRow extends StoredTokenRow {
  /** The family the pair belongs to (its own id for pairs issued before families were recorded). */
  family_id: bigint;
}

/** The unrevoked pair whose access token hashes to `accessTokenHash` (expired or not). */
export async function findLiveAccessToken(accessTokenHash: string): Promise<AccessTokenRow | undefined> {
  return (await sql.get(
    "SELECT id, user_id, application_id, scopes, expires_at FROM oauth2_tokens WHERE access_token_hash = ? AND revoked_at IS NULL",
    accessTokenHash,
  )) as AccessTokenRow | undefined;
}

/** The pair a refresh token belongs to, revoked or not: a revoked one being presented is a replay. */
export async function findTokenByRefreshTokenHash(refreshTokenHash: string): Promise<RefreshTokenRow | undefined> {
  return (await sql.get(
    "SELECT id, application_id, user_id, scopes, expires_at, created_at, revoked_at, COALESCE(family_id, id) AS family_id FROM oauth2_tokens WHERE refresh_token_hash = ?",
    refreshTokenHash,
  )) as RefreshTokenRow | undefined;
}

export async function insertToken(token: {
  id: bigint;
  accessTokenHash: string;
  refreshTokenHash: string | null;
  applicationId: bigint;
  userId: bigint;
  scopes: string;
  expiresAt: bigint;
  createdAt: bigint;
  familyId: bigint | null;
}): Promise<void> {
  await sql.run(
    `INSERT INTO oauth2_tokens (id, access_token_hash, refresh_token_hash, application_id, user_id, scopes, expires_at, created_at, family_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    token.id,
    token.accessTokenHash,
    token.refreshTokenHash,
    token.applicationId,
    token.userId,
    token.scopes,
    token.expiresAt,
    token.createdAt,
    token.familyId,
  );
}

/** Revokes every live pair of a family. Returns how many were revoked. */
export async function revokeTokenFamily(familyId: bigint, now: bigint): Promise<number> {
  return (
    await sql.run(
      "UPDATE oauth2_tokens SET revoked_at = ? WHERE (family_id = ? OR id = ?) AND revoked_at IS NULL",
      now,
      familyId,
      familyId,
    )
  ).changes;
}

export async function revokeTokenById(id: bigint, now: bigint): Promise<void> {
  await sql.run("UPDATE oauth2_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, id);
}

/** Revokes the application's live pair whose access token hashes to `hash`; whether one was revoked. */
export async function revokeTokenByAccessHash(applicationId: bigint, hash: string, now: bigint): Promise<boolean> {
  return (
    (
      await sql.run(
        "UPDATE oauth2_tokens SET revoked_at = ? WHERE access_token_hash = ? AND application_id = ? AND revoked_at IS NULL",
        now,
        hash,
        applicationId,
      )
    ).changes > 0
  );
}

/** Revokes the application's live pair whose refresh token hashes to `hash`; whether one was revoked. */
export async function revokeTokenByRefreshHash(applicationId: bigint, hash: string, now: bigint): Promise<boolean> {
  return (
    (
      await sql.run(
        "UPDATE oauth2_tokens SET revoked_at = ? WHERE refresh_token_hash = ? AND application_id = ? AND revoked_at IS NULL",
        now,
        hash,
        applicationId,
      )
    ).changes > 0
  );
}

/** Revokes every pair the user holds for the application issued at or after `since`. */
export async function revokeTokensIssuedSince(
  applicationId: bigint,
  userId: bigint,
  since: bigint,
  now: bigint,
): Promise<number> {
  return (
    await sql.run(
      "UPDATE oauth2_tokens SET revoked_at = ? WHERE user_id = ? AND application_id = ? AND created_at >= ? AND revoked_at IS NULL",
      now,
      userId,
      applicationId,
      since,
    )
  ).changes;
}

/** The scopes of each unrevoked pair with a refresh token the user holds for the application. */
export async function listGrantedScopes(applicationId: bigint, userId: bigint): Promise<string[]> {
  return (await sql.values(
    "SELECT scopes FROM oauth2_tokens WHERE user_id = ? AND application_id = ? AND revoked_at IS NULL AND refresh_token_hash IS NOT NULL",
    userId,
    applicationId,
  )) as string[];
}

/** Users holding a live token of the application, and those among them whose grant includes applications.commands. */
export async function countAuthorizations(
  applicationId: bigint,
  now: bigint,
): Promise<{ users: bigint; installs: bigint }> {
  return (await sql.get(
    `SELECT COUNT(DISTINCT user_id) AS users,
            COUNT(DISTINCT CASE WHEN ' ' || scopes || ' ' LIKE '% applications.commands %' THEN user_id END) AS installs
       FROM oauth2_tokens WHERE application_id = ? AND revoked_at IS NULL AND expires_at > ?`,
    applicationId,
    now,
  )) as { users: bigint; installs: bigint };
}

// ── oauth2_codes ──────────────────────────────────────────────────────────────────────────────────────────────

export interface AuthorizationCodeRow {
  application_id: bigint;
  user_id: bigint;
  scopes: string;
  redirect_uri: string | null;
  code_challenge: string | null;
  expires_at: bigint;
  used_at: bigint | null;
}

export async function findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRow | undefined> {
  return (await sql.get("SELECT * FROM oauth2_codes WHERE code_hash = ?", codeHash)) as
    AuthorizationCodeRow | undefined;
}

export async function insertAuthorizationCode(code: {
  codeHash: string;
  applicationId: bigint;
  userId: bigint;
  scopes: string;
  redirectUri: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  guildId: bigint | null;
  expiresAt: bigint;
}): Promise<void> {
  await sql.run(
    `INSERT INTO oauth2_codes (code_hash, application_id, user_id, scopes, redirect_uri, code_challenge, code_challenge_method, guild_id, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    code.codeHash,
    code.applicationId,
    code.userId,
    code.scopes,
    code.redirectUri,
    code.codeChallenge,
    code.codeChallengeMethod,
    code.guildId,
    code.expiresAt,
  );
}

export async function markAuthorizationCodeUsed(codeHash: string, now: bigint): Promise<void> {
  await sql.run("UPDATE oauth2_codes SET used_at = ? WHERE code_hash = ?", now, codeHash);
}
