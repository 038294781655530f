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
import { bodyBoolean, booleanQuery, lengthBetween, displayName, snowflake, snowflakeCursor } from "./common";

// Shared field schemas, re-exported where the other request schemas have always found them.
export { booleanQuery, lengthBetween, snowflake };

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
  name: displayName(lengthBetween(GUILD_NAME_LENGTH.min, GUILD_NAME_LENGTH.max)).optional(),
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
  premium_progress_bar_enabled: bodyBoolean.optional(),
});
export type ModifyGuildBody = z.output<typeof ModifyGuildBodySchema>;

/** Get Guild Audit Log: filters, and paging by entry id (newest first). */
export const GuildAuditLogQuerySchema = z.object({
  user_id: snowflake.optional(),
  target_id: snowflake.optional(),
  action_type: z.coerce.number().int().min(0).optional(),
  before: snowflakeCursor.optional(),
  after: snowflakeCursor.optional(),
  limit: z.coerce.number().int().min(AUDIT_LOG_LIMIT.min).max(AUDIT_LOG_LIMIT.max).default(AUDIT_LOG_LIMIT.default),
});
export type GuildAuditLogQuery = z.output<typeof GuildAuditLogQuerySchema>;

/** Guildhall's outbox reader: events after an id (exclusive), oldest first. */
export const ListGuildEventsQuerySchema = z.object({
  after: snowflakeCursor.default("0"),
  limit: z.coerce
    .number()
    .int()
    .min(GUILD_EVENTS_LIMIT.min)
    .max(GUILD_EVENTS_LIMIT.max)
    .default(GUILD_EVENTS_LIMIT.default),
});
