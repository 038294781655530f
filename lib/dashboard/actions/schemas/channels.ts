// Create Guild Channel (type-specific fields only) and Modify Guild Channel Positions (one request for a whole drag).
import { z } from "zod";
import { ChannelType } from "discord-api-types/v10";
import {
  BITRATE_MIN,
  CHANNEL_NAME_LENGTH,
  CHANNEL_TOPIC_MAX,
  RATE_LIMIT_PER_USER_MAX,
  STAGE_USER_LIMIT_MAX,
  THREAD_AUTO_ARCHIVE_DURATIONS,
  VOICE_BITRATE_MAX_VIP,
  VOICE_USER_LIMIT_MAX,
} from "@/lib/discord/limits";
import { privateChannelOverwrites } from "@/lib/discord/channel-permissions";
import { guildActionBase, snowflakeSchema } from "./common";

export const CREATABLE_CHANNEL_TYPES = [
  { type: ChannelType.GuildText, label: "Text", description: "Send messages, images, GIFs, emoji, opinions and puns" },
  { type: ChannelType.GuildVoice, label: "Voice", description: "Hang out together with voice, video and screen share" },
  {
    type: ChannelType.GuildAnnouncement,
    label: "Announcement",
    description: "Important updates that people can follow into their own servers",
  },
  { type: ChannelType.GuildStageVoice, label: "Stage", description: "Host events with an audience" },
  { type: ChannelType.GuildForum, label: "Forum", description: "Organized discussions in posts" },
  { type: ChannelType.GuildMedia, label: "Media", description: "A gallery of images and videos in posts" },
  { type: ChannelType.GuildCategory, label: "Category", description: "Groups channels together" },
] as const;

export type CreatableChannelType = (typeof CREATABLE_CHANNEL_TYPES)[number]["type"];

export type ChannelField =
  | "topic"
  | "bitrate"
  | "user_limit"
  | "rate_limit_per_user"
  | "parent_id"
  | "nsfw"
  | "rtc_region"
  | "video_quality_mode"
  | "default_auto_archive_duration"
  | "default_thread_rate_limit_per_user"
  | "default_forum_layout"
  | "default_sort_order";

const T = ChannelType;
/** Which Create Guild Channel fields apply to which channel type (the spec's table). */
export const CHANNEL_TYPE_FIELDS: Record<ChannelField, readonly CreatableChannelType[]> = {
  topic: [T.GuildText, T.GuildAnnouncement, T.GuildForum, T.GuildMedia],
  bitrate: [T.GuildVoice, T.GuildStageVoice],
  user_limit: [T.GuildVoice, T.GuildStageVoice],
  rate_limit_per_user: [T.GuildText, T.GuildVoice, T.GuildStageVoice, T.GuildForum, T.GuildMedia],
  parent_id: [T.GuildText, T.GuildVoice, T.GuildAnnouncement, T.GuildStageVoice, T.GuildForum, T.GuildMedia],
  nsfw: [T.GuildText, T.GuildVoice, T.GuildAnnouncement, T.GuildStageVoice, T.GuildForum],
  rtc_region: [T.GuildVoice, T.GuildStageVoice],
  video_quality_mode: [T.GuildVoice, T.GuildStageVoice],
  default_auto_archive_duration: [T.GuildText, T.GuildAnnouncement, T.GuildForum, T.GuildMedia],
  default_thread_rate_limit_per_user: [T.GuildText, T.GuildAnnouncement, T.GuildForum, T.GuildMedia],
  default_forum_layout: [T.GuildForum],
  default_sort_order: [T.GuildForum, T.GuildMedia],
};

export const fieldAppliesTo = (field: ChannelField, type: number) =>
  (CHANNEL_TYPE_FIELDS[field] as readonly number[]).includes(type);

const seconds = z
  .number()
  .int()
  .min(0, "At least 0.")
  .max(RATE_LIMIT_PER_USER_MAX, `At most ${RATE_LIMIT_PER_USER_MAX} seconds (6 hours).`);

export const CreateChannelFormSchema = z
  .object({
    type: z.union(
      CREATABLE_CHANNEL_TYPES.map((t) => z.literal(t.type)) as unknown as [
        z.ZodLiteral<CreatableChannelType>,
        z.ZodLiteral<CreatableChannelType>,
      ],
    ),
    name: z
      .string()
      .trim()
      .min(CHANNEL_NAME_LENGTH.min, "Give the channel a name.")
      .max(CHANNEL_NAME_LENGTH.max, `At most ${CHANNEL_NAME_LENGTH.max} characters.`),
    topic: z.string().max(CHANNEL_TOPIC_MAX, `At most ${CHANNEL_TOPIC_MAX} characters.`).optional(),
    bitrate: z
      .number()
      .int()
      .min(BITRATE_MIN, `At least ${BITRATE_MIN}.`)
      .max(VOICE_BITRATE_MAX_VIP, `At most ${VOICE_BITRATE_MAX_VIP}.`)
      .optional(),
    user_limit: z.number().int().min(0, "At least 0.").max(STAGE_USER_LIMIT_MAX).optional(),
    rate_limit_per_user: seconds.optional(),
    parent_id: snowflakeSchema.nullable().optional(),
    nsfw: z.boolean().optional(),
    rtc_region: z.string().max(64).nullable().optional(),
    video_quality_mode: z.union([z.literal(1), z.literal(2)]).optional(),
    default_auto_archive_duration: z
      .number()
      .refine(
        (v) => (THREAD_AUTO_ARCHIVE_DURATIONS as readonly number[]).includes(v),
        "One of 1 hour, 24 hours, 3 days, 1 week.",
      )
      .optional(),
    default_thread_rate_limit_per_user: seconds.optional(),
    default_forum_layout: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    default_sort_order: z.union([z.literal(0), z.literal(1)]).optional(),
    /** Private: @everyone can't view it; the chosen roles can. */
    private: z.boolean().optional(),
    private_role_ids: z.array(snowflakeSchema).max(250).optional(),
  })
  .superRefine((value, ctx) => {
    if (
      value.type === ChannelType.GuildVoice &&
      value.user_limit !== undefined &&
      value.user_limit > VOICE_USER_LIMIT_MAX
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["user_limit"],
        message: `At most ${VOICE_USER_LIMIT_MAX} for voice channels (0 is unlimited).`,
      });
    }
  });

export type CreateChannelValues = z.infer<typeof CreateChannelFormSchema>;

export const CreateChannelInputSchema = CreateChannelFormSchema.and(z.object(guildActionBase));

/**
 * The body for the type: fields that do not apply to it are dropped, never sent. A private channel carries its
 * overwrites from the start (@everyone denied View Channel, the chosen roles allowed it), so it is never visible.
 */
export function channelCreateBody(values: CreateChannelValues, guildId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { name: values.name, type: values.type };
  for (const field of Object.keys(CHANNEL_TYPE_FIELDS) as ChannelField[]) {
    const value = values[field];
    if (value !== undefined && value !== "" && fieldAppliesTo(field, values.type)) body[field] = value;
  }
  if (values.private)
    body.permission_overwrites = privateChannelOverwrites([], guildId, true, values.private_role_ids ?? []);
  return body;
}

export const ChannelPositionSchema = z.object({
  id: snowflakeSchema,
  position: z.number().int().min(0),
  parent_id: snowflakeSchema.nullable().optional(),
  lock_permissions: z.boolean().optional(),
});

export const ChannelPositionsInputSchema = z.object({
  ...guildActionBase,
  positions: z.array(ChannelPositionSchema).min(1, "Nothing moved.").max(500),
});
