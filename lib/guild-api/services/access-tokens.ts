// Issuing, finding and revoking OAuth2 access tokens. Only SHA-256 hashes are stored: a database leak yields no
// usable token. An access token and its refresh token form one row (a "pair"), revoked together. The pairs one
// grant produces through refreshes form a family (family_id: the first pair's id), revoked together when a refresh
// token that was already rotated comes back: one of its holders is not the client (RFC 6819 §5.2.2.3).
import type { RESTPostOAuth2AccessTokenResult, RESTPostOAuth2ClientCredentialsResult } from "discord-api-types/v10";
import { newSnowflake } from "@/lib/discord/snowflake";
import {
  findTokenByRefreshTokenHash,
  insertToken as insertTokenRow,
  listGrantedScopes,
  revokeTokenByAccessHash,
  revokeTokenById as revokeTokenRowById,
  revokeTokenByRefreshHash,
  revokeTokenFamily as revokeTokenFamilyRows,
  revokeTokensIssuedSince as revokeTokenRowsIssuedSince,
  type RefreshTokenRow,
} from "../store/oauth2";
import { hashSecret, randomToken } from "../tokens";
import { ACCESS_TOKEN_TTL_MS } from "../auth";

export interface IssuedTokens extends RESTPostOAuth2AccessTokenResult {
  token_type: "Bearer";
}
export interface IssuedClientCredentialsToken extends RESTPostOAuth2ClientCredentialsResult {
  token_type: "Bearer";
}

const joinScopes = (scopes: readonly string[]) => [...new Set(scopes)].join(" ");

async function insertToken(
  applicationId: bigint,
  userId: bigint,
  scope: string,
  refreshToken: string | null,
  now: number,
  familyId: bigint | null = null,
): Promise<string> {
  const accessToken = randomToken();
  const id = newSnowflake();
  await insertTokenRow({
    id,
    accessTokenHash: hashSecret(accessToken),
    refreshTokenHash: refreshToken === null ? null : hashSecret(refreshToken),
    applicationId,
    userId,
    scopes: scope,
    expiresAt: BigInt(now + ACCESS_TOKEN_TTL_MS),
    createdAt: BigInt(now),
    familyId: refreshToken === null ? null : (familyId ?? id),
  });
  return accessToken;
}

/**
 * An access token with its refresh token (authorization_code and refresh_token grants; scripts and tests). A new
 * grant starts a family; a refresh passes the family of the pair it replaces.
 */
export async function issueAccessToken(
  applicationId: bigint,
  userId: bigint,
  scopes: readonly string[],
  now = Date.now(),
  familyId: bigint | null = null,
): Promise<IssuedTokens> {
  const refreshToken = randomToken();
  const scope = joinScopes(scopes);
  const accessToken = await insertToken(applicationId, userId, scope, refreshToken, now, familyId);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refreshToken,
    scope,
  };
}

/** An access token without a refresh token: the client_credentials grant (the client can always ask again). */
export async function issueClientCredentialsToken(
  applicationId: bigint,
  ownerId: bigint,
  scopes: readonly string[],
  now = Date.now(),
): Promise<IssuedClientCredentialsToken> {
  const scope = joinScopes(scopes);
  const accessToken = await insertToken(applicationId, ownerId, scope, null, now);
  return { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_MS / 1000, scope };
}

/** The pair a refresh token belongs to, revoked or not: a revoked one being presented is a replay. */
export function findTokenByRefreshToken(refreshToken: string): Promise<RefreshTokenRow | undefined> {
  return findTokenByRefreshTokenHash(hashSecret(refreshToken));
}

/** Revokes every live pair of a family (a replayed refresh token). Returns how many were revoked. */
export async function revokeTokenFamily(familyId: bigint, now = Date.now()): Promise<number> {
  return await revokeTokenFamilyRows(familyId, BigInt(now));
}

export async function revokeTokenById(id: bigint, now = Date.now()): Promise<void> {
  await revokeTokenRowById(id, BigInt(now));
}

/**
 * Revokes the pair `token` (access or refresh) belongs to, if `applicationId` was issued it. Returns whether a pair
 * was revoked. The hint only decides which hash is tried first (RFC 7009 §2.1).
 */
export async function revokeTokenPair(
  applicationId: bigint,
  token: string,
  hint: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  const hash = hashSecret(token);
  const [first, second] =
    hint === "refresh_token"
      ? [revokeTokenByRefreshHash, revokeTokenByAccessHash]
      : [revokeTokenByAccessHash, revokeTokenByRefreshHash];
  return (await first(applicationId, hash, BigInt(now))) || (await second(applicationId, hash, BigInt(now)));
}

/**
 * Revokes every pair the user holds for the application issued at or after `since`: what a replayed authorization
 * code may have produced, refreshed pairs included (oauth2_tokens does not record the code a pair came from).
 */
export async function revokeTokensIssuedSince(
  applicationId: bigint,
  userId: bigint,
  since: bigint,
  now = Date.now(),
): Promise<number> {
  return await revokeTokenRowsIssuedSince(applicationId, userId, since, BigInt(now));
}

/**
 * True when the user has already granted the application every scope in `scopes` and has not revoked it: an
 * unrevoked pair with a refresh token (expired access is fine: the client could refresh it). prompt=none skips
 * the consent screen then, as Discord does.
 */
export async function hasPriorAuthorization(
  applicationId: bigint,
  userId: bigint,
  scopes: readonly string[],
): Promise<boolean> {
  return (await listGrantedScopes(applicationId, userId)).some((scopeList) => {
    const granted = new Set(scopeList.split(" "));
    return scopes.every((scope) => granted.has(scope));
  });
}
