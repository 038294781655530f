// Every path the client calls, from one place: discord-api-types' Routes (which URL-encode their arguments),
// plus Guildhall's own additions to Discord's surface.
import { Routes as DiscordRoutes } from "discord-api-types/v10";

export const Routes = {
  ...DiscordRoutes,
  /** GET /guilds/{guild.id}/events: Guildhall's outbox reader (the dispatches operations fired). */
  guildEvents: (guildId: string) => `/guilds/${encodeURIComponent(guildId)}/events` as const,
  /** POST /guilds/{guild.id}/members-search: Search Guild Members v2 (Discord's client API; not in discord-api-types). */
  guildMembersSearchV2: (guildId: string) => `/guilds/${encodeURIComponent(guildId)}/members-search` as const,
};
