// The moderator as the guild sees them: the guild (with its roles), their member, their permissions from the shared
// engine, and the questions every page asks ("may I?", "why not?"). Read once per request, and reused for a few
// seconds across requests (guild-read-cache.ts).
import { cache } from "react";
import type { APIGuild, APIGuildMember, APIRole } from "discord-api-types/v10";
import {
  canActOnMember,
  canManageRole,
  computeBasePermissions,
  describeMissing,
  hasPermission,
  highestRole,
  type GuildPermissionContext,
  type HierarchyVerdict,
  type PermissionMember,
} from "@/lib/discord/permissions";
import { judgePermissions, refusalText, type OperationName } from "@/lib/discord/policies";
import { requireDashboardSession, type DashboardSession } from "@/lib/dashboard/auth/session";
import { isBotMode, managementApi } from "./api";
import { readGuildThroughCache } from "./guild-read-cache";
import { botVerdictOn, readBotMember, withBotVerdict } from "./bot-standing";
import { readOrThrow } from "./read";

export interface GuildViewer {
  session: DashboardSession;
  guild: APIGuild;
  /** Highest first. */
  roles: APIRole[];
  member: APIGuildMember;
  context: GuildPermissionContext;
  self: PermissionMember;
  /** In bot mode, the bot: Discord judges it, so its rank bounds what the moderator may do (bot-standing.ts). */
  bot: PermissionMember | null;
  permissions: bigint;
  isOwner: boolean;
  /** Position of the moderator's highest role. */
  highestPosition: number;
  /** When the guild was read (ms): "now" for the page's ages and countdowns, the same on server and client. */
  readAt: number;
}

export function permissionContext(
  guild: Pick<APIGuild, "id" | "owner_id">,
  roles: readonly APIRole[],
): GuildPermissionContext {
  return {
    guildId: guild.id,
    ownerId: guild.owner_id,
    roles: roles.map((r) => ({ id: r.id, position: r.position, permissions: BigInt(r.permissions) })),
  };
}

export function toPermissionMember(
  member: Pick<APIGuildMember, "roles" | "communication_disabled_until"> & { user?: { id: string } },
  userId?: string,
): PermissionMember {
  return {
    userId: userId ?? member.user?.id ?? "",
    roleIds: member.roles,
    communicationDisabledUntil: member.communication_disabled_until ?? null,
  };
}

export function sortRoles(roles: readonly APIRole[]): APIRole[] {
  // Highest first; equal positions: the older role (smaller id) ranks higher.
  return [...roles].sort((a, b) => b.position - a.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

export const getGuildViewer = cache(async (guildId: string): Promise<GuildViewer> =>
  readGuildViewer(await requireDashboardSession(), guildId),
);

/** The signed-in moderator's view of the guild, outside a request's render (the live stream re-reads it so). */
export async function readGuildViewer(session: DashboardSession, guildId: string): Promise<GuildViewer> {
  return readOrThrow(
    async () => {
      const { guild, member, bot } = await readGuildThroughCache(session.sessionToken, guildId, async () => {
        const api = await managementApi(session);
        const [guild, member, bot] = await Promise.all([
          api.guilds.get(guildId),
          api.members.get(guildId, session.actor.id),
          isBotMode() ? readBotMember(api, guildId) : null,
        ]);
        return { guild, member, bot };
      });
      const roles = sortRoles(guild.roles);
      const context = permissionContext(guild, roles);
      const self = toPermissionMember(member, session.actor.id);
      return {
        session,
        guild,
        roles,
        member,
        context,
        self,
        bot: bot ?? null,
        permissions: computeBasePermissions(context, self),
        isOwner: guild.owner_id === session.actor.id,
        highestPosition: highestRole(context, member.roles).position,
        readAt: Date.now(),
      };
    },
    // 403: not a member (Missing Access); 404: no such guild, or (bot mode) the moderator is not in it.
    { notFoundOn: [403, 404] },
  );
}

export function can(viewer: Pick<GuildViewer, "permissions">, flag: bigint): boolean {
  return hasPermission(viewer.permissions, flag);
}

/**
 * Why the moderator may not perform `operation` (setting `fields` of its body), from the one policy table the API
 * and the actions' guards read, or null. Pages use it for their disabled states.
 */
export function refusal(
  viewer: Pick<GuildViewer, "permissions" | "isOwner">,
  operation: OperationName,
  fields: readonly string[] = [],
): string | null {
  return refusalText(judgePermissions(operation, { permissions: viewer.permissions, isOwner: viewer.isOwner, fields }));
}

/** "needs Ban Members", or null when the moderator holds every flag. */
export function missing(viewer: Pick<GuildViewer, "permissions">, ...flags: bigint[]): string | null {
  return describeMissing(
    viewer.permissions,
    flags.reduce((a, b) => a | b, 0n),
  );
}

/** Whether the moderator may edit, move, assign or remove the role: their rank, and in bot mode the bot's. */
export function roleVerdict(viewer: GuildViewer, role: Pick<APIRole, "id" | "position">): HierarchyVerdict {
  return withBotVerdict(canManageRole(viewer.context, viewer.self, role), () =>
    viewer.bot ? canManageRole(viewer.context, viewer.bot, role) : null,
  );
}

/**
 * In bot mode, why the bot may not act on this member (its rank; not on itself), in its words; null in user mode.
 * Pages ask it for the moderator's own member, which the bot renames for them.
 */
export function botRefusal(viewer: Pick<GuildViewer, "context" | "bot">, target: PermissionMember): string | null {
  const verdict = withBotVerdict({ ok: true }, () => botVerdictOn(viewer.context, viewer.bot, target));
  return verdict.ok ? null : verdict.reason;
}

/** Whether the moderator may act on the member: their rank, and in bot mode the bot's. */
export function memberVerdict(
  viewer: GuildViewer,
  member: Pick<APIGuildMember, "roles" | "communication_disabled_until"> & { user: { id: string } },
): HierarchyVerdict {
  const target = toPermissionMember(member);
  return withBotVerdict(canActOnMember(viewer.context, viewer.self, target), () =>
    botVerdictOn(viewer.context, viewer.bot, target),
  );
}
