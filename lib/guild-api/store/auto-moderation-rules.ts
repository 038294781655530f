// The auto_moderation_rules table: a guild's AutoMod rules, their trigger metadata, actions and exempt ids as JSON.
// Member-profile rules are read on every join and name change, so a guild's enabled ones go through the read cache
// (which any write empties).
import { sql } from "./db";
import type { MaybePromise } from "../maybe-promise";
import { readCache } from "./read-cache";

export interface AutoModerationRuleRow {
  id: bigint;
  guild_id: bigint;
  name: string;
  creator_id: bigint;
  event_type: bigint;
  trigger_type: bigint;
  trigger_metadata: string;
  actions: string;
  enabled: bigint | boolean;
  exempt_roles: string;
  exempt_channels: string;
}

/** The guild's rules, oldest first (ids are creation times). */
export async function listGuildAutoModerationRules(guildId: bigint): Promise<AutoModerationRuleRow[]> {
  return (await sql.all(
    "SELECT * FROM auto_moderation_rules WHERE guild_id = ? ORDER BY id",
    guildId,
  )) as AutoModerationRuleRow[];
}

export async function findAutoModerationRule(
  guildId: bigint,
  ruleId: bigint,
): Promise<AutoModerationRuleRow | undefined> {
  return (await sql.get("SELECT * FROM auto_moderation_rules WHERE guild_id = ? AND id = ?", guildId, ruleId)) as
    AutoModerationRuleRow | undefined;
}

export async function countRulesOfTriggerType(guildId: bigint, triggerType: number): Promise<number> {
  return Number(
    (await sql.value(
      "SELECT COUNT(*) FROM auto_moderation_rules WHERE guild_id = ? AND trigger_type = ?",
      guildId,
      triggerType,
    )) as bigint,
  );
}

/** The guild's enabled member-profile rules (trigger type 6), oldest first, through the read cache. */
export const listEnabledMemberProfileRules: (guildId: bigint) => MaybePromise<readonly AutoModerationRuleRow[]> =
  readCache(
    async (guildId: bigint) =>
      (await sql.all(
        "SELECT * FROM auto_moderation_rules WHERE guild_id = ? AND trigger_type = 6 AND enabled = ? ORDER BY id",
        guildId,
        1,
      )) as AutoModerationRuleRow[],
    1_000,
  );

export async function insertAutoModerationRule(rule: AutoModerationRuleRow): Promise<void> {
  await sql.run(
    `INSERT INTO auto_moderation_rules (id, guild_id, name, creator_id, event_type, trigger_type, trigger_metadata, actions, enabled, exempt_roles, exempt_channels)
     VALUES (@id, @guild_id, @name, @creator_id, @event_type, @trigger_type, @trigger_metadata, @actions, @enabled, @exempt_roles, @exempt_channels)`,
    { ...rule, enabled: rule.enabled ? 1 : 0 },
  );
}

export async function updateAutoModerationRule(rule: AutoModerationRuleRow): Promise<void> {
  await sql.run(
    `UPDATE auto_moderation_rules SET name = @name, event_type = @event_type, trigger_metadata = @trigger_metadata,
     actions = @actions, enabled = @enabled, exempt_roles = @exempt_roles, exempt_channels = @exempt_channels
     WHERE guild_id = @guild_id AND id = @id`,
    {
      id: rule.id,
      guild_id: rule.guild_id,
      name: rule.name,
      event_type: rule.event_type,
      trigger_metadata: rule.trigger_metadata,
      actions: rule.actions,
      enabled: rule.enabled ? 1 : 0,
      exempt_roles: rule.exempt_roles,
      exempt_channels: rule.exempt_channels,
    },
  );
}

/** False when there was no such rule. */
export async function deleteAutoModerationRule(guildId: bigint, ruleId: bigint): Promise<boolean> {
  return (
    (await sql.run("DELETE FROM auto_moderation_rules WHERE guild_id = ? AND id = ?", guildId, ruleId)).changes > 0
  );
}
