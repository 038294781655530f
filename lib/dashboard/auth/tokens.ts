// The moderator's OAuth2 tokens, kept server-side in DashboardAccount: handed to the API client, refreshed with
// the refresh token shortly before they expire (once per account even under concurrent requests, and tolerant
// of another instance having rotated them first), revoked at sign-out.
import "server-only";
import { dashboardConfig } from "@/lib/dashboard/config";
import { prisma } from "@/lib/dashboard/db";
import { GuildApiClient, GuildApiError } from "@/lib/api-client";
import { forgetAllSessions, forgetUserSessions } from "./session-cache";
import { decryptToken, encryptToken } from "./token-encryption";
import { componentLogger } from "@/lib/server/logger";
import { currentRequestId } from "@/lib/server/request-id";

const log = componentLogger("auth");

/** Refresh this long before expiry, so a token never lapses mid-request. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

export interface StoredAccount {
  id: string;
  providerAccountId: string;
  access_token: string | null;
  refresh_token: string | null;
  /** Seconds since the epoch. */
  expires_at: number | null;
}

/** The session's grant is gone (revoked, expired, refused): the person must sign in again. */
export class SessionExpiredError extends Error {
  constructor(message = "Your session has expired. Sign in again.") {
    super(message);
    this.name = "SessionExpiredError";
  }
}

const fresh = (account: StoredAccount, now: number) =>
  Boolean(account.access_token) && (account.expires_at === null || account.expires_at * 1000 - REFRESH_MARGIN_MS > now);

function oauthClient(): GuildApiClient {
  const config = dashboardConfig();
  return new GuildApiClient({
    requestId: currentRequestId,
    baseUrl: config.guildApiUrl,
    version: config.apiVersion,
    token: null,
  });
}

const inFlight = new Map<string, Promise<string>>();

/** A usable access token for the account, refreshing it first when it is about to expire. */
export async function accessTokenFor(account: StoredAccount, now = Date.now()): Promise<string> {
  if (fresh(account, now)) return account.access_token!;
  if (!account.refresh_token) {
    if (account.access_token && account.expires_at !== null && account.expires_at * 1000 > now)
      return account.access_token;
    throw new SessionExpiredError();
  }
  let pending = inFlight.get(account.id);
  if (!pending) {
    pending = refresh(account).finally(() => inFlight.delete(account.id));
    inFlight.set(account.id, pending);
  }
  return pending;
}

async function refresh(account: StoredAccount): Promise<string> {
  const config = dashboardConfig();
  try {
    const tokens = await oauthClient().oauth2.refreshToken(
      { clientId: config.clientId, clientSecret: config.clientSecret },
      account.refresh_token!,
    );
    await prisma.dashboardAccount.update({
      where: { id: account.id },
      data: {
        access_token: encryptToken(tokens.access_token, "access_token"),
        refresh_token: encryptToken(tokens.refresh_token ?? account.refresh_token, "refresh_token"),
        expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in,
        token_type: tokens.token_type,
        scope: tokens.scope,
      },
    });
    forgetAllSessions();
    return tokens.access_token;
  } catch (error) {
    if (!(error instanceof GuildApiError) || error.oauthError !== "invalid_grant") throw error;
    // Refresh tokens rotate: another instance, or another thread of this one (the moderation scheduler's), may have
    // refreshed first, and may not have stored the new tokens yet. Use what it stores, if it is good.
    const rotated = await tokensRotatedElsewhere(account);
    if (rotated) return rotated;
    await prisma.dashboardAccount.update({
      where: { id: account.id },
      data: { access_token: null, refresh_token: null, expires_at: null },
    });
    forgetAllSessions();
    throw new SessionExpiredError();
  }
}

/** How long a refused refresh waits for the refresh that beat it to store its tokens. */
const ROTATED_ELSEWHERE_WAIT_MS = 2_000;
const LOOK_AGAIN_MS = 200;

async function tokensRotatedElsewhere(account: StoredAccount): Promise<string | null> {
  for (let waited = 0; ; waited += LOOK_AGAIN_MS) {
    const row = await prisma.dashboardAccount.findUnique({ where: { id: account.id } });
    const current = row && {
      ...row,
      access_token: decryptToken(row.access_token, "access_token"),
      refresh_token: decryptToken(row.refresh_token, "refresh_token"),
    };
    if (current && current.access_token !== account.access_token && fresh(current, Date.now()))
      return current.access_token;
    if (waited >= ROTATED_ELSEWHERE_WAIT_MS) return null;
    await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
  }
}

/** Revokes and forgets the user's provider tokens (sign-out). Best effort: a dead provider must not block signing out. */
export async function revokeUserTokens(dashboardUserId: string): Promise<void> {
  const config = dashboardConfig();
  const accounts = await prisma.dashboardAccount.findMany({ where: { userId: dashboardUserId } });
  const client = oauthClient();
  const credentials = { clientId: config.clientId, clientSecret: config.clientSecret };
  for (const account of accounts) {
    for (const [token, hint] of [
      [decryptToken(account.refresh_token, "refresh_token"), "refresh_token"],
      [decryptToken(account.access_token, "access_token"), "access_token"],
    ] as const) {
      if (!token) continue;
      await client.oauth2
        .revokeToken(credentials, token, hint)
        .catch((error: unknown) => log.warn({ err: error }, "token revocation failed"));
    }
  }
  await prisma.dashboardAccount.updateMany({
    where: { userId: dashboardUserId },
    data: { access_token: null, refresh_token: null, expires_at: null },
  });
  // Every session of this person used those tokens; none of them can reach the API any more.
  await prisma.dashboardSession.deleteMany({ where: { userId: dashboardUserId } });
  forgetUserSessions(dashboardUserId);
}
