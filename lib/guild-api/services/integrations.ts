// The spec's "Voice regions, invites, integrations" operations (invites live in services/invites.ts) and
// Get Guild Vanity URL: Get Guild Voice Regions, Get Guild Integrations, Delete Guild Integration.
import { AuditLogEvent } from "discord-api-types/v10";
import { INTEGRATIONS_MAX } from "@/lib/discord/limits";
import { Errors } from "../errors";
import { emitEvent } from "../events";
import { auditByCaller } from "../audit-log";
import { type GuildAccess, type OverwriteJson } from "../guards";
import { transaction } from "../store/db";
import { findApplicationBotUser } from "../store/applications";
import { listChannelsWithOverwriteFor, updateChannelOverwrites } from "../store/channels";
import {
  deleteIntegration,
  findIntegration,
  listGuildIntegrations,
  type IntegrationListRow,
} from "../store/integrations";
import { deleteMember, removeRoleFromMembers } from "../store/membership";
import { deleteRole, listManagedRoles, type RoleRow } from "../store/roles";
import { listUsersByIds, type UserRow } from "../store/users";
import { serializeChannel } from "../serializers/channels";
import { iso } from "../serializers/members";
import { serializeUser } from "../serializers/users";
import { voiceRegionsFor } from "../voice-regions";

/** Get Guild Voice Regions: any member; VIP regions only for guilds with VIP_REGIONS. */
export function getGuildVoiceRegions(access: GuildAccess) {
  return voiceRegionsFor(JSON.parse(access.guild.features) as string[]);
}

/** Get Guild Vanity URL: `{code, uses}`, code null when the guild has none. */
export function getGuildVanityUrl(access: GuildAccess) {
  access.authorize("Get Guild Vanity URL");
  return { code: access.guild.vanity_url_code, uses: Number(access.guild.vanity_url_uses) };
}

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
export async function getGuildIntegrations(access: GuildAccess) {
  access.authorize("Get Guild Integrations");
  const rows = await listGuildIntegrations(access.guildId, INTEGRATIONS_MAX);
  const userIds = [
    ...new Set(rows.flatMap((r) => [r.user_id, r.app_bot_user_id]).filter((id): id is bigint => id !== null)),
  ];
  const users = new Map((await listUsersByIds(userIds)).map((u) => [String(u.id), u]));
  return rows.map((row) => serializeIntegration(row, users));
}

/**
 * Deletes a managed role inside the caller's transaction: its holders' role_count, its channel overwrites
 * (CHANNEL_UPDATE for each channel that had one) and the role itself (GUILD_ROLE_DELETE).
 */
async function deleteManagedRole(access: GuildAccess, role: RoleRow, now: number): Promise<void> {
  const guildId = access.guildId;
  await removeRoleFromMembers(guildId, role.id);
  const roleId = String(role.id);
  const channels = await listChannelsWithOverwriteFor(guildId, role.id);
  for (const channel of channels) {
    const overwrites = (JSON.parse(channel.permission_overwrites) as OverwriteJson[]).filter((o) => o.id !== roleId);
    const json = JSON.stringify(overwrites);
    if (json === channel.permission_overwrites) continue;
    await updateChannelOverwrites(channel.id, json);
    await emitEvent(guildId, "CHANNEL_UPDATE", serializeChannel({ ...channel, permission_overwrites: json }), now);
  }
  await deleteRole(guildId, role.id);
  await emitEvent(guildId, "GUILD_ROLE_DELETE", { guild_id: String(guildId), role_id: roleId }, now);
}

/**
 * Delete Guild Integration: MANAGE_GUILD. Removes the integration; for a bot integration also kicks the bot
 * (GUILD_MEMBER_REMOVE) and deletes its managed role (GUILD_ROLE_DELETE); a managed role tied to the integration
 * itself goes too. Then GUILD_INTEGRATIONS_UPDATE and INTEGRATION_DELETE, and one audit entry. One transaction.
 */
export async function deleteGuildIntegration(
  access: GuildAccess,
  integrationId: bigint,
  reason: string | null,
  now = Date.now(),
): Promise<void> {
  access.authorize("Delete Guild Integration");
  await transaction(async () => {
    const integration = await findIntegration(access.guildId, integrationId);
    if (!integration) throw Errors.unknownIntegration();
    const guildId = String(access.guildId);
    await deleteIntegration(integrationId);

    const bot =
      integration.application_id === null ? undefined : await findApplicationBotUser(integration.application_id);
    if (bot && (await deleteMember(access.guildId, bot.id)))
      await emitEvent(access.guildId, "GUILD_MEMBER_REMOVE", { guild_id: guildId, user: serializeUser(bot) }, now);
    const managedRoles = await listManagedRoles(access.guildId, bot ? String(bot.id) : null, String(integrationId));
    for (const role of managedRoles) await deleteManagedRole(access, role, now);

    await emitEvent(access.guildId, "GUILD_INTEGRATIONS_UPDATE", { guild_id: guildId }, now);
    await emitEvent(
      access.guildId,
      "INTEGRATION_DELETE",
      {
        id: String(integrationId),
        guild_id: guildId,
        ...(integration.application_id === null ? {} : { application_id: String(integration.application_id) }),
      },
      now,
    );
    await auditByCaller(access, {
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
