// Whom the dashboard's gateway connection identifies as. In bot mode, the bot the dashboard manages through
// (GUILD_API_BOT_TOKEN). With the moderators' own tokens (user mode, the built-in API), the dashboard's own
// application's bot: GUILD_API_BOT_TOKEN when set, else the demo application's bot, whose secrets the seed keeps
// beside the database (the demo application is the dashboard's when GUILDHALL_CLIENT_ID is not set). The
// connection sees the guilds that bot is in; pages of other guilds stay as they are (their stream says so).
// DASHBOARD_LIVE=off turns the connection off.
import "server-only";
import { dashboardConfig } from "@/lib/dashboard/config";
import { readDemoSecrets } from "@/lib/seed/demo-secrets";

export interface LiveGatewayCredentials {
  /** A bot token: sent in IDENTIFY as is, and as "Bot …" to Get Gateway Bot. */
  token: string;
}

export function liveGatewayCredentials(): LiveGatewayCredentials | null {
  if (process.env.DASHBOARD_LIVE === "off") return null;
  const config = dashboardConfig();
  const token =
    config.botToken ??
    process.env.GUILD_API_BOT_TOKEN ??
    (process.env.GUILDHALL_CLIENT_ID ? undefined : readDemoSecrets()?.botToken);
  return token ? { token } : null;
}
