// What the dashboard needs of its bot in bot mode: every permission some part of it uses, and the link that adds the
// bot to a server with them (Discord's bot authorization flow). The doctor and the server picker offer it.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { DASHBOARD_SECTIONS } from "./sections";

/**
 * Every permission some part of the dashboard uses: what to give the bot's role for the whole dashboard. A section
 * open to any of several permissions (Members: kick, ban, timeout, nicknames, roles, voice) uses each of them for its
 * own actions, so the bot needs all of them. In bot mode every upload and event is the bot's, so changing any of them
 * takes Manage Expressions and Manage Events; the Invites page makes invites (View Channel, Create Invite).
 */
export const DASHBOARD_BOT_PERMISSIONS: bigint = DASHBOARD_SECTIONS.reduce(
  (bits, section) => [...(section.requires.all ?? []), ...(section.requires.any ?? [])].reduce((a, b) => a | b, bits),
  P.ViewAuditLog | P.ManageGuildExpressions | P.ManageEvents | P.ViewChannel | P.CreateInstantInvite,
);

/** The authorize link that adds the application's bot to a server (that one, when given) with the dashboard's permissions. */
export function botInviteUrl(authorizeUrl: string, clientId: string, guildId?: string): string {
  const url = new URL(authorizeUrl);
  url.search = new URLSearchParams({
    client_id: clientId,
    scope: "bot",
    permissions: String(DASHBOARD_BOT_PERMISSIONS),
    ...(guildId ? { guild_id: guildId, disable_guild_select: "true" } : {}),
  }).toString();
  return url.toString();
}
