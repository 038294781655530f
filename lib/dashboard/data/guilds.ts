// The guild picker's data: the moderator's guilds (Get Current User Guilds, with counts) that they can manage. In bot
// mode the dashboard can open only those the bot is in too (Discord answers the bot nothing about the others): the
// rest are listed with the link that adds the bot.
import { PermissionFlagsBits as P, type RESTAPIPartialCurrentUserGuild } from "discord-api-types/v10";
import { USER_GUILDS_LIMIT } from "@/lib/discord/limits";
import type { DashboardSession } from "@/lib/dashboard/auth/session";
import type { GuildApiClient } from "@/lib/api-client";
import { botInviteUrl } from "@/lib/dashboard/bot-permissions";
import { dashboardConfig } from "@/lib/dashboard/config";
import { isBotMode, managementApi, userApi } from "./api";
import { guildIconUrl } from "./cdn";
import { readOrThrow } from "./read";

/** Holding any of these (or owning the guild) makes a guild manageable from the dashboard. */
export const MANAGEMENT_PERMISSIONS: readonly bigint[] = [
  P.ManageGuild,
  P.ManageChannels,
  P.ManageRoles,
  P.KickMembers,
  P.BanMembers,
  P.ModerateMembers,
  P.Administrator,
];

export function canManageGuild(guild: Pick<RESTAPIPartialCurrentUserGuild, "owner" | "permissions">): boolean {
  if (guild.owner) return true;
  const permissions = BigInt(guild.permissions);
  return MANAGEMENT_PERMISSIONS.some((flag) => (permissions & flag) === flag);
}

export interface PickerGuild {
  id: string;
  name: string;
  iconUrl: string | null;
  owner: boolean;
  memberCount: number | null;
  onlineCount: number | null;
  /** Bot mode, the bot not in it: the link that adds it (with the dashboard's permissions); null otherwise. */
  addBotUrl: string | null;
}

/** Every guild of a token's user (or bot), in pages of 200 by guild id until a short page. */
async function allGuilds(api: GuildApiClient, withCounts: boolean): Promise<RESTAPIPartialCurrentUserGuild[]> {
  const all: RESTAPIPartialCurrentUserGuild[] = [];
  for (let after: string | undefined; ;) {
    const page = await api.users.getGuilds({ with_counts: withCounts, limit: USER_GUILDS_LIMIT.max, after });
    all.push(...page);
    if (page.length < USER_GUILDS_LIMIT.max) return all;
    after = page[page.length - 1].id;
  }
}

export async function listManageableGuilds(
  session: DashboardSession,
): Promise<{ manageable: PickerGuild[]; otherCount: number }> {
  return readOrThrow(async () => {
    const [all, botGuilds] = await Promise.all([
      allGuilds(await userApi(session), true),
      isBotMode() ? allGuilds(await managementApi(session), false) : null,
    ]);
    const withBot = botGuilds && new Set(botGuilds.map((guild) => guild.id));
    const { authorizeUrl, clientId } = dashboardConfig();
    const manageable = all.filter(canManageGuild).map((guild) => ({
      id: guild.id,
      name: guild.name,
      iconUrl: guildIconUrl(guild.id, guild.icon, 128),
      owner: guild.owner,
      memberCount: guild.approximate_member_count ?? null,
      onlineCount: guild.approximate_presence_count ?? null,
      addBotUrl: withBot && !withBot.has(guild.id) ? botInviteUrl(authorizeUrl, clientId, guild.id) : null,
    }));
    return { manageable, otherCount: all.length - manageable.length };
  });
}
