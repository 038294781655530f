// In bot mode Discord judges the bot, not the moderator: a change to a role at or above the bot's highest role, or to
// a member who ranks with or above it, is refused whoever asked for it (owner included). The dashboard holds every
// request to both ranks (the moderator's, which Discord cannot see, and the bot's), so a page disables what the bot
// cannot do, with the reason, instead of offering a button the API refuses.
import type { GuildApiClient } from "@/lib/api-client";
import type { HierarchyVerdict, PermissionMember } from "@/lib/discord/permissions";

/** The bot's member in the guild, as the permission engine sees it (`api` is the bot's client, as in bot mode). */
export async function readBotMember(api: GuildApiClient, guildId: string): Promise<PermissionMember> {
  const userId = await api.users.getCurrentId();
  const member = await api.members.get(guildId, userId);
  return { userId, roleIds: member.roles, communicationDisabledUntil: member.communication_disabled_until ?? null };
}

/**
 * The moderator's verdict, then the bot's: a refusal of the bot's in its own words ("role is above the bot's") from
 * the engine's, which speaks to the actor ("role is above yours").
 */
export function withBotVerdict(own: HierarchyVerdict, bot: () => HierarchyVerdict | null): HierarchyVerdict {
  if (!own.ok) return own;
  const verdict = bot();
  if (!verdict || verdict.ok) return own;
  return { ok: false, reason: verdict.reason.replace(/\byours\b/g, "the bot's").replace(/\byour\b/g, "the bot's") };
}
