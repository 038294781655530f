// Who is calling: `Bot <token>` for an application's bot, `Bearer <access token>` for a user who
// authorized an application through OAuth2. Guildhall lets both call the management endpoints, each
// judged by its own member's permissions (a documented superset of Discord, see
// docs/api-and-compatibility.md).
import { chain, type MaybePromise } from "./maybe-promise";
import { findApplicationByBotTokenHash } from "./store/applications";
import { findLiveAccessToken } from "./store/oauth2";
import { readCache } from "./store/read-cache";
import { hashSecret } from "./tokens";

export type Identity =
  | { kind: "bot"; userId: bigint; applicationId: bigint }
  | {
      kind: "bearer";
      userId: bigint;
      applicationId: bigint;
      scopes: ReadonlySet<string>;
      tokenId: bigint;
      expiresAt: number;
    };

/**
 * The identity behind an Authorization header, or null when the token is unknown, expired or revoked. Every request
 * carries one, so known tokens are kept in the read cache (read-cache.ts): a revocation, a bot token reset or any other
 * write, from any connection, empties it before the next read. Expiry is judged again at each request. Unknown tokens
 * are not kept, so a flood of made-up ones cannot crowd out the real ones.
 */
export function authenticate(header: string, now = Date.now()): MaybePromise<Identity | null> {
  return chain(identityOfHeader(header), (identity) =>
    identity?.kind === "bearer" && identity.expiresAt <= now ? null : identity,
  );
}

const identityOfHeader = readCache(lookUpHeader, { keep: (identity) => identity !== null });

async function lookUpHeader(header: string): Promise<Identity | null> {
  const space = header.indexOf(" ");
  if (space <= 0) return null;
  const scheme = header.slice(0, space).toLowerCase();
  const token = header.slice(space + 1).trim();
  if (!token) return null;
  if (scheme === "bot") {
    const row = await findApplicationByBotTokenHash(hashSecret(token));
    return row?.bot_user_id ? { kind: "bot", userId: row.bot_user_id, applicationId: row.id } : null;
  }
  if (scheme === "bearer") return await bearerIdentity(token);
  return null;
}

export async function bearerIdentity(
  accessToken: string,
  now = Date.now(),
): Promise<Extract<Identity, { kind: "bearer" }> | null> {
  const row = await findLiveAccessToken(hashSecret(accessToken));
  if (!row || Number(row.expires_at) <= now) return null;
  return {
    kind: "bearer",
    userId: row.user_id,
    applicationId: row.application_id,
    scopes: new Set(row.scopes.split(" ").filter(Boolean)),
    tokenId: row.id,
    expiresAt: Number(row.expires_at),
  };
}

export const ACCESS_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
