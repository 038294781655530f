// An AutoMod rule row as Discord's wire object (APIAutoModerationRule): ids as strings, the JSON columns parsed.
import type { APIAutoModerationRule } from "discord-api-types/v10";
import type { AutoModerationRuleRow } from "../store/auto-moderation-rules";

export function serializeAutoModerationRule(row: AutoModerationRuleRow): APIAutoModerationRule {
  return {
    id: String(row.id),
    guild_id: String(row.guild_id),
    name: row.name,
    creator_id: String(row.creator_id),
    event_type: Number(row.event_type),
    trigger_type: Number(row.trigger_type),
    trigger_metadata: JSON.parse(row.trigger_metadata) as APIAutoModerationRule["trigger_metadata"],
    actions: JSON.parse(row.actions) as APIAutoModerationRule["actions"],
    enabled: Boolean(row.enabled),
    exempt_roles: JSON.parse(row.exempt_roles) as string[],
    exempt_channels: JSON.parse(row.exempt_channels) as string[],
  };
}
