// Ban request bodies and queries, with the spec's limits.
import { z } from "zod";
import { BANS_LIMIT, BULK_BAN_MAX, DELETE_MESSAGE_DAYS_MAX, DELETE_MESSAGE_SECONDS_MAX } from "@/lib/discord/limits";
import { snowflakeCursor, uniqueSnowflakes } from "./common";

// Messages are not stored by the built-in API, so the deletion windows are validated and otherwise have nothing to delete.
const deleteMessageSeconds = z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX).nullish();

export const GetGuildBansQuerySchema = z.object({
  limit: z.coerce.number().int().min(BANS_LIMIT.min).max(BANS_LIMIT.max).default(BANS_LIMIT.default),
  before: snowflakeCursor.optional(),
  after: snowflakeCursor.optional(),
});

export const CreateGuildBanBodySchema = z.object({
  /** Deprecated in favour of delete_message_seconds. */
  delete_message_days: z.number().int().min(0).max(DELETE_MESSAGE_DAYS_MAX).nullish(),
  delete_message_seconds: deleteMessageSeconds,
});

export const BulkGuildBanBodySchema = z.object({
  // Discord's OpenAPI declares uniqueItems: a repeated id is refused where it repeats.
  user_ids: uniqueSnowflakes(BULK_BAN_MAX).min(1),
  delete_message_seconds: deleteMessageSeconds,
});
