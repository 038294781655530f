// The loop that runs scheduled moderation (schedule.ts) in the dashboard's server process: every few seconds, due rows
// claimed and run. Started once per process by instrumentation.ts; several instances each run one, and the claims
// keep every row to one of them. The API client acts as the moderator who scheduled the work (their stored grant,
// refreshed as the pages' are), or as the bot in bot mode.
import "server-only";
import { GuildApiClient } from "@/lib/api-client";
import { keepAliveFetch } from "@/lib/api-client/keep-alive-fetch";
import { dashboardConfig } from "@/lib/dashboard/config";
import { prisma } from "@/lib/dashboard/db";
import { PROVIDER_ID } from "@/lib/dashboard/auth/provider";
import { accessTokenFor, SessionExpiredError } from "@/lib/dashboard/auth/tokens";
import { decryptToken } from "@/lib/dashboard/auth/token-encryption";
import { runDueSchedules, type ScheduleDependencies } from "./schedule";

/** How often due rows are looked for: a temporary ban ends within this of its time. */
export const SCHEDULER_INTERVAL_MS = 5_000;

async function apiFor(actorId: string): Promise<GuildApiClient> {
  const config = dashboardConfig();
  const client = (token: string, authPrefix: "Bot" | "Bearer") =>
    new GuildApiClient({
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
  if (!row)
    throw new SessionExpiredError("The moderator who scheduled this has not signed in to this dashboard any more.");
  const token = await accessTokenFor({
    id: row.id,
    providerAccountId: row.providerAccountId,
    access_token: decryptToken(row.access_token, "access_token"),
    refresh_token: decryptToken(row.refresh_token, "refresh_token"),
    expires_at: row.expires_at,
  });
  return client(token, "Bearer");
}

const DEPENDENCIES: ScheduleDependencies = { apiFor, mode: () => dashboardConfig().authMode };

/** Starts the loop (once per process); the returned function stops it. */
export function startModerationScheduler(intervalMs = SCHEDULER_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runDueSchedules(DEPENDENCIES)
      .catch((error: unknown) => console.error("[cases] running scheduled moderation failed:", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
