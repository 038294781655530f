// The guild picker's data: the moderator's guilds (Get Current User Guilds, with counts) that they can manage.
import { PermissionFlagsBits as P, type RESTAPIPartialCurrentUserGuild } from "discord-api-types/v10";
import { USER_GUILDS_LIMIT } from "@/lib/discord/limits";
import type { DashboardSession } from "@/lib/dashboard/auth/session";
import { userApi } from "./api";
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
}

export async function listManageableGuilds(
  session: DashboardSession,
): Promise<{ manageable: PickerGuild[]; otherCount: number }> {
  return readOrThrow(async () => {
    const api = await userApi(session);
    const all: RESTAPIPartialCurrentUserGuild[] = [];
    // Pages of 200 by guild id until a short page.
    for (let after: string | undefined; ;) {
      const page = await api.users.getGuilds({ with_counts: true, limit: USER_GUILDS_LIMIT.max, after });
      all.push(...page);
      if (page.length < USER_GUILDS_LIMIT.max) break;
      after = page[page.length - 1].id;
    }
    const manageable = all.filter(canManageGuild).map((guild) => ({
      id: guild.id,
      name: guild.name,
      iconUrl: guildIconUrl(guild.id, guild.icon, 128),
      owner: guild.owner,
      memberCount: guild.approximate_member_count ?? null,
      onlineCount: guild.approximate_presence_count ?? null,
    }));
    return { manageable, otherCount: all.length - manageable.length };
  });
}
