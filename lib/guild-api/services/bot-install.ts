// Server installs (setup rule 7): the `bot` scope on /oauth2/authorize adds the application's bot to a guild
// chosen by a user who holds MANAGE_GUILD there. One transaction judges the installer, then creates the bot's
// managed role, its member and the guild integration that Get Guild Integrations lists, with their events and audit
// entries. The role gets only the requested permissions the installer holds (issue 29, finding 6): nobody grants
// through a bot what they could not grant through a role.
import { AuditLogEvent, PermissionFlagsBits as P } from "discord-api-types/v10";
import { computeBasePermissions, hasPermission, maskGrantablePermissions } from "@/lib/discord/permissions";
import { newSnowflake } from "@/lib/discord/snowflake";
import { emitEvent } from "../events";
import { writeAuditLog } from "../audit-log";
import { toPermissionMember } from "../guards";
import { transaction } from "../store/db";
import type { ApplicationRow } from "../store/applications";
import { findGuild, listGuildsOfMember } from "../store/guilds";
import { findApplicationIntegrationId, insertBotIntegration, updateIntegrationGrant } from "../store/integrations";
import { memberRoleIds } from "../store/member-roles";
import { findMember } from "../store/members";
import { insertMember } from "../store/membership";
import {
  findRoleById,
  insertRole,
  listGuildRoles,
  roleRowWithDefaults,
  shiftRolesAboveEveryone,
  type RoleRow,
} from "../store/roles";
import { findUser, type UserRow } from "../store/users";
import { serializeRole } from "../serializers/roles";
import { serializeUser } from "../serializers/users";
import { OAuth2Error } from "./oauth2";

export interface InstallableGuild {
  id: string;
  name: string;
  /** Of the requested permissions, those the bot's role would get here: the ones the installer holds. */
  grantedPermissions: bigint;
  /** Of the requested permissions, those dropped here because the installer lacks them. */
  droppedPermissions: bigint;
}

const SERVER_INSTALL = 0;

export const supportsServerInstall = (application: ApplicationRow) =>
  (JSON.parse(application.integration_types) as number[]).includes(SERVER_INSTALL);

/** The installer's base permissions in the guild (the engine's, timeout applied), or null when not a member. */
async function installerPermissions(guildId: bigint, ownerId: bigint, userId: bigint): Promise<bigint | null> {
  const member = await findMember(guildId, userId);
  if (!member) return null;
  const roles = await listGuildRoles(guildId);
  return computeBasePermissions(
    {
      guildId: String(guildId),
      ownerId: String(ownerId),
      roles: roles.map((r) => ({ id: String(r.id), position: Number(r.position), permissions: r.permissions })),
    },
    toPermissionMember(member, await memberRoleIds(guildId, userId)),
  );
}

const canInstall = (permissions: bigint | null): permissions is bigint =>
  permissions !== null && hasPermission(permissions, P.ManageGuild);

/**
 * The guilds where `userId` may install a bot (owner, or MANAGE_GUILD), each with what the bot's role would get
 * there of `requested` and what would be dropped: the consent page shows both.
 */
export async function installableGuilds(userId: bigint, requested = 0n): Promise<InstallableGuild[]> {
  const installable: InstallableGuild[] = [];
  for (const g of await listGuildsOfMember(userId)) {
    const permissions = await installerPermissions(g.id, g.owner_id, userId);
    if (!canInstall(permissions)) continue;
    const { granted, dropped } = maskGrantablePermissions(requested, permissions);
    installable.push({ id: String(g.id), name: g.name, grantedPermissions: granted, droppedPermissions: dropped });
  }
  return installable;
}

export async function installBot(input: {
  application: ApplicationRow;
  userId: bigint;
  guildId: bigint;
  permissions: bigint;
  scopes: readonly string[];
  now?: number;
}): Promise<{ grantedPermissions: bigint; droppedPermissions: bigint }> {
  const { application, userId, guildId } = input;
  const now = input.now ?? Date.now();
  if (!supportsServerInstall(application))
    throw new OAuth2Error("invalid_request", `${application.name} can't be installed to servers (user install only).`);
  if (!application.bot_user_id) throw new OAuth2Error("invalid_request", `${application.name} has no bot.`);
  const botId = application.bot_user_id;

  return await transaction(async () => {
    // Judged in the transaction that writes: a role taken away meanwhile counts.
    const guild = await findGuild(guildId);
    const permissions = guild ? await installerPermissions(guildId, guild.owner_id, userId) : null;
    if (!canInstall(permissions))
      throw new OAuth2Error("access_denied", "You need Manage Server in that server to add a bot to it.");
    const { granted, dropped } = maskGrantablePermissions(input.permissions, permissions);
    const bot = (await findUser(botId)) as UserRow;
    if (!(await findMember(guildId, botId))) {
      // The managed role sits just above @everyone, as Discord places a new bot's role.
      await shiftRolesAboveEveryone(guildId);
      const roleId = newSnowflake();
      await insertRole(
        roleRowWithDefaults({
          id: roleId,
          guild_id: guildId,
          name: application.name,
          permissions: granted,
          position: 1n,
          managed: 1n,
          tags: JSON.stringify({ bot_id: String(botId) }),
        }),
      );
      const role = (await findRoleById(roleId)) as RoleRow;
      await emitEvent(guildId, "GUILD_ROLE_CREATE", { guild_id: String(guildId), role: serializeRole(role) }, now);
      await insertMember({ guildId, userId: botId, username: bot.username, roleIds: [roleId], now });
      await emitEvent(
        guildId,
        "GUILD_MEMBER_ADD",
        {
          guild_id: String(guildId),
          user: serializeUser(bot),
          roles: [String(roleId)],
          nick: null,
          joined_at: new Date(now).toISOString(),
          deaf: false,
          mute: false,
          flags: 0,
          pending: false,
        },
        now,
      );
      await writeAuditLog({ guildId, userId, actionType: AuditLogEvent.BotAdd, targetId: botId });
    }
    const existing = await findApplicationIntegrationId(guildId, application.id);
    if (existing !== undefined) {
      await updateIntegrationGrant(existing, JSON.stringify(input.scopes), userId);
    } else {
      const integrationId = newSnowflake();
      await insertBotIntegration({
        id: integrationId,
        guildId,
        name: application.name,
        userId,
        botId,
        applicationId: application.id,
        scopes: JSON.stringify(input.scopes),
        now: BigInt(now),
      });
      await writeAuditLog({ guildId, userId, actionType: AuditLogEvent.IntegrationCreate, targetId: integrationId });
    }
    await emitEvent(guildId, "GUILD_INTEGRATIONS_UPDATE", { guild_id: String(guildId) }, now);
    return { grantedPermissions: granted, droppedPermissions: dropped };
  });
}
