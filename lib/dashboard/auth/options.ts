// next-auth's configuration: the Guildhall OAuth2 provider, database sessions in Prisma (shared by every app
// instance on the database), the dashboard's own sign-in page. Access and refresh tokens live only in
// DashboardAccount on the server; the browser holds nothing but the session cookie.
import "server-only";
import type { NextAuthOptions } from "next-auth";
import { dashboardConfig, nextAuthSecret } from "@/lib/dashboard/config";
import { prisma } from "@/lib/dashboard/db";
import { safeRedirectPath } from "@/lib/security/safe-redirect";
import { accountTokenFields, dashboardAdapter } from "./adapter";
import { guildhallProvider, PROVIDER_ID } from "./provider";
import { forgetUserSessions } from "./session-cache";
import { revokeUserTokens } from "./tokens";

export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;
export const SESSION_UPDATE_AGE_S = 24 * 60 * 60;

export function authOptions(): NextAuthOptions {
  const config = dashboardConfig();
  // next-auth builds its callback URLs from NEXTAUTH_URL; the demo app registers `${PUBLIC_URL}/api/auth/callback/guildhall`.
  process.env.NEXTAUTH_URL ??= config.publicUrl;
  return {
    secret: nextAuthSecret(),
    adapter: dashboardAdapter(prisma),
    providers: [guildhallProvider(config)],
    session: { strategy: "database", maxAge: SESSION_MAX_AGE_S, updateAge: SESSION_UPDATE_AGE_S },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    callbacks: {
      // next-auth's default accepts any value starting with "/", which includes "/\evil.example".
      redirect: ({ url, baseUrl }) => `${baseUrl}${safeRedirectPath(url, { fallback: "/guilds", origin: baseUrl })}`,
    },
    events: {
      // next-auth links the account once; later sign-ins bring fresh tokens that must replace the stored ones.
      async signIn({ account, user, profile }) {
        if (!account || account.provider !== PROVIDER_ID) return;
        await prisma.dashboardAccount.updateMany({
          where: { provider: account.provider, providerAccountId: account.providerAccountId },
          data: accountTokenFields(account),
        });
        const p = profile as { global_name?: string | null; username?: string } | undefined;
        const name = p?.global_name ?? p?.username;
        if (name && name !== user.name)
          await prisma.dashboardUser.update({ where: { id: user.id }, data: { name, image: user.image ?? null } });
        forgetUserSessions(user.id);
      },
      // Signing out ends the grant too: the provider revokes the tokens, and they are forgotten here.
      async signOut({ session }) {
        const userId = (session as { userId?: string } | undefined)?.userId;
        if (userId) await revokeUserTokens(userId);
      },
    },
  };
}
