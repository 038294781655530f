// Ban request bodies and queries, with the spec's limits.
import { z } from "zod";
import { BANS_LIMIT, BULK_BAN_MAX, DELETE_MESSAGE_DAYS_MAX, DELETE_MESSAGE_SECONDS_MAX } from "@/lib/discord/limits";
import { SNOWFLAKE_PATTERN } from "@/lib/discord/snowflake";

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, { message: "Value is not snowflake." });

export const GetGuildBansQuerySchema = z.object({
  limit: z.coerce.number().int().min(BANS_LIMIT.min).max(BANS_LIMIT.max).default(BANS_LIMIT.default),
  before: snowflake.optional(),
  after: snowflake.optional(),
});

export const CreateGuildBanBodySchema = z.object({
  delete_message_days: z.number().int().min(0).max(DELETE_MESSAGE_DAYS_MAX).nullish(),
  delete_message_seconds: z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX).nullish(),
});

export const BulkGuildBanBodySchema = z.object({
  user_ids: z.array(snowflake).min(1).max(BULK_BAN_MAX),
  delete_message_seconds: z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX).nullish(),
});
