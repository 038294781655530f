// Guild channel and thread objects, with only the fields each channel type has.
import type { ChannelRow } from "../store/channels";

export const ChannelType = {
  Text: 0,
  Voice: 2,
  Category: 4,
  Announcement: 5,
  AnnouncementThread: 10,
  PublicThread: 11,
  PrivateThread: 12,
  Stage: 13,
  Forum: 15,
  Media: 16,
} as const;
export const THREAD_TYPES: readonly number[] = [10, 11, 12];
const VOICE_TYPES: readonly number[] = [2, 13];
const TEXT_LIKE: readonly number[] = [0, 5, 15, 16];
const num = (value: bigint | null) => (value === null ? null : Number(value));

export function serializeChannel(row: ChannelRow) {
  const type = Number(row.type);
  const channel: Record<string, unknown> = {
    id: String(row.id),
    type,
    guild_id: String(row.guild_id),
    name: row.name,
    position: Number(row.position),
    flags: Number(row.flags),
    parent_id: row.parent_id === null ? null : String(row.parent_id),
    permission_overwrites: JSON.parse(row.permission_overwrites) as unknown[],
    nsfw: Boolean(row.nsfw),
  };
  if (type !== ChannelType.Category)
    channel.last_message_id = row.last_message_id === null ? null : String(row.last_message_id);
  if (TEXT_LIKE.includes(type)) {
    channel.topic = row.topic;
    if (row.default_auto_archive_duration !== null)
      channel.default_auto_archive_duration = Number(row.default_auto_archive_duration);
    channel.default_thread_rate_limit_per_user = num(row.default_thread_rate_limit_per_user) ?? 0;
  }
  if (type !== ChannelType.Category && type !== ChannelType.Announcement)
    channel.rate_limit_per_user = num(row.rate_limit_per_user) ?? 0;
  if (VOICE_TYPES.includes(type)) {
    channel.bitrate = num(row.bitrate) ?? 64000;
    channel.user_limit = num(row.user_limit) ?? 0;
    channel.rtc_region = row.rtc_region;
    channel.video_quality_mode = num(row.video_quality_mode) ?? 1;
  }
  if (type === ChannelType.Forum || type === ChannelType.Media) {
    channel.available_tags = row.available_tags ? (JSON.parse(row.available_tags) as unknown[]) : [];
    channel.default_reaction_emoji = row.default_reaction_emoji ? JSON.parse(row.default_reaction_emoji) : null;
    channel.default_sort_order = num(row.default_sort_order);
    if (type === ChannelType.Forum) channel.default_forum_layout = num(row.default_forum_layout) ?? 0;
  }
  return channel;
}

export function serializeThread(row: ChannelRow) {
  return {
    id: String(row.id),
    type: Number(row.type),
    guild_id: String(row.guild_id),
    parent_id: row.parent_id === null ? null : String(row.parent_id),
    owner_id: String(row.owner_id),
    name: row.name,
    flags: Number(row.flags),
    last_message_id: row.last_message_id === null ? null : String(row.last_message_id),
    rate_limit_per_user: num(row.rate_limit_per_user) ?? 0,
    message_count: num(row.message_count) ?? 0,
    member_count: num(row.member_count) ?? 0,
    total_message_sent: num(row.message_count) ?? 0,
    thread_metadata: row.thread_metadata ? JSON.parse(row.thread_metadata) : null,
    ...(row.applied_tags ? { applied_tags: JSON.parse(row.applied_tags) as string[] } : {}),
  };
}
