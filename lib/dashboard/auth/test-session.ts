// A dashboard session created directly in the database, for benchmarks and tests that need a signed-in moderator
// without driving the OAuth2 pages. The result is what next-auth would have stored after a sign-in: a user, the
// provider account holding the access token, and a session whose token goes in the `next-auth.session-token` cookie.
// It loads the server-only token encryption: scripts run it under `--conditions=react-server` (see package.json's
// bench), tests through vitest's alias.
import crypto from "node:crypto";
import type { PrismaClient } from "@/lib/generated/prisma";
import { PROVIDER_ID } from "./provider";
import { encryptToken } from "./token-encryption";

export interface TestSessionInput {
  /** The moderator's user id on the guild API. */
  userId: string;
  name: string;
  accessToken: string;
  refreshToken?: string | null;
  /** Seconds since the epoch; default: in a week. */
  expiresAt?: number;
}

export async function createDashboardSession(
  prisma: PrismaClient,
  input: TestSessionInput,
): Promise<{ sessionToken: string; cookie: string }> {
  const sessionToken = crypto.randomUUID();
  const existing = await prisma.dashboardAccount.findUnique({
    where: { provider_providerAccountId: { provider: PROVIDER_ID, providerAccountId: input.userId } },
  });
  const tokens = {
    access_token: encryptToken(input.accessToken, "access_token"),
    refresh_token: encryptToken(input.refreshToken, "refresh_token"),
    expires_at: input.expiresAt ?? Math.floor(Date.now() / 1000) + 7 * 86_400,
    token_type: "Bearer",
    scope: "identify guilds",
  };
  let dashboardUserId: string;
  if (existing) {
    await prisma.dashboardAccount.update({ where: { id: existing.id }, data: tokens });
    dashboardUserId = existing.userId;
  } else {
    const user = await prisma.dashboardUser.create({ data: { name: input.name } });
    await prisma.dashboardAccount.create({
      data: { userId: user.id, type: "oauth", provider: PROVIDER_ID, providerAccountId: input.userId, ...tokens },
    });
    dashboardUserId = user.id;
  }
  await prisma.dashboardSession.create({
    data: { sessionToken, userId: dashboardUserId, expires: new Date(Date.now() + 30 * 86_400_000) },
  });
  return { sessionToken, cookie: `next-auth.session-token=${sessionToken}` };
}
