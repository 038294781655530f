// API clients for the signed-in moderator, server-side only. Reads and the guild list use the moderator's own
// OAuth2 token; management calls use it too, or the application's bot token in bot mode (GUILD_API_AUTH=bot,
// for Discord itself, where user tokens cannot manage guilds). A 401 means the grant is gone: sign in again.
import "server-only";
import { dashboardConfig } from "@/lib/dashboard/config";
import { GuildApiClient, GuildApiError, type RateLimitNotice } from "@/lib/api-client";
import { keepAliveFetch } from "@/lib/api-client/keep-alive-fetch";
import { accessTokenFor, SessionExpiredError } from "@/lib/dashboard/auth/tokens";
import type { DashboardSession } from "@/lib/dashboard/auth/session";
import { componentLogger } from "@/lib/server/logger";
import { currentRequestId } from "@/lib/server/request-id";

const log = componentLogger("api-client");

export interface ClientOptions {
  onRateLimit?: (notice: RateLimitNotice) => void;
}

function logRateLimit(notice: RateLimitNotice) {
  log.warn(
    { method: notice.method, path: notice.path, retry_after: notice.retryAfter, will_retry: notice.willRetry },
    notice.willRetry ? "429 from the API: waiting" : "429 from the API: giving up",
  );
}

/** A client acting as the moderator (their OAuth2 access token). */
export async function userApi(session: DashboardSession, options: ClientOptions = {}): Promise<GuildApiClient> {
  const config = dashboardConfig();
  const token = await accessTokenFor(session.account);
  return new GuildApiClient({
    requestId: currentRequestId,
    baseUrl: config.guildApiUrl,
    version: config.apiVersion,
    token,
    authPrefix: "Bearer",
    onRateLimit: options.onRateLimit ?? logRateLimit,
    fetch: keepAliveFetch,
  });
}

/** The client management calls go through: the moderator's token, or the bot's in bot mode. */
export async function managementApi(session: DashboardSession, options: ClientOptions = {}): Promise<GuildApiClient> {
  const config = dashboardConfig();
  if (config.authMode === "bot") {
    if (!config.botToken) throw new Error("GUILD_API_AUTH=bot needs GUILD_API_BOT_TOKEN.");
    return new GuildApiClient({
      requestId: currentRequestId,
      baseUrl: config.guildApiUrl,
      version: config.apiVersion,
      token: config.botToken,
      authPrefix: "Bot",
      onRateLimit: options.onRateLimit ?? logRateLimit,
      fetch: keepAliveFetch,
    });
  }
  return userApi(session, options);
}

export const isBotMode = () => dashboardConfig().authMode === "bot";

/** Turns a 401 from the API (revoked or expired token) into the session error pages and actions understand. */
export function rethrowAuthErrors(error: unknown): never {
  if (error instanceof GuildApiError && error.status === 401 && !isBotMode()) throw new SessionExpiredError();
  throw error;
}
