// The API client for work the dashboard does on a moderator's behalf when they are not there (issue #32): a temporary
// ban's end, reading a banned user's ban for their appeal. In bot mode the bot acts; in user mode the moderator's
// stored grant (their OAuth2 tokens in DashboardAccount, refreshed as the pages' are). A moderator who has signed out
// of the dashboard since has no grant: the work says so instead.
import "server-only";
import { GuildApiClient } from "@/lib/api-client";
import { keepAliveFetch } from "@/lib/api-client/keep-alive-fetch";
import { dashboardConfig } from "@/lib/dashboard/config";
import { prisma } from "@/lib/dashboard/db";
import { PROVIDER_ID } from "@/lib/dashboard/auth/provider";
import { accessTokenFor, SessionExpiredError } from "@/lib/dashboard/auth/tokens";
import { decryptToken } from "@/lib/dashboard/auth/token-encryption";
import { currentRequestId } from "@/lib/server/request-id";

export async function apiActingFor(actorId: string): Promise<GuildApiClient> {
  const config = dashboardConfig();
  const client = (token: string, authPrefix: "Bot" | "Bearer") =>
    new GuildApiClient({
      requestId: currentRequestId,
      baseUrl: config.guildApiUrl,
      version: config.apiVersion,
      token,
      authPrefix,
      fetch: keepAliveFetch,
    });
  if (config.authMode === "bot") {
    if (!config.botToken) throw new Error("GUILD_API_AUTH=bot needs GUILD_API_BOT_TOKEN.");
    return client(config.botToken, "Bot");
  }
  const row = await prisma.dashboardAccount.findFirst({ where: { provider: PROVIDER_ID, providerAccountId: actorId } });
  if (!row) throw new SessionExpiredError("The moderator this acts for has signed out of this dashboard.");
  const token = await accessTokenFor({
    id: row.id,
    providerAccountId: row.providerAccountId,
    access_token: decryptToken(row.access_token, "access_token"),
    refresh_token: decryptToken(row.refresh_token, "refresh_token"),
    expires_at: row.expires_at,
  });
  return client(token, "Bearer");
}
