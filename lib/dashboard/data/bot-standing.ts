// In bot mode Discord judges the bot, not the moderator: a change to a role at or above the bot's highest role, or to
// a member who ranks with or above it, is refused whoever asked for it (owner included). The dashboard holds every
// request to both ranks (the moderator's, which Discord cannot see, and the bot's), so a page disables what the bot
// cannot do, with the reason, instead of offering a button the API refuses.
import { GuildApiError, type GuildApiClient } from "@/lib/api-client";
import {
  ALL_PERMISSIONS,
  canActOnMember,
  computeBasePermissions,
  hasPermission,
  PermissionFlags,
  type GuildPermissionContext,
  type HierarchyVerdict,
  type PermissionMember,
} from "@/lib/discord/permissions";

/** The bot's member in the guild, as the permission engine sees it (`api` is the bot's client, as in bot mode). */
export async function readBotMember(api: GuildApiClient, guildId: string): Promise<PermissionMember> {
  try {
    const userId = await api.users.getCurrentId();
    const member = await api.members.get(guildId, userId);
    return { userId, roleIds: member.roles, communicationDisabledUntil: member.communication_disabled_until ?? null };
  } catch (error) {
    throw botTokenRefused(error);
  }
}

/**
 * A 401 on the bot's token is the bot's, not the moderator's: signing in again would not help (and readOrThrow sends
 * a 401 from /users/@me to sign in), so it becomes an error that says what to do.
 */
export function botTokenRefused(error: unknown): unknown {
  if (!(error instanceof GuildApiError && error.status === 401)) return error;
  return new Error(
    "The guild API refused the bot's token (401): set GUILD_API_BOT_TOKEN again and run npm run doctor.",
  );
}

/** The bot's own verdict on acting on `target` (null without a bot, or when the target is the bot itself). */
export function botVerdictOn(
  ctx: GuildPermissionContext,
  bot: PermissionMember | null,
  target: PermissionMember,
): HierarchyVerdict | null {
  return bot && bot.userId !== target.userId ? canActOnMember(ctx, bot, target) : null;
}

/** What the bot holds in the server, every permission for an administrator: all it may grant. */
export function botHeldPermissions(ctx: GuildPermissionContext, bot: PermissionMember): bigint {
  const held = computeBasePermissions(ctx, bot);
  return hasPermission(held, PermissionFlags.Administrator) ? ALL_PERMISSIONS : held;
}

/**
 * The moderator's verdict, then the bot's: a refusal of the bot's in its own words ("role is above the bot's") from
 * the engine's, which speaks to the actor ("role is above yours").
 */
export function withBotVerdict(own: HierarchyVerdict, bot: () => HierarchyVerdict | null): HierarchyVerdict {
  if (!own.ok) return own;
  const verdict = bot();
  if (!verdict || verdict.ok) return own;
  return { ok: false, reason: inBotWords(verdict.reason) };
}

/** The engine's refusal, which speaks to the actor ("role is above yours"), said of the bot ("… the bot's"). */
export const inBotWords = (reason: string): string =>
  reason.replace(/\byours\b/g, "the bot's").replace(/\byour\b/g, "the bot's");
