// Issuing, refreshing and revoking OAuth2 access tokens (stored only as hashes).
import { newSnowflake } from "@/lib/discord/snowflake";
import { sql } from "../store/db";
import { hashSecret, randomToken } from "../tokens";
import { ACCESS_TOKEN_TTL_MS } from "../auth";

export interface IssuedTokens {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export function issueAccessToken(applicationId: bigint, userId: bigint, scopes: readonly string[], now = Date.now()): IssuedTokens {
  const accessToken = randomToken();
  const refreshToken = randomToken();
  const scope = [...new Set(scopes)].join(" ");
  sql(
    `INSERT INTO oauth2_tokens (id, access_token_hash, refresh_token_hash, application_id, user_id, scopes, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(newSnowflake(), hashSecret(accessToken), hashSecret(refreshToken), applicationId, userId, scope, BigInt(now + ACCESS_TOKEN_TTL_MS), BigInt(now));
  return { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_MS / 1000, refresh_token: refreshToken, scope };
}
