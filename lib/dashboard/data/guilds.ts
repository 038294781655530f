// The guild picker's data: the moderator's guilds (Get Current User Guilds, with counts) that they can manage. In bot
// mode the dashboard can open only those the bot is in too (Discord answers the bot nothing about the others): the
// rest are listed with the link that adds the bot.
import { PermissionFlagsBits as P, type RESTAPIPartialCurrentUserGuild } from "discord-api-types/v10";
import { USER_GUILDS_LIMIT } from "@/lib/discord/limits";
import type { DashboardSession } from "@/lib/dashboard/auth/session";
import type { GuildApiClient } from "@/lib/api-client";
import { botInviteUrl } from "@/lib/dashboard/bot-permissions";
import { dashboardConfig } from "@/lib/dashboard/config";
import { componentLogger } from "@/lib/server/logger";
import { managementApi, userApi } from "./api";
import { guildIconUrl } from "./cdn";
import { readOrThrow } from "./read";

const log = componentLogger("guilds");

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
  /** Bot mode: the bot is not in it, so the dashboard cannot open it. */
  botMissing: boolean;
  /** The link that adds the bot (with the dashboard's permissions), for who may add it (Manage Server); else null. */
  addBotUrl: string | null;
}

/** Discord adds a bot to a server for its owner, an administrator or a member with Manage Server. */
const mayAddBot = (guild: Pick<RESTAPIPartialCurrentUserGuild, "owner" | "permissions">) =>
  guild.owner || (BigInt(guild.permissions) & (P.ManageGuild | P.Administrator)) !== 0n;

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

/** The bot's servers, per bot token, kept this long: the picker reads them on every load (one request per 200). */
const BOT_GUILDS_FRESH_MS = 30_000;
const botGuildsRead = new Map<string, { at: number; ids: Promise<Set<string>> }>();

/**
 * In bot mode, the ids of the servers the bot is in; null in user mode, or when the bot's list cannot be read (the
 * picker then marks nothing: the doctor says why).
 */
async function botGuildIds(session: DashboardSession): Promise<Set<string> | null> {
  const { authMode, botToken } = dashboardConfig();
  if (authMode !== "bot" || !botToken) return null;
  const kept = botGuildsRead.get(botToken);
  if (kept && Date.now() - kept.at < BOT_GUILDS_FRESH_MS) return kept.ids.catch(() => null);
  const ids = managementApi(session)
    .then((api) => allGuilds(api, false))
    .then((guilds) => new Set(guilds.map((guild) => guild.id)));
  botGuildsRead.clear();
  botGuildsRead.set(botToken, { at: Date.now(), ids });
  return ids.catch((error: unknown) => {
    botGuildsRead.delete(botToken);
    log.warn({ err: error }, "the bot's server list could not be read: the picker marks no server");
    return null;
  });
}

export async function listManageableGuilds(
  session: DashboardSession,
): Promise<{ manageable: PickerGuild[]; otherCount: number }> {
  return readOrThrow(async () => {
    const [all, botGuilds] = await Promise.all([allGuilds(await userApi(session), true), botGuildIds(session)]);
    const withBot = botGuilds;
    const { authorizeUrl, clientId } = dashboardConfig();
    const manageable = all.filter(canManageGuild).map((guild) => ({
      id: guild.id,
      name: guild.name,
      iconUrl: guildIconUrl(guild.id, guild.icon, 128),
      owner: guild.owner,
      memberCount: guild.approximate_member_count ?? null,
      onlineCount: guild.approximate_presence_count ?? null,
      botMissing: Boolean(withBot && !withBot.has(guild.id)),
      addBotUrl:
        withBot && !withBot.has(guild.id) && mayAddBot(guild) ? botInviteUrl(authorizeUrl, clientId, guild.id) : null,
    }));
    return { manageable, otherCount: all.length - manageable.length };
  });
}
