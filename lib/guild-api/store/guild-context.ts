// Rows every guild operation reads first: the guild, its roles, and a member with its role ids.
import { sql } from "./db";
import { readCache } from "./read-cache";

export interface GuildRow {
  id: bigint;
  name: string;
  icon: string | null;
  splash: string | null;
  discovery_splash: string | null;
  banner: string | null;
  description: string | null;
  owner_id: bigint;
  application_id: bigint | null;
  region: string | null;
  afk_channel_id: bigint | null;
  afk_timeout: bigint;
  widget_enabled: bigint;
  widget_channel_id: bigint | null;
  verification_level: bigint;
  default_message_notifications: bigint;
  explicit_content_filter: bigint;
  features: string;
  mfa_level: bigint;
  system_channel_id: bigint | null;
  system_channel_flags: bigint;
  rules_channel_id: bigint | null;
  public_updates_channel_id: bigint | null;
  safety_alerts_channel_id: bigint | null;
  max_members: bigint;
  max_presences: bigint | null;
  max_video_channel_users: bigint;
  max_stage_video_channel_users: bigint;
  vanity_url_code: string | null;
  vanity_url_uses: bigint;
  premium_tier: bigint;
  premium_subscription_count: bigint;
  preferred_locale: string;
  nsfw_level: bigint;
  premium_progress_bar_enabled: bigint;
  member_count: bigint;
  invites_disabled_until: bigint | null;
  dms_disabled_until: bigint | null;
  dm_spam_detected_at: bigint | null;
  raid_detected_at: bigint | null;
  welcome_description: string | null;
  welcome_channels: string;
  widget_version: bigint;
  created_at: bigint;
}

export interface RoleRow {
  id: bigint;
  guild_id: bigint;
  name: string;
  permissions: bigint;
  position: bigint;
  color: bigint;
  secondary_color: bigint | null;
  tertiary_color: bigint | null;
  hoist: bigint;
  icon: string | null;
  unicode_emoji: string | null;
  managed: bigint;
  mentionable: bigint;
  flags: bigint;
  tags: string | null;
}

export interface MemberRow {
  guild_id: bigint;
  user_id: bigint;
  nick: string | null;
  avatar: string | null;
  banner: string | null;
  joined_at: bigint;
  premium_since: bigint | null;
  deaf: bigint;
  mute: bigint;
  flags: bigint;
  pending: bigint;
  communication_disabled_until: bigint | null;
  last_active_at: bigint;
  role_count: bigint;
  status: string;
}

export const MEMBER_COLUMNS =
  "m.guild_id, m.user_id, m.nick, m.avatar, m.banner, m.joined_at, m.premium_since, m.deaf, m.mute, m.flags, m.pending, m.communication_disabled_until, m.last_active_at, m.role_count, m.status";

// Read through a cache (see read-cache.ts): these four run on nearly every request.
export const findGuild: (guildId: bigint) => Readonly<GuildRow> | undefined = readCache(
  (guildId: bigint) => sql("SELECT * FROM guilds WHERE id = ?").get(guildId) as GuildRow | undefined,
  1_000,
);

/** Roles in display order: by position, ties by id. The index (guild_id, position) gives the order; ties are rare. */
export const listGuildRoles: (guildId: bigint) => readonly RoleRow[] = readCache((guildId: bigint) => {
  const roles = sql("SELECT * FROM roles WHERE guild_id = ? ORDER BY position").all(guildId) as RoleRow[];
  for (let i = 1; i < roles.length; i++) {
    if (roles[i].position === roles[i - 1].position)
      return roles.sort((a, b) =>
        a.position === b.position ? (a.id < b.id ? -1 : 1) : a.position < b.position ? -1 : 1,
      );
  }
  return roles;
}, 1_000);

const memberKey = (guildId: bigint, userId: bigint) => `${guildId}:${userId}`;
const splitKey = (key: string) => key.split(":").map(BigInt) as [bigint, bigint];

const cachedMember = readCache((key: string) => {
  const [guildId, userId] = splitKey(key);
  return sql(`SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.guild_id = ? AND m.user_id = ?`).get(guildId, userId) as
    MemberRow | undefined;
});
export function findMember(guildId: bigint, userId: bigint): Readonly<MemberRow> | undefined {
  return cachedMember(memberKey(guildId, userId));
}

const cachedMemberRoleIds = readCache((key: string) => {
  const [guildId, userId] = splitKey(key);
  return (
    sql("SELECT role_id FROM member_roles WHERE guild_id = ? AND user_id = ? ORDER BY role_id").all(
      guildId,
      userId,
    ) as Array<{ role_id: bigint }>
  ).map((row) => row.role_id);
});
export function memberRoleIds(guildId: bigint, userId: bigint): readonly bigint[] {
  return cachedMemberRoleIds(memberKey(guildId, userId));
}
