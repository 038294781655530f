// The integrations table: bots installed in a guild (type "discord") and other connected services.
import { sql } from "./db";

export interface IntegrationRow {
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
/** An integration with its application's columns (null when it has none). */
export type IntegrationListRow = IntegrationRow & {
  app_name: string | null;
  app_icon: string | null;
  app_description: string | null;
  app_bot_user_id: bigint | null;
};

/** The guild's integrations, oldest first, at most `limit`. */
export async function listGuildIntegrations(guildId: bigint, limit: number): Promise<IntegrationListRow[]> {
  return (await sql.all(
    `SELECT i.*, a.name AS app_name, a.icon AS app_icon, a.description AS app_description, a.bot_user_id AS app_bot_user_id
     FROM integrations i LEFT JOIN applications a ON a.id = i.application_id
     WHERE i.guild_id = ? ORDER BY i.created_at, i.id LIMIT ?`,
    guildId,
    limit,
  )) as IntegrationListRow[];
}

export async function findIntegration(guildId: bigint, integrationId: bigint): Promise<IntegrationRow | undefined> {
  return (await sql.get("SELECT * FROM integrations WHERE id = ? AND guild_id = ?", integrationId, guildId)) as
    IntegrationRow | undefined;
}

/** The application's integration in the guild (its bot's install), if any. */
export async function findApplicationIntegrationId(
  guildId: bigint,
  applicationId: bigint,
): Promise<bigint | undefined> {
  return (await sql.value(
    "SELECT id FROM integrations WHERE guild_id = ? AND application_id = ?",
    guildId,
    applicationId,
  )) as bigint | undefined;
}

/** A bot install: an enabled "discord" integration named after the application, account = the bot. */
export async function insertBotIntegration(integration: {
  id: bigint;
  guildId: bigint;
  name: string;
  userId: bigint;
  botId: bigint;
  applicationId: bigint;
  scopes: string;
  now: bigint;
}): Promise<void> {
  await sql.run(
    `INSERT INTO integrations (id, guild_id, name, type, enabled, user_id, account_id, account_name, application_id, scopes, created_at)
     VALUES (?, ?, ?, 'discord', TRUE, ?, ?, ?, ?, ?, ?)`,
    integration.id,
    integration.guildId,
    integration.name,
    integration.userId,
    String(integration.botId),
    integration.name,
    integration.applicationId,
    integration.scopes,
    integration.now,
  );
}

/** A reinstall: the scopes granted and who installed it. */
export async function updateIntegrationGrant(integrationId: bigint, scopes: string, userId: bigint): Promise<void> {
  await sql.run("UPDATE integrations SET scopes = ?, user_id = ? WHERE id = ?", scopes, userId, integrationId);
}

export async function deleteIntegration(integrationId: bigint): Promise<void> {
  await sql.run("DELETE FROM integrations WHERE id = ?", integrationId);
}
