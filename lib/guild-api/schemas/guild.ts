// Request schemas of the guild operations: Get Guild's query, Modify Guild's body, the audit log and outbox queries.
// Field errors carry Discord's codes (see errors.ts); rules that need the guild (channel types, features,
// images) are checked by the service.
import { z } from "zod";
import {
  AFK_TIMEOUTS,
  AUDIT_LOG_LIMIT,
  DEFAULT_MESSAGE_NOTIFICATIONS_MAX,
  EXPLICIT_CONTENT_FILTER_MAX,
  GUILD_DESCRIPTION_MAX,
  GUILD_EVENTS_LIMIT,
  GUILD_FEATURES,
  GUILD_LOCALES,
  GUILD_NAME_LENGTH,
  SYSTEM_CHANNEL_FLAGS_ALL,
  VERIFICATION_LEVEL_MAX,
} from "@/lib/discord/limits";
import { isSnowflake } from "@/lib/discord/snowflake";

/** A snowflake as a string, refused as Discord does: `Value "x" is not snowflake.` */
export const snowflake = z.string().superRefine((value, ctx) => {
  if (!isSnowflake(value))
    ctx.addIssue({
      code: "custom",
      message: `Value "${value}" is not snowflake.`,
      params: { code: "NUMBER_TYPE_COERCE" },
    });
});

/** A query-string boolean as Discord reads it. */
export const booleanQuery = z
  .enum(["true", "false", "True", "False", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "True" || v === "1");

/** A string of min..max characters (code points, as Discord counts): BASE_TYPE_BAD_LENGTH otherwise. */
export const lengthBetween = (min: number, max: number) =>
  z.string().superRefine((value, ctx) => {
    const length = [...value].length;
    if (length < min || length > max)
      ctx.addIssue({
        code: "custom",
        message: `Must be between ${min} and ${max} in length.`,
        params: { code: "BASE_TYPE_BAD_LENGTH" },
      });
  });

const guildName = lengthBetween(GUILD_NAME_LENGTH.min, GUILD_NAME_LENGTH.max).superRefine((value, ctx) => {
  if (value !== value.trim())
    ctx.addIssue({
      code: "custom",
      message: "Name cannot start or end with whitespace.",
      params: { code: "BASE_TYPE_INVALID" },
    });
});

const KNOWN_FEATURES: ReadonlySet<string> = new Set(GUILD_FEATURES);
const feature = z.string().superRefine((value, ctx) => {
  if (!KNOWN_FEATURES.has(value))
    ctx.addIssue({
      code: "custom",
      message: `Value "${value}" is not a valid guild feature.`,
      params: { code: "BASE_TYPE_CHOICES" },
    });
});

const level = (max: number) => z.number().int().min(0).max(max);
const imageData = z.string().nullable().optional();

export const GetGuildQuerySchema = z.object({ with_counts: booleanQuery });

/** Modify Guild: every field optional; `?`-typed fields of the spec also take null. */
export const ModifyGuildBodySchema = z.object({
  name: guildName.optional(),
  region: z.string().max(64).nullable().optional(),
  verification_level: level(VERIFICATION_LEVEL_MAX).nullable().optional(),
  default_message_notifications: level(DEFAULT_MESSAGE_NOTIFICATIONS_MAX).nullable().optional(),
  explicit_content_filter: level(EXPLICIT_CONTENT_FILTER_MAX).nullable().optional(),
  afk_channel_id: snowflake.nullable().optional(),
  afk_timeout: z.literal(AFK_TIMEOUTS).optional(),
  icon: imageData,
  splash: imageData,
  discovery_splash: imageData,
  banner: imageData,
  system_channel_id: snowflake.nullable().optional(),
  system_channel_flags: z
    .number()
    .int()
    .min(0)
    .refine((flags) => (flags & ~SYSTEM_CHANNEL_FLAGS_ALL) === 0, {
      message: "Only the defined system channel flags may be set.",
      params: { code: "BASE_TYPE_INVALID" },
    })
    .optional(),
  rules_channel_id: snowflake.nullable().optional(),
  public_updates_channel_id: snowflake.nullable().optional(),
  safety_alerts_channel_id: snowflake.nullable().optional(),
  preferred_locale: z.enum(GUILD_LOCALES).nullable().optional(),
  features: z.array(feature).optional(),
  description: z.string().max(GUILD_DESCRIPTION_MAX).nullable().optional(),
  premium_progress_bar_enabled: z.boolean().optional(),
});
export type ModifyGuildBody = z.output<typeof ModifyGuildBodySchema>;

/** Get Guild Audit Log: filters, and paging by entry id (newest first). */
export const GuildAuditLogQuerySchema = z.object({
  user_id: snowflake.optional(),
  target_id: snowflake.optional(),
  action_type: z.coerce.number().int().min(0).optional(),
  before: snowflake.optional(),
  after: snowflake.optional(),
  limit: z.coerce.number().int().min(AUDIT_LOG_LIMIT.min).max(AUDIT_LOG_LIMIT.max).default(AUDIT_LOG_LIMIT.default),
});
export type GuildAuditLogQuery = z.output<typeof GuildAuditLogQuerySchema>;

/** Guildhall's outbox reader: events after an id (exclusive), oldest first. */
export const ListGuildEventsQuerySchema = z.object({
  after: snowflake.default("0"),
  limit: z.coerce
    .number()
    .int()
    .min(GUILD_EVENTS_LIMIT.min)
    .max(GUILD_EVENTS_LIMIT.max)
    .default(GUILD_EVENTS_LIMIT.default),
});
