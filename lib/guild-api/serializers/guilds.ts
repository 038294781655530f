// The guild object (every field GuildResponse requires), with its roles, emojis and stickers.
import type { AuditLogEntryRow } from "../store/audit-log-entries";
import type { EmojiRow, StickerRow } from "../store/expressions";
import type { GuildRow } from "../store/guilds";
import type { RoleRow } from "../store/roles";
import { serializeRole } from "./roles";

const id = (value: bigint | null) => (value === null ? null : String(value));
const iso = (ms: bigint | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export const serializeEmoji = (row: EmojiRow) => ({
  id: String(row.id),
  name: row.name,
  roles: JSON.parse(row.roles) as string[],
  require_colons: Boolean(row.require_colons),
  managed: Boolean(row.managed),
  animated: Boolean(row.animated),
  available: Boolean(row.available),
});

export const serializeSticker = (row: StickerRow) => ({
  id: String(row.id),
  guild_id: String(row.guild_id),
  name: row.name,
  description: row.description,
  tags: row.tags,
  type: 2,
  format_type: Number(row.format_type),
  available: Boolean(row.available),
});

/** incidents_data, or null when no incident action or detection is on record. */
export function serializeIncidentsData(guild: GuildRow) {
  if (
    guild.invites_disabled_until === null &&
    guild.dms_disabled_until === null &&
    guild.dm_spam_detected_at === null &&
    guild.raid_detected_at === null
  )
    return null;
  return {
    invites_disabled_until: iso(guild.invites_disabled_until),
    dms_disabled_until: iso(guild.dms_disabled_until),
    dm_spam_detected_at: iso(guild.dm_spam_detected_at),
    raid_detected_at: iso(guild.raid_detected_at),
  };
}

export function serializeGuild(
  guild: GuildRow,
  roles: readonly RoleRow[],
  emojis: readonly EmojiRow[],
  stickers: readonly StickerRow[],
) {
  const features = JSON.parse(guild.features) as string[];
  return {
    id: String(guild.id),
    name: guild.name,
    icon: guild.icon,
    description: guild.description,
    home_header: null,
    splash: guild.splash,
    discovery_splash: guild.discovery_splash,
    features,
    banner: guild.banner,
    owner_id: String(guild.owner_id),
    application_id: id(guild.application_id),
    region: guild.region ?? "deprecated",
    afk_channel_id: id(guild.afk_channel_id),
    afk_timeout: Number(guild.afk_timeout),
    system_channel_id: id(guild.system_channel_id),
    system_channel_flags: Number(guild.system_channel_flags),
    widget_enabled: Boolean(guild.widget_enabled),
    widget_channel_id: id(guild.widget_channel_id),
    verification_level: Number(guild.verification_level),
    roles: roles.map(serializeRole),
    default_message_notifications: Number(guild.default_message_notifications),
    mfa_level: Number(guild.mfa_level),
    explicit_content_filter: Number(guild.explicit_content_filter),
    max_presences: guild.max_presences === null ? null : Number(guild.max_presences),
    max_members: Number(guild.max_members),
    max_stage_video_channel_users: Number(guild.max_stage_video_channel_users),
    max_video_channel_users: Number(guild.max_video_channel_users),
    vanity_url_code: guild.vanity_url_code,
    premium_tier: Number(guild.premium_tier),
    premium_subscription_count: Number(guild.premium_subscription_count),
    preferred_locale: guild.preferred_locale,
    rules_channel_id: id(guild.rules_channel_id),
    safety_alerts_channel_id: id(guild.safety_alerts_channel_id),
    public_updates_channel_id: id(guild.public_updates_channel_id),
    premium_progress_bar_enabled: Boolean(guild.premium_progress_bar_enabled),
    nsfw: guild.nsfw_level === 1n || guild.nsfw_level === 3n,
    nsfw_level: Number(guild.nsfw_level),
    emojis: emojis.map(serializeEmoji),
    stickers: stickers.map(serializeSticker),
    incidents_data: serializeIncidentsData(guild),
  };
}

/** An audit-log entry: changes, options and reason only when recorded. */
export function serializeAuditLogEntry(row: AuditLogEntryRow) {
  return {
    id: String(row.id),
    user_id: id(row.user_id),
    target_id: row.target_id,
    action_type: Number(row.action_type),
    ...(row.changes ? { changes: JSON.parse(row.changes) as unknown[] } : {}),
    ...(row.options ? { options: JSON.parse(row.options) as Record<string, string> } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
  };
}
