// Server installs (setup rule 7): the `bot` scope on /oauth2/authorize adds the application's bot to a guild
// chosen by a user who holds MANAGE_GUILD there. One transaction creates the bot's managed role, its member
// and the guild integration that Get Guild Integrations lists, with their events and audit entries.
import { AuditLogEvent, PermissionFlagsBits as P } from "discord-api-types/v10";
import { computeBasePermissions, hasPermission } from "@/lib/discord/permissions";
import { newSnowflake } from "@/lib/discord/snowflake";
import { emitEvent } from "../events";
import { writeAuditLog } from "../audit-log";
import { sql, transaction } from "../store/db";
import { findMember, listGuildRoles, memberRoleIds, type RoleRow } from "../store/guild-context";
import { insertMember } from "../store/membership";
import { serializeRole } from "../serializers/role";
import { serializeUser, USER_COLUMNS, type UserRow } from "../serializers/user";
import { OAuth2Error, type ApplicationRow } from "./oauth2";

export interface InstallableGuild {
  id: string;
  name: string;
}

const SERVER_INSTALL = 0;

export const supportsServerInstall = (application: ApplicationRow) =>
  (JSON.parse(application.integration_types) as number[]).includes(SERVER_INSTALL);

function canManageGuild(guildId: bigint, ownerId: bigint, userId: bigint): boolean {
  if (!findMember(guildId, userId)) return false;
  const roles = listGuildRoles(guildId);
  const permissions = computeBasePermissions(
    {
      guildId: String(guildId),
      ownerId: String(ownerId),
      roles: roles.map((r) => ({ id: String(r.id), position: Number(r.position), permissions: r.permissions })),
    },
    { userId: String(userId), roleIds: memberRoleIds(guildId, userId).map(String) },
  );
  return hasPermission(permissions, P.ManageGuild);
}

/** The guilds where `userId` may install a bot: owner, or MANAGE_GUILD. */
export function installableGuilds(userId: bigint): InstallableGuild[] {
  const guilds = sql(
    "SELECT g.id, g.name, g.owner_id FROM members m JOIN guilds g ON g.id = m.guild_id WHERE m.user_id = ? ORDER BY g.name",
  ).all(userId) as Array<{ id: bigint; name: string; owner_id: bigint }>;
  return guilds
    .filter((g) => canManageGuild(g.id, g.owner_id, userId))
    .map((g) => ({ id: String(g.id), name: g.name }));
}

export function installBot(input: {
  application: ApplicationRow;
  userId: bigint;
  guildId: bigint;
  permissions: bigint;
  scopes: readonly string[];
  now?: number;
}): void {
  const { application, userId, guildId } = input;
  const now = input.now ?? Date.now();
  if (!supportsServerInstall(application))
    throw new OAuth2Error("invalid_request", `${application.name} can't be installed to servers (user install only).`);
  if (!application.bot_user_id) throw new OAuth2Error("invalid_request", `${application.name} has no bot.`);
  const guild = sql("SELECT id, owner_id FROM guilds WHERE id = ?").get(guildId) as
    { id: bigint; owner_id: bigint } | undefined;
  if (!guild || !canManageGuild(guildId, guild.owner_id, userId))
    throw new OAuth2Error("access_denied", "You need Manage Server in that server to add a bot to it.");
  const botId = application.bot_user_id;
  const bot = sql(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(botId) as UserRow;

  transaction(() => {
    if (!findMember(guildId, botId)) {
      // The managed role sits just above @everyone, as Discord places a new bot's role.
      sql("UPDATE roles SET position = position + 1 WHERE guild_id = ? AND position >= 1").run(guildId);
      const roleId = newSnowflake();
      sql(
        "INSERT INTO roles (id, guild_id, name, permissions, position, managed, tags) VALUES (?, ?, ?, ?, 1, 1, ?)",
      ).run(roleId, guildId, application.name, input.permissions, JSON.stringify({ bot_id: String(botId) }));
      const role = sql("SELECT * FROM roles WHERE id = ?").get(roleId) as RoleRow;
      emitEvent(guildId, "GUILD_ROLE_CREATE", { guild_id: String(guildId), role: serializeRole(role) }, now);
      insertMember({ guildId, userId: botId, username: bot.username, roleIds: [roleId], now });
      emitEvent(
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
      writeAuditLog({ guildId, userId, actionType: AuditLogEvent.BotAdd, targetId: botId });
    }
    const existing = sql("SELECT id FROM integrations WHERE guild_id = ? AND application_id = ?").get(
      guildId,
      application.id,
    ) as { id: bigint } | undefined;
    if (existing) {
      sql("UPDATE integrations SET scopes = ?, user_id = ? WHERE id = ?").run(
        JSON.stringify(input.scopes),
        userId,
        existing.id,
      );
    } else {
      const integrationId = newSnowflake();
      sql(
        `INSERT INTO integrations (id, guild_id, name, type, enabled, user_id, account_id, account_name, application_id, scopes, created_at)
         VALUES (?, ?, ?, 'discord', 1, ?, ?, ?, ?, ?, ?)`,
      ).run(
        integrationId,
        guildId,
        application.name,
        userId,
        String(botId),
        application.name,
        application.id,
        JSON.stringify(input.scopes),
        BigInt(now),
      );
      writeAuditLog({ guildId, userId, actionType: AuditLogEvent.IntegrationCreate, targetId: integrationId });
    }
    emitEvent(guildId, "GUILD_INTEGRATIONS_UPDATE", { guild_id: String(guildId) }, now);
  });
}
