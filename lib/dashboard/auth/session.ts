// The signed-in moderator for this request: next-auth's database session, read once per request (React cache)
// with the user and the provider account holding their tokens. Pages and actions call requireDashboardSession;
// the server's front door (lib/server/dashboard-door.ts) only makes the redirect fast, it is not the check.
import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { prisma } from "@/lib/dashboard/db";
import { safeRedirectPath } from "@/lib/security/safe-redirect";
import { PROVIDER_ID } from "./provider";
import { readSessionThroughCache } from "./session-cache";
import { decryptToken } from "./token-encryption";
import type { StoredAccount } from "./tokens";
import { REQUEST_URL_HEADER, SESSION_COOKIES } from "./session-cookies";

export { REQUEST_URL_HEADER, SESSION_COOKIES };

const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
const SESSION_UPDATE_AGE_MS = 24 * 60 * 60 * 1000;

export interface Actor {
  /** The moderator's user id on the guild API (a snowflake). */
  id: string;
  name: string;
  image: string | null;
}

export interface DashboardSession {
  sessionToken: string;
  /** The DashboardUser id. */
  userId: string;
  actor: Actor;
  account: StoredAccount;
}

export const getDashboardSession = cache(async (): Promise<DashboardSession | null> => {
  const jar = await cookies();
  const sessionToken = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!sessionToken) return null;
  // Reused across requests for a few seconds (session-cache.ts); every write to sessions and accounts forgets it.
  return readSessionThroughCache(sessionToken, () => readDashboardSession(sessionToken));
});

async function readDashboardSession(sessionToken: string): Promise<DashboardSession | null> {
  const row = await prisma.dashboardSession.findUnique({
    where: { sessionToken },
    include: { user: { include: { accounts: { where: { provider: PROVIDER_ID }, take: 1 } } } },
  });
  const account = row?.user.accounts[0];
  const now = Date.now();
  if (!row || !account || row.expires.getTime() <= now) return null;
  // Rolling expiry, as next-auth does: extend at most once a day.
  if (row.expires.getTime() - SESSION_MAX_AGE_MS + SESSION_UPDATE_AGE_MS < now) {
    await prisma.dashboardSession.update({
      where: { sessionToken },
      data: { expires: new Date(now + SESSION_MAX_AGE_MS) },
    });
  }
  return {
    sessionToken,
    userId: row.userId,
    actor: { id: account.providerAccountId, name: row.user.name ?? account.providerAccountId, image: row.user.image },
    account: {
      id: account.id,
      providerAccountId: account.providerAccountId,
      access_token: decryptToken(account.access_token, "access_token"),
      refresh_token: decryptToken(account.refresh_token, "refresh_token"),
      expires_at: account.expires_at,
    },
  };
}

/** Where the current request was headed (from the server's front door), for the way back after signing in. */
export async function currentRequestPath(fallback = "/guilds"): Promise<string> {
  return safeRedirectPath((await headers()).get(REQUEST_URL_HEADER), { fallback });
}

export function signInPath(callbackUrl: string): string {
  return `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`;
}

/** The session, or a redirect to sign in and back to this page. */
export async function requireDashboardSession(): Promise<DashboardSession> {
  const session = await getDashboardSession();
  if (!session) redirect(signInPath(await currentRequestPath()));
  return session;
}
