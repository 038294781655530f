// The channels table (guild channels and threads alike; threads are types 10, 11 and 12) and thread_members.
import { sql } from "./db";
import { dialect } from "./dialect";

export interface ChannelRow {
  id: bigint;
  guild_id: bigint;
  type: bigint;
  name: string;
  position: bigint;
  parent_id: bigint | null;
  topic: string | null;
  nsfw: bigint;
  bitrate: bigint | null;
  user_limit: bigint | null;
  rate_limit_per_user: bigint | null;
  rtc_region: string | null;
  video_quality_mode: bigint | null;
  default_auto_archive_duration: bigint | null;
  default_reaction_emoji: string | null;
  available_tags: string | null;
  default_sort_order: bigint | null;
  default_forum_layout: bigint | null;
  default_thread_rate_limit_per_user: bigint | null;
  flags: bigint;
  permission_overwrites: string;
  last_message_id: bigint | null;
  owner_id: bigint | null;
  thread_metadata: string | null;
  archived: bigint;
  message_count: bigint | null;
  member_count: bigint | null;
  applied_tags: string | null;
}

const THREAD_TYPE_LIST = "10, 11, 12";
/** Channels a member can be in or read: not categories, not threads (text, voice, announcement, stage, forum, media). */
const CONTENT_CHANNEL_TYPE_LIST = "0, 2, 5, 13, 15, 16";

/** A channel's id and overwrites (JSON), what permission checks need. */
export interface ChannelOverwritesRow {
  id: bigint;
  permission_overwrites: string;
}

export async function findChannelById(channelId: bigint): Promise<ChannelRow | undefined> {
  return (await sql.get("SELECT * FROM channels WHERE id = ?", channelId)) as ChannelRow | undefined;
}

/** The channel, when it belongs to the guild. */
export async function findChannel(guildId: bigint, channelId: bigint): Promise<ChannelRow | undefined> {
  return (await sql.get("SELECT * FROM channels WHERE id = ? AND guild_id = ?", channelId, guildId)) as
    ChannelRow | undefined;
}

export async function findChannelOverwrites(channelId: bigint): Promise<string | undefined> {
  return (await sql.value("SELECT permission_overwrites FROM channels WHERE id = ?", channelId)) as string | undefined;
}

export async function findChannelType(channelId: bigint): Promise<bigint | undefined> {
  return (await sql.value("SELECT type FROM channels WHERE id = ?", channelId)) as bigint | undefined;
}

/** Every non-thread channel of the guild, by position then id. */
export async function listGuildChannels(guildId: bigint): Promise<ChannelRow[]> {
  return (await sql.all(
    `SELECT * FROM channels WHERE guild_id = ? AND type NOT IN (${THREAD_TYPE_LIST}) ORDER BY position, id`,
    guildId,
  )) as ChannelRow[];
}

/** Unarchived threads, newest first. */
export async function listActiveThreads(guildId: bigint): Promise<ChannelRow[]> {
  return (await sql.all(
    `SELECT * FROM channels WHERE guild_id = ? AND type IN (${THREAD_TYPE_LIST}) AND archived = FALSE ORDER BY id DESC`,
    guildId,
  )) as ChannelRow[];
}

/** The guild's threads among `ids` (decimal strings, as audit-log entries record them), by id. */
export async function listThreadsByIds(guildId: bigint, ids: readonly string[]): Promise<ChannelRow[]> {
  if (ids.length === 0) return [];
  return (await sql.all(
    dialect({
      sqlite: `SELECT * FROM channels WHERE guild_id = ? AND type IN (${THREAD_TYPE_LIST}) AND id IN (SELECT CAST(value AS INTEGER) FROM json_each(?)) ORDER BY id`,
      postgresql: `SELECT * FROM channels WHERE guild_id = ? AND type IN (${THREAD_TYPE_LIST})
        AND id IN (SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text(CAST(? AS JSONB)) AS ids(value)) ORDER BY id`,
    }),
    guildId,
    JSON.stringify(ids),
  )) as ChannelRow[];
}

/** The overwrites of every non-thread channel (threads are judged by their parent's). */
export async function listChannelOverwrites(guildId: bigint): Promise<ChannelOverwritesRow[]> {
  return (await sql.all(
    `SELECT id, permission_overwrites FROM channels WHERE guild_id = ? AND type NOT IN (${THREAD_TYPE_LIST})`,
    guildId,
  )) as ChannelOverwritesRow[];
}

/** The overwrites of every channel a member can be in or read (see CONTENT_CHANNEL_TYPE_LIST). */
export async function listContentChannelOverwrites(guildId: bigint): Promise<ChannelOverwritesRow[]> {
  return (await sql.all(
    `SELECT id, permission_overwrites FROM channels WHERE guild_id = ? AND type IN (${CONTENT_CHANNEL_TYPE_LIST})`,
    guildId,
  )) as ChannelOverwritesRow[];
}

/** Whether the channel is one of the guild's that a member can be in or read (widget, welcome screen). */
export async function isContentChannelOf(guildId: bigint, channelId: bigint): Promise<boolean> {
  return Boolean(
    await sql.get(
      `SELECT 1 FROM channels WHERE id = ? AND guild_id = ? AND type IN (${CONTENT_CHANNEL_TYPE_LIST})`,
      channelId,
      guildId,
    ),
  );
}

/** Voice and stage channels, by position then id (the widget lists those @everyone can see). */
export async function listVoiceChannels(
  guildId: bigint,
): Promise<Array<{ id: bigint; name: string; position: bigint; permission_overwrites: string }>> {
  return (await sql.all(
    "SELECT id, name, position, permission_overwrites FROM channels WHERE guild_id = ? AND type IN (2, 13) ORDER BY position, id",
    guildId,
  )) as Array<{ id: bigint; name: string; position: bigint; permission_overwrites: string }>;
}

/** Channels whose overwrites may name `targetId` (a role or member), found by its quoted id in the JSON. */
export async function listChannelsWithOverwriteFor(guildId: bigint, targetId: bigint): Promise<ChannelRow[]> {
  return (await sql.all(
    dialect({
      sqlite: "SELECT * FROM channels WHERE guild_id = ? AND instr(permission_overwrites, ?) > 0",
      postgresql: "SELECT * FROM channels WHERE guild_id = ? AND strpos(permission_overwrites, ?) > 0",
    }),
    guildId,
    `"${targetId}"`,
  )) as ChannelRow[];
}

/** The text channel a vanity invite leads to: the rules channel if it is one, else the first by position. */
export async function findVanityInviteChannelId(guildId: bigint): Promise<bigint | undefined> {
  return (await sql.value(
    `SELECT c.id FROM channels c JOIN guilds g ON g.id = c.guild_id
      WHERE c.guild_id = ? AND c.type = 0 ORDER BY c.id = g.rules_channel_id DESC, c.position, c.id LIMIT 1`,
    guildId,
  )) as bigint | undefined;
}

/** The last position among a parent's (or the top level's, parentId null) non-thread channels, or null. */
export async function maxChannelPosition(guildId: bigint, parentId: bigint | null): Promise<bigint | null> {
  return (await sql.value(
    `SELECT MAX(position) FROM channels WHERE guild_id = ? AND type NOT IN (${THREAD_TYPE_LIST}) AND parent_id IS NOT DISTINCT FROM ?`,
    guildId,
    parentId,
  )) as bigint | null;
}

/** The columns Create Guild Channel sets (flags start at 0; the thread columns keep their defaults). */
export type NewChannel = Record<
  | "id"
  | "guild_id"
  | "type"
  | "name"
  | "position"
  | "parent_id"
  | "topic"
  | "nsfw"
  | "bitrate"
  | "user_limit"
  | "rate_limit_per_user"
  | "rtc_region"
  | "video_quality_mode"
  | "default_auto_archive_duration"
  | "default_reaction_emoji"
  | "available_tags"
  | "default_sort_order"
  | "default_forum_layout"
  | "default_thread_rate_limit_per_user"
  | "permission_overwrites",
  bigint | number | string | null
>;

export async function insertChannel(channel: NewChannel): Promise<void> {
  await sql.run(
    `INSERT INTO channels (id, guild_id, type, name, position, parent_id, topic, nsfw, bitrate, user_limit, rate_limit_per_user,
  rtc_region, video_quality_mode, default_auto_archive_duration, default_reaction_emoji, available_tags, default_sort_order, default_forum_layout,
  default_thread_rate_limit_per_user, flags, permission_overwrites)
  VALUES (@id, @guild_id, @type, @name, @position, @parent_id, @topic, @nsfw, @bitrate, @user_limit, @rate_limit_per_user, @rtc_region,
  @video_quality_mode, @default_auto_archive_duration, @default_reaction_emoji, @available_tags, @default_sort_order, @default_forum_layout,
  @default_thread_rate_limit_per_user, 0, @permission_overwrites)`,
    channel,
  );
}

/** The columns Modify Channel rewrites for a guild channel. */
export type ChannelSettings = Omit<
  ChannelRow,
  | "guild_id"
  | "last_message_id"
  | "owner_id"
  | "thread_metadata"
  | "archived"
  | "message_count"
  | "member_count"
  | "applied_tags"
> & { applied_tags?: string | null };

export async function updateChannel(channel: ChannelSettings): Promise<void> {
  await sql.run(
    `UPDATE channels SET type = @type, name = @name, position = @position, parent_id = @parent_id, topic = @topic,
  nsfw = @nsfw, bitrate = @bitrate, user_limit = @user_limit, rate_limit_per_user = @rate_limit_per_user, rtc_region = @rtc_region,
  video_quality_mode = @video_quality_mode, default_auto_archive_duration = @default_auto_archive_duration,
  default_reaction_emoji = @default_reaction_emoji, available_tags = @available_tags, default_sort_order = @default_sort_order,
  default_forum_layout = @default_forum_layout, default_thread_rate_limit_per_user = @default_thread_rate_limit_per_user,
  flags = @flags, permission_overwrites = @permission_overwrites WHERE id = @id`,
    {
      id: channel.id,
      type: channel.type,
      name: channel.name,
      position: channel.position,
      parent_id: channel.parent_id,
      topic: channel.topic,
      nsfw: channel.nsfw,
      bitrate: channel.bitrate,
      user_limit: channel.user_limit,
      rate_limit_per_user: channel.rate_limit_per_user,
      rtc_region: channel.rtc_region,
      video_quality_mode: channel.video_quality_mode,
      default_auto_archive_duration: channel.default_auto_archive_duration,
      default_reaction_emoji: channel.default_reaction_emoji,
      available_tags: channel.available_tags,
      default_sort_order: channel.default_sort_order,
      default_forum_layout: channel.default_forum_layout,
      default_thread_rate_limit_per_user: channel.default_thread_rate_limit_per_user,
      flags: channel.flags,
      permission_overwrites: channel.permission_overwrites,
    },
  );
}

export async function updateChannelPlacement(
  channelId: bigint,
  position: bigint | number,
  parentId: bigint | null,
  permissionOverwrites: string,
): Promise<void> {
  await sql.run(
    "UPDATE channels SET position = ?, parent_id = ?, permission_overwrites = ? WHERE id = ?",
    position,
    parentId,
    permissionOverwrites,
    channelId,
  );
}

export async function updateChannelOverwrites(channelId: bigint, permissionOverwrites: string): Promise<void> {
  await sql.run("UPDATE channels SET permission_overwrites = ? WHERE id = ?", permissionOverwrites, channelId);
}

/** The columns Modify Channel rewrites for a thread. */
export interface ThreadSettings {
  id: bigint;
  name: string;
  thread_metadata: string;
  archived: boolean;
  rate_limit_per_user: bigint | number | null;
  flags: bigint | number;
  applied_tags: string | null;
}

export async function updateThread(thread: ThreadSettings): Promise<void> {
  await sql.run(
    `UPDATE channels SET name = ?, thread_metadata = ?, archived = ?, rate_limit_per_user = ?, flags = ?, applied_tags = ?
        WHERE id = ?`,
    thread.name,
    thread.thread_metadata,
    thread.archived ? 1 : 0,
    thread.rate_limit_per_user,
    thread.flags,
    thread.applied_tags,
    thread.id,
  );
}

/** Deletes the channel with its threads. */
export async function deleteChannelWithThreads(channelId: bigint): Promise<void> {
  await sql.run(
    `DELETE FROM channels WHERE id = ? OR (parent_id = ? AND type IN (${THREAD_TYPE_LIST}))`,
    channelId,
    channelId,
  );
}

/** A category's channels (not threads). */
export async function listChildChannels(categoryId: bigint): Promise<ChannelRow[]> {
  return (await sql.all(
    `SELECT * FROM channels WHERE parent_id = ? AND type NOT IN (${THREAD_TYPE_LIST})`,
    categoryId,
  )) as ChannelRow[];
}

/** A deleted category's channels lose their parent. */
export async function clearChildChannelsParent(categoryId: bigint): Promise<void> {
  await sql.run(
    `UPDATE channels SET parent_id = NULL WHERE parent_id = ? AND type NOT IN (${THREAD_TYPE_LIST})`,
    categoryId,
  );
}

// ── thread_members ─────────────────────────────────────────────────────────────────────────────────────────────

export interface ThreadMemberRow {
  thread_id: bigint;
  user_id: bigint;
  join_timestamp: bigint;
  flags: bigint;
}

export async function findThreadMember(threadId: bigint, userId: bigint): Promise<ThreadMemberRow | undefined> {
  return (await sql.get(
    "SELECT thread_id, user_id, join_timestamp, flags FROM thread_members WHERE user_id = ? AND thread_id = ?",
    userId,
    threadId,
  )) as ThreadMemberRow | undefined;
}
