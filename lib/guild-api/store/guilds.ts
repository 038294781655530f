// The guilds table. The row is read through the read cache (read-cache.ts): nearly every request reads it first.
import { sql } from "./db";
import type { MaybePromise } from "../maybe-promise";
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
  /** Members online, idle or busy: kept by triggers on members (migration 20261125160700_presence_count). */
  presence_count: bigint;
}

export const findGuild: (guildId: bigint) => MaybePromise<Readonly<GuildRow> | undefined> = readCache(
  async (guildId: bigint) => (await sql.get("SELECT * FROM guilds WHERE id = ?", guildId)) as GuildRow | undefined,
  1_000,
);

/** The guild whose vanity invite is `code`. */
export async function findGuildByVanityCode(
  code: string,
): Promise<{ id: bigint; vanity_url_uses: bigint; created_at: bigint } | undefined> {
  return (await sql.get("SELECT id, vanity_url_uses, created_at FROM guilds WHERE vanity_url_code = ?", code)) as
    { id: bigint; vanity_url_uses: bigint; created_at: bigint } | undefined;
}

/** The columns Modify Guild writes. */
export type GuildSettings = Pick<
  GuildRow,
  | "id"
  | "name"
  | "region"
  | "verification_level"
  | "default_message_notifications"
  | "explicit_content_filter"
  | "afk_channel_id"
  | "afk_timeout"
  | "icon"
  | "splash"
  | "discovery_splash"
  | "banner"
  | "system_channel_id"
  | "system_channel_flags"
  | "rules_channel_id"
  | "public_updates_channel_id"
  | "safety_alerts_channel_id"
  | "preferred_locale"
  | "features"
  | "description"
  | "premium_progress_bar_enabled"
  | "widget_version"
>;

const UPDATE_GUILD_SETTINGS = `UPDATE guilds SET name = @name, region = @region, verification_level = @verification_level,
  default_message_notifications = @default_message_notifications, explicit_content_filter = @explicit_content_filter,
  afk_channel_id = @afk_channel_id, afk_timeout = @afk_timeout, icon = @icon, splash = @splash, discovery_splash = @discovery_splash,
  banner = @banner, system_channel_id = @system_channel_id, system_channel_flags = @system_channel_flags, rules_channel_id = @rules_channel_id,
  public_updates_channel_id = @public_updates_channel_id, safety_alerts_channel_id = @safety_alerts_channel_id,
  preferred_locale = @preferred_locale, features = @features, description = @description,
  premium_progress_bar_enabled = @premium_progress_bar_enabled, widget_version = @widget_version WHERE id = @id`;

export async function updateGuildSettings(guild: GuildSettings): Promise<void> {
  await sql.run(UPDATE_GUILD_SETTINGS, {
    id: guild.id,
    name: guild.name,
    region: guild.region,
    verification_level: guild.verification_level,
    default_message_notifications: guild.default_message_notifications,
    explicit_content_filter: guild.explicit_content_filter,
    afk_channel_id: guild.afk_channel_id,
    afk_timeout: guild.afk_timeout,
    icon: guild.icon,
    splash: guild.splash,
    discovery_splash: guild.discovery_splash,
    banner: guild.banner,
    system_channel_id: guild.system_channel_id,
    system_channel_flags: guild.system_channel_flags,
    rules_channel_id: guild.rules_channel_id,
    public_updates_channel_id: guild.public_updates_channel_id,
    safety_alerts_channel_id: guild.safety_alerts_channel_id,
    preferred_locale: guild.preferred_locale,
    features: guild.features,
    description: guild.description,
    premium_progress_bar_enabled: guild.premium_progress_bar_enabled,
    widget_version: guild.widget_version,
  });
}

/** Guild settings that point at a channel (Delete Channel clears those naming the deleted one). */
export const GUILD_CHANNEL_REFERENCES = [
  "afk_channel_id",
  "widget_channel_id",
  "system_channel_id",
  "rules_channel_id",
  "public_updates_channel_id",
  "safety_alerts_channel_id",
] as const;
export type GuildChannelReference = (typeof GUILD_CHANNEL_REFERENCES)[number];

/** Clears the listed channel settings and replaces the welcome-screen channels. */
export async function clearGuildChannelReferences(
  guildId: bigint,
  columns: readonly GuildChannelReference[],
  welcomeChannels: string,
): Promise<void> {
  for (const column of columns) {
    // The column name comes from GUILD_CHANNEL_REFERENCES, never from input.
    if (!GUILD_CHANNEL_REFERENCES.includes(column)) throw new Error(`not a channel reference: ${column}`);
    await sql.run(`UPDATE guilds SET ${column} = NULL WHERE id = ?`, guildId);
  }
  await sql.run("UPDATE guilds SET welcome_channels = ? WHERE id = ?", welcomeChannels, guildId);
}

export async function updateGuildWidget(guildId: bigint, enabled: bigint, channelId: bigint | null): Promise<void> {
  await sql.run(
    "UPDATE guilds SET widget_enabled = ?, widget_channel_id = ? WHERE id = ?",
    enabled,
    channelId,
    guildId,
  );
}

export async function updateGuildWelcomeScreen(
  guildId: bigint,
  fields: { features: string; welcomeDescription: string | null; welcomeChannels: string },
): Promise<void> {
  await sql.run(
    "UPDATE guilds SET features = ?, welcome_description = ?, welcome_channels = ? WHERE id = ?",
    fields.features,
    fields.welcomeDescription,
    fields.welcomeChannels,
    guildId,
  );
}

export async function updateGuildIncidentActions(
  guildId: bigint,
  invitesDisabledUntil: bigint | null,
  dmsDisabledUntil: bigint | null,
): Promise<void> {
  await sql.run(
    "UPDATE guilds SET invites_disabled_until = ?, dms_disabled_until = ? WHERE id = ?",
    invitesDisabledUntil,
    dmsDisabledUntil,
    guildId,
  );
}

/** member_count follows joins. */
export async function countJoinedMembers(guildId: bigint, joined: number): Promise<void> {
  await sql.run("UPDATE guilds SET member_count = member_count + ? WHERE id = ?", joined, guildId);
}

/** member_count follows leaves, and widget_version moves: widget.png lists members. */
export async function countLeftMembers(guildId: bigint, left: number): Promise<void> {
  await sql.run(
    "UPDATE guilds SET member_count = member_count - ?, widget_version = widget_version + 1 WHERE id = ?",
    left,
    guildId,
  );
}

/** The guilds `userId` is a member of, by name: id, name and owner. */
export async function listGuildsOfMember(
  userId: bigint,
): Promise<Array<{ id: bigint; name: string; owner_id: bigint }>> {
  return (await sql.all(
    "SELECT g.id, g.name, g.owner_id FROM members m JOIN guilds g ON g.id = m.guild_id WHERE m.user_id = ? ORDER BY g.name",
    userId,
  )) as Array<{ id: bigint; name: string; owner_id: bigint }>;
}

/** A page of the guilds `userId` is a member of, ascending by id: after `after`, or just below `before`. */
export async function listGuildsOfMemberPage(
  userId: bigint,
  page: { after: bigint; before?: bigint; limit: number },
): Promise<GuildRow[]> {
  if (page.before !== undefined)
    return (
      (await sql.all(
        "SELECT g.* FROM members m JOIN guilds g ON g.id = m.guild_id WHERE m.user_id = ? AND g.id < ? AND g.id > ? ORDER BY g.id DESC LIMIT ?",
        userId,
        page.before,
        page.after,
        page.limit,
      )) as GuildRow[]
    ).reverse();
  return (await sql.all(
    "SELECT g.* FROM members m JOIN guilds g ON g.id = m.guild_id WHERE m.user_id = ? AND g.id > ? ORDER BY g.id LIMIT ?",
    userId,
    page.after,
    page.limit,
  )) as GuildRow[];
}
