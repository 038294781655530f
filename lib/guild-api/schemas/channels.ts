// Request schemas of the channel operations: Create Guild Channel, Modify Guild Channel Positions, Modify Channel and
// Edit Channel Permissions.
// Which fields a channel type accepts, the bitrate ceiling and the overwrite rules need the guild, so the
// service checks those; here are the shapes and the fixed bounds.
import { z } from "zod";
import {
  BITRATE_MIN,
  CHANNEL_NAME_LENGTH,
  CHANNEL_OVERWRITES_MAX,
  CHANNEL_TOPIC_MAX,
  FORUM_TAG_NAME_MAX,
  FORUM_TAGS_MAX,
  RATE_LIMIT_PER_USER_MAX,
  THREAD_AUTO_ARCHIVE_DURATIONS,
} from "@/lib/discord/limits";
import { bodyBoolean, displayName, lengthBetween, snowflake } from "./common";

/** The channel types Create Guild Channel makes: text, voice, category, announcement, stage, forum, media. */
export const CREATABLE_CHANNEL_TYPES = [0, 2, 4, 5, 13, 15, 16] as const;

const MAX_BITFIELD = (1n << 64n) - 1n;
/**
 * A permission bitfield: a decimal string (as Discord sends it) or a non-negative JSON integer (exact beyond 2^53, as
 * the body parser keeps it); null or absent means "0".
 */
const bitfield = z.union([z.string(), z.number(), z.bigint()]).transform((value, ctx) => {
  const text =
    typeof value === "number" ? (Number.isSafeInteger(value) && value >= 0 ? String(value) : "") : String(value);
  if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) > MAX_BITFIELD) {
    ctx.addIssue({
      code: "custom",
      message: `Value "${String(value)}" is not a valid permission bitfield.`,
      params: { code: "NUMBER_TYPE_COERCE" },
    });
    return z.NEVER;
  }
  return BigInt(text);
});

export const OverwriteBodySchema = z.object({
  id: snowflake,
  /** 0 role, 1 member; when absent, inferred from the id. */
  type: z.literal([0, 1]).nullable().optional(),
  allow: bitfield.nullable().optional(),
  deny: bitfield.nullable().optional(),
});
export type OverwriteBody = z.output<typeof OverwriteBodySchema>;

const ForumTagBodySchema = z.object({
  name: displayName(z.string().max(FORUM_TAG_NAME_MAX)),
  moderated: bodyBoolean.nullable().optional(),
  emoji_id: snowflake.nullable().optional(),
  emoji_name: z.string().max(100).nullable().optional(),
});

const DefaultReactionBodySchema = z.object({
  emoji_id: snowflake.nullable().optional(),
  emoji_name: z.string().max(100).nullable().optional(),
});

const seconds = z.number().int().min(0).max(RATE_LIMIT_PER_USER_MAX);

/** Create Guild Channel: everything optional and nullable but the name (null = not given). */
export const CreateGuildChannelBodySchema = z.object({
  name: displayName(lengthBetween(CHANNEL_NAME_LENGTH.min, CHANNEL_NAME_LENGTH.max)),
  type: z.literal(CREATABLE_CHANNEL_TYPES).nullable().optional(),
  topic: z.string().max(CHANNEL_TOPIC_MAX).nullable().optional(),
  bitrate: z.number().int().min(BITRATE_MIN).nullable().optional(),
  user_limit: z.number().int().min(0).nullable().optional(),
  rate_limit_per_user: seconds.nullable().optional(),
  position: z.number().int().min(0).nullable().optional(),
  permission_overwrites: z.array(OverwriteBodySchema).max(CHANNEL_OVERWRITES_MAX).nullable().optional(),
  parent_id: snowflake.nullable().optional(),
  nsfw: bodyBoolean.nullable().optional(),
  rtc_region: z.string().max(64).nullable().optional(),
  video_quality_mode: z.literal([1, 2]).nullable().optional(),
  default_auto_archive_duration: z.literal(THREAD_AUTO_ARCHIVE_DURATIONS).nullable().optional(),
  default_reaction_emoji: DefaultReactionBodySchema.nullable().optional(),
  available_tags: z.array(ForumTagBodySchema).max(FORUM_TAGS_MAX).nullable().optional(),
  default_sort_order: z.literal([0, 1]).nullable().optional(),
  default_forum_layout: z.literal([0, 1, 2]).nullable().optional(),
  default_thread_rate_limit_per_user: seconds.nullable().optional(),
});
export type CreateGuildChannelBody = z.output<typeof CreateGuildChannelBodySchema>;

/** Modify Guild Channel Positions: only the channels to change. */
export const ModifyGuildChannelPositionsBodySchema = z.array(
  z.object({
    id: snowflake,
    position: z.number().int().min(0).nullable().optional(),
    lock_permissions: bodyBoolean.nullable().optional(),
    parent_id: snowflake.nullable().optional(),
  }),
);
export type ModifyGuildChannelPositionsBody = z.output<typeof ModifyGuildChannelPositionsBodySchema>;

/** Forum and media topics may be longer than a text channel's (Discord's OpenAPI: 4096); the service bounds the rest. */
export const FORUM_TOPIC_MAX = 4096;

const ForumTagUpdateSchema = ForumTagBodySchema.extend({ id: snowflake.nullable().optional() });

/**
 * Modify Channel for a guild channel: every field optional; null resets a field to its default (a parent of null
 * takes the channel out of its category). Which fields apply to which channel type is the service's check.
 */
export const ModifyChannelBodySchema = z.object({
  name: lengthBetween(CHANNEL_NAME_LENGTH.min, CHANNEL_NAME_LENGTH.max).optional(),
  /** Only text ↔ announcement conversions exist. */
  type: z.literal([0, 5]).nullable().optional(),
  position: z.number().int().min(0).nullable().optional(),
  topic: z.string().max(FORUM_TOPIC_MAX).nullable().optional(),
  nsfw: z.boolean().nullable().optional(),
  rate_limit_per_user: seconds.nullable().optional(),
  bitrate: z.number().int().min(BITRATE_MIN).nullable().optional(),
  user_limit: z.number().int().min(0).nullable().optional(),
  permission_overwrites: z.array(OverwriteBodySchema).max(CHANNEL_OVERWRITES_MAX).nullable().optional(),
  parent_id: snowflake.nullable().optional(),
  rtc_region: z.string().max(64).nullable().optional(),
  video_quality_mode: z.literal([1, 2]).nullable().optional(),
  default_auto_archive_duration: z.literal(THREAD_AUTO_ARCHIVE_DURATIONS).nullable().optional(),
  flags: z.number().int().min(0).nullable().optional(),
  available_tags: z.array(ForumTagUpdateSchema).max(FORUM_TAGS_MAX).nullable().optional(),
  default_reaction_emoji: DefaultReactionBodySchema.nullable().optional(),
  default_thread_rate_limit_per_user: seconds.nullable().optional(),
  default_sort_order: z.literal([0, 1]).nullable().optional(),
  default_forum_layout: z.literal([0, 1, 2]).nullable().optional(),
});
export type ModifyChannelBody = z.output<typeof ModifyChannelBodySchema>;

/** Edit Channel Permissions: the overwrite's type (0 role, 1 member), and the bits it allows and denies. */
export const EditChannelPermissionsBodySchema = z.object({
  type: z.literal([0, 1]).nullable().optional(),
  allow: bitfield.nullable().optional(),
  deny: bitfield.nullable().optional(),
});
export type EditChannelPermissionsBody = z.output<typeof EditChannelPermissionsBodySchema>;

/** A forum or media thread carries at most this many of its parent's tags (Discord's limit). */
export const THREAD_APPLIED_TAGS_MAX = 5;

/** Modify Channel for a thread: every field optional. */
export const ModifyThreadBodySchema = z.object({
  name: lengthBetween(CHANNEL_NAME_LENGTH.min, CHANNEL_NAME_LENGTH.max).optional(),
  archived: z.boolean().optional(),
  auto_archive_duration: z.literal(THREAD_AUTO_ARCHIVE_DURATIONS).optional(),
  locked: z.boolean().optional(),
  /** Private threads only: whether non-moderators may add other members. */
  invitable: z.boolean().optional(),
  rate_limit_per_user: seconds.nullable().optional(),
  flags: z.number().int().min(0).optional(),
  applied_tags: z.array(snowflake).max(THREAD_APPLIED_TAGS_MAX).optional(),
});
export type ModifyThreadBody = z.output<typeof ModifyThreadBodySchema>;
