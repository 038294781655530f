// The spec's "Voice regions, invites, integrations" operations (invites live in services/invites.ts) and
// Get Guild Vanity URL: Get Guild Voice Regions, Get Guild Integrations, Delete Guild Integration.
import { AuditLogEvent } from "discord-api-types/v10";
import { INTEGRATIONS_MAX } from "@/lib/discord/limits";
import { Errors } from "../errors";
import { emitEvent } from "../events";
import { writeAuditLog } from "../audit-log";
import { type GuildAccess, type OverwriteJson } from "../guards";
import { sql, transaction } from "../store/db";
import type { RoleRow } from "../store/guild-context";
import { deleteMember } from "../store/membership";
import { serializeChannel, type ChannelRow } from "../serializers/channel";
import { iso } from "../serializers/member";
import { serializeUser, USER_COLUMNS, type UserRow } from "../serializers/user";
import { voiceRegionsFor } from "../voice-regions";

const USER_COLUMNS_OF_U = USER_COLUMNS.split(", ")
  .map((c) => `u.${c}`)
  .join(", ");

/** Get Guild Voice Regions: any member; VIP regions only for guilds with VIP_REGIONS. */
export function getGuildVoiceRegions(access: GuildAccess) {
  return voiceRegionsFor(JSON.parse(access.guild.features) as string[]);
}

/** Get Guild Vanity URL: `{code, uses}`, code null when the guild has none. */
export function getGuildVanityUrl(access: GuildAccess) {
  access.authorize("Get Guild Vanity URL");
  return { code: access.guild.vanity_url_code, uses: Number(access.guild.vanity_url_uses) };
}

interface IntegrationRow {
  id: bigint;
  guild_id: bigint;
  name: string;
  type: string;
  enabled: bigint;
  syncing: bigint | null;
  role_id: bigint | null;
  enable_emoticons: bigint | null;
  expire_behavior: bigint | null;
  expire_grace_period: bigint | null;
  user_id: bigint | null;
  account_id: string;
  account_name: string;
  synced_at: bigint | null;
  subscriber_count: bigint | null;
  revoked: bigint | null;
  application_id: bigint | null;
  scopes: string;
  created_at: bigint;
}
type IntegrationListRow = IntegrationRow & {
  app_name: string | null;
  app_icon: string | null;
  app_description: string | null;
  app_bot_user_id: bigint | null;
};

/**
 * The integration object. Bot integrations (type "discord") carry `application` and `scopes` and none of the
 * subscription fields (syncing, role_id, enable_emoticons, expire_*, synced_at, subscriber_count, revoked);
 * the other kinds carry those they have.
 */
function serializeIntegration(row: IntegrationListRow, users: ReadonlyMap<string, UserRow>) {
  const integration: Record<string, unknown> = {
    id: String(row.id),
    name: row.name,
    type: row.type,
    enabled: Boolean(row.enabled),
    account: { id: row.account_id, name: row.account_name },
  };
  const user = row.user_id === null ? undefined : users.get(String(row.user_id));
  if (user) integration.user = serializeUser(user);
  if (row.type === "discord") {
    if (row.application_id !== null && row.app_name !== null) {
      const bot = row.app_bot_user_id === null ? undefined : users.get(String(row.app_bot_user_id));
      integration.application = {
        id: String(row.application_id),
        name: row.app_name,
        icon: row.app_icon,
        description: row.app_description ?? "",
        // Deprecated on Discord and always "" there, but still sent: discord.py 2.2 reads it unguarded.
        summary: "",
        type: null,
        ...(bot ? { bot: serializeUser(bot) } : {}),
      };
    }
    integration.scopes = JSON.parse(row.scopes) as string[];
    return integration;
  }
  integration.role_id = row.role_id === null ? null : String(row.role_id);
  const optional: Record<string, unknown> = {
    syncing: row.syncing === null ? null : Boolean(row.syncing),
    enable_emoticons: row.enable_emoticons === null ? null : Boolean(row.enable_emoticons),
    expire_behavior: row.expire_behavior === null ? null : Number(row.expire_behavior),
    expire_grace_period: row.expire_grace_period === null ? null : Number(row.expire_grace_period),
    synced_at: iso(row.synced_at),
    subscriber_count: row.subscriber_count === null ? null : Number(row.subscriber_count),
    revoked: row.revoked === null ? null : Boolean(row.revoked),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== null) integration[key] = value;
  return integration;
}

/** Get Guild Integrations: MANAGE_GUILD; the 50 oldest (any beyond 50 are inaccessible, as on Discord). */
export function getGuildIntegrations(access: GuildAccess) {
  access.authorize("Get Guild Integrations");
  const rows = sql(
    `SELECT i.*, a.name AS app_name, a.icon AS app_icon, a.description AS app_description, a.bot_user_id AS app_bot_user_id
     FROM integrations i LEFT JOIN applications a ON a.id = i.application_id
     WHERE i.guild_id = ? ORDER BY i.created_at, i.id LIMIT ?`,
  ).all(access.guildId, INTEGRATIONS_MAX) as IntegrationListRow[];
  const userIds = [
    ...new Set(rows.flatMap((r) => [r.user_id, r.app_bot_user_id]).filter((id): id is bigint => id !== null)),
  ];
  const users = new Map(
    (
      sql(`SELECT ${USER_COLUMNS} FROM users WHERE id IN (SELECT value FROM json_each(?))`).all(
        `[${userIds.join(",")}]`,
      ) as UserRow[]
    ).map((u) => [String(u.id), u]),
  );
  return rows.map((row) => serializeIntegration(row, users));
}

/**
 * Deletes a managed role inside the caller's transaction: its holders' role_count, its channel overwrites
 * (CHANNEL_UPDATE for each channel that had one) and the role itself (GUILD_ROLE_DELETE).
 */
function deleteManagedRole(access: GuildAccess, role: RoleRow, now: number): void {
  const guildId = access.guildId;
  sql(
    "UPDATE members SET role_count = role_count - 1 WHERE guild_id = ? AND user_id IN (SELECT user_id FROM member_roles WHERE guild_id = ? AND role_id = ?)",
  ).run(guildId, guildId, role.id);
  sql("DELETE FROM member_roles WHERE guild_id = ? AND role_id = ?").run(guildId, role.id);
  const roleId = String(role.id);
  const channels = sql("SELECT * FROM channels WHERE guild_id = ? AND instr(permission_overwrites, ?) > 0").all(
    guildId,
    `"${roleId}"`,
  ) as ChannelRow[];
  for (const channel of channels) {
    const overwrites = (JSON.parse(channel.permission_overwrites) as OverwriteJson[]).filter((o) => o.id !== roleId);
    const json = JSON.stringify(overwrites);
    if (json === channel.permission_overwrites) continue;
    sql("UPDATE channels SET permission_overwrites = ? WHERE id = ?").run(json, channel.id);
    emitEvent(guildId, "CHANNEL_UPDATE", serializeChannel({ ...channel, permission_overwrites: json }), now);
  }
  sql("DELETE FROM roles WHERE id = ?").run(role.id);
  emitEvent(guildId, "GUILD_ROLE_DELETE", { guild_id: String(guildId), role_id: roleId }, now);
}

/**
 * Delete Guild Integration: MANAGE_GUILD. Removes the integration; for a bot integration also kicks the bot
 * (GUILD_MEMBER_REMOVE) and deletes its managed role (GUILD_ROLE_DELETE); a managed role tied to the integration
 * itself goes too. Then GUILD_INTEGRATIONS_UPDATE and INTEGRATION_DELETE, and one audit entry. One transaction.
 */
export function deleteGuildIntegration(
  access: GuildAccess,
  integrationId: bigint,
  reason: string | null,
  now = Date.now(),
): void {
  access.authorize("Delete Guild Integration");
  transaction(() => {
    const integration = sql("SELECT * FROM integrations WHERE id = ? AND guild_id = ?").get(
      integrationId,
      access.guildId,
    ) as IntegrationRow | undefined;
    if (!integration) throw Errors.unknownIntegration();
    const guildId = String(access.guildId);
    sql("DELETE FROM integrations WHERE id = ?").run(integrationId);

    const bot =
      integration.application_id === null
        ? undefined
        : (sql(
            `SELECT ${USER_COLUMNS_OF_U} FROM applications a JOIN users u ON u.id = a.bot_user_id WHERE a.id = ?`,
          ).get(integration.application_id) as UserRow | undefined);
    if (bot && deleteMember(access.guildId, bot.id))
      emitEvent(access.guildId, "GUILD_MEMBER_REMOVE", { guild_id: guildId, user: serializeUser(bot) }, now);
    const managedRoles = sql(
      `SELECT * FROM roles WHERE guild_id = ? AND managed = 1
       AND (json_extract(tags, '$.bot_id') = ? OR json_extract(tags, '$.integration_id') = ?)`,
    ).all(access.guildId, bot ? String(bot.id) : null, String(integrationId)) as RoleRow[];
    for (const role of managedRoles) deleteManagedRole(access, role, now);

    emitEvent(access.guildId, "GUILD_INTEGRATIONS_UPDATE", { guild_id: guildId }, now);
    emitEvent(
      access.guildId,
      "INTEGRATION_DELETE",
      {
        id: String(integrationId),
        guild_id: guildId,
        ...(integration.application_id === null ? {} : { application_id: String(integration.application_id) }),
      },
      now,
    );
    writeAuditLog({
      guildId: access.guildId,
      userId: access.caller.userId,
      actionType: AuditLogEvent.IntegrationDelete,
      targetId: integrationId,
      reason,
      changes: [
        { key: "type", old_value: integration.type },
        { key: "name", old_value: integration.name },
      ],
    });
  });
}
