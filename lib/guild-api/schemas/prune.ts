// Prune queries and bodies: days 1–30 (default 7), include_roles as comma-separated ids (query) or an array (body).
import { z } from "zod";
import { PRUNE_DAYS } from "@/lib/discord/limits";
import { SNOWFLAKE_PATTERN } from "@/lib/discord/snowflake";

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, { message: "Value is not snowflake." });
const days = z.coerce.number().int().min(PRUNE_DAYS.min).max(PRUNE_DAYS.max).default(PRUNE_DAYS.default);

export const GetGuildPruneCountQuerySchema = z.object({
  days,
  include_roles: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(",").map((id) => id.trim()).filter(Boolean) : []))
    .pipe(z.array(snowflake).max(100)),
});

export const BeginGuildPruneBodySchema = z.object({
  days: z.number().int().min(PRUNE_DAYS.min).max(PRUNE_DAYS.max).default(PRUNE_DAYS.default),
  compute_prune_count: z.boolean().default(true),
  include_roles: z.array(snowflake).max(100).default([]),
  reason: z.string().max(512).optional(),
});
