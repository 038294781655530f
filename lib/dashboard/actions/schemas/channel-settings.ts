// One channel's settings: Modify Channel (only the fields that changed), its permission overwrites (Edit and Delete
// Channel Permission, or the whole list at once for "private channel" and "Sync now"), and Delete Channel with a
// typed-name confirmation. The same schemas feed the forms' resolvers and the server actions.
import { z } from "zod";
import { ChannelType } from "discord-api-types/v10";
import {
  BITRATE_MIN,
  CHANNEL_NAME_LENGTH,
  CHANNEL_OVERWRITES_MAX,
  CHANNEL_TOPIC_MAX,
  FORUM_TAG_NAME_MAX,
  FORUM_TAGS_MAX,
  RATE_LIMIT_PER_USER_MAX,
  STAGE_USER_LIMIT_MAX,
  THREAD_AUTO_ARCHIVE_DURATIONS,
  VOICE_USER_LIMIT_MAX,
} from "@/lib/discord/limits";
import { guildActionBase, snowflakeSchema } from "./common";
import { permissionsString } from "./roles";

/** Forum and media post guidelines may be longer than a text channel's topic (Discord: 4096). */
export const FORUM_TOPIC_MAX = 4096;

/** Discord's slowmode steps, in seconds. */
export const SLOWMODE_STEPS = [0, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600] as const;

export const topicMax = (type: number) =>
  type === ChannelType.GuildForum || type === ChannelType.GuildMedia ? FORUM_TOPIC_MAX : CHANNEL_TOPIC_MAX;

const seconds = z
  .number()
  .int()
  .min(0, "At least 0.")
  .max(RATE_LIMIT_PER_USER_MAX, `At most ${RATE_LIMIT_PER_USER_MAX} seconds (6 hours).`);

const emoji = z.object({
  emoji_id: snowflakeSchema.nullable(),
  emoji_name: z.string().max(100).nullable(),
});

export const ForumTagSchema = z.object({
  /** Absent for a tag the moderator is adding. */
  id: snowflakeSchema.optional(),
  name: z.string().trim().min(1, "Name the tag.").max(FORUM_TAG_NAME_MAX, `At most ${FORUM_TAG_NAME_MAX} characters.`),
  moderated: z.boolean(),
  emoji_id: snowflakeSchema.nullable(),
  emoji_name: z.string().max(100).nullable(),
});

/** Every Modify Channel field the settings page edits; which ones a channel shows depends on its type. */
export const ChannelSettingsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(CHANNEL_NAME_LENGTH.min, "Give the channel a name.")
    .max(CHANNEL_NAME_LENGTH.max, `At most ${CHANNEL_NAME_LENGTH.max} characters.`),
  /** Text ↔ announcement only. */
  type: z.union([z.literal(ChannelType.GuildText), z.literal(ChannelType.GuildAnnouncement)]),
  topic: z.string().max(FORUM_TOPIC_MAX, `At most ${FORUM_TOPIC_MAX} characters.`),
  nsfw: z.boolean(),
  rate_limit_per_user: seconds,
  default_thread_rate_limit_per_user: seconds,
  default_auto_archive_duration: z
    .number()
    .refine(
      (v) => (THREAD_AUTO_ARCHIVE_DURATIONS as readonly number[]).includes(v),
      "One of 1 hour, 24 hours, 3 days, 1 week.",
    )
    .nullable(),
  bitrate: z.number().int().min(BITRATE_MIN, `At least ${BITRATE_MIN}.`),
  user_limit: z.number().int().min(0, "At least 0.").max(STAGE_USER_LIMIT_MAX),
  rtc_region: z.string().max(64).nullable(),
  video_quality_mode: z.union([z.literal(1), z.literal(2)]),
  available_tags: z.array(ForumTagSchema).max(FORUM_TAGS_MAX, `At most ${FORUM_TAGS_MAX} tags.`),
  default_reaction_emoji: emoji.nullable(),
  default_forum_layout: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  default_sort_order: z.union([z.literal(0), z.literal(1)]).nullable(),
  /** The channel's flags (forum and media: REQUIRE_TAG, HIDE_MEDIA_DOWNLOAD_OPTIONS). */
  flags: z.number().int().min(0),
});
export type ChannelSettingsValues = z.infer<typeof ChannelSettingsSchema>;
export type ChannelSettingsField = keyof ChannelSettingsValues;

/** Channel flag: a forum or media post must carry a tag. */
export const REQUIRE_TAG_FLAG = 1 << 4;

export const ModifyChannelInputSchema = z
  .object({
    ...guildActionBase,
    channelId: snowflakeSchema,
    /** The channel's current type, for the limits that depend on it (the API checks them again). */
    channelType: z.number().int(),
    changes: ChannelSettingsSchema.partial(),
  })
  .superRefine((input, ctx) => {
    if (Object.keys(input.changes).length === 0)
      ctx.addIssue({ code: "custom", path: [], message: "Nothing changed." });
    const topic = input.changes.topic;
    if (topic !== undefined && topic.length > topicMax(input.channelType))
      ctx.addIssue({
        code: "custom",
        path: ["changes", "topic"],
        message: `At most ${topicMax(input.channelType)} characters.`,
      });
    const limit = input.changes.user_limit;
    if (limit !== undefined && input.channelType === ChannelType.GuildVoice && limit > VOICE_USER_LIMIT_MAX)
      ctx.addIssue({
        code: "custom",
        path: ["changes", "user_limit"],
        message: `At most ${VOICE_USER_LIMIT_MAX} for voice channels (0 is unlimited).`,
      });
  });

const OverwriteSchema = z.object({
  id: snowflakeSchema,
  type: z.union([z.literal(0), z.literal(1)]),
  allow: permissionsString,
  deny: permissionsString,
});

export const EditChannelPermissionInputSchema = z.object({
  ...guildActionBase,
  channelId: snowflakeSchema,
  overwrite: OverwriteSchema,
});

export const DeleteChannelPermissionInputSchema = z.object({
  ...guildActionBase,
  channelId: snowflakeSchema,
  overwriteId: snowflakeSchema,
});

/** The whole overwrite list at once: making a channel private or public, or syncing it with its category. */
export const ReplaceChannelOverwritesInputSchema = z.object({
  ...guildActionBase,
  channelId: snowflakeSchema,
  purpose: z.enum(["private", "public", "sync"]),
  overwrites: z.array(OverwriteSchema).max(CHANNEL_OVERWRITES_MAX),
});

export const DeleteChannelInputSchema = z.object({
  ...guildActionBase,
  channelId: snowflakeSchema,
  /** The channel's name as typed by the moderator: must match the channel's current name. */
  confirmName: z.string().max(CHANNEL_NAME_LENGTH.max),
});
