// Prune queries and bodies: days 1–30 (default 7), include_roles as comma-separated ids (query) or an array
// (body; Discord's OpenAPI also takes the comma-separated string there), at most 100 ids.
import { z } from "zod";
import { AUDIT_LOG_REASON_MAX, PRUNE_DAYS, PRUNE_INCLUDE_ROLES_MAX } from "@/lib/discord/limits";
import { bodyBoolean, snowflake } from "./common";

const roleIds = z.array(snowflake).max(PRUNE_INCLUDE_ROLES_MAX);
const splitIds = (value: string) =>
  value
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);

export const GetGuildPruneCountQuerySchema = z.object({
  days: z.coerce.number().int().min(PRUNE_DAYS.min).max(PRUNE_DAYS.max).default(PRUNE_DAYS.default),
  include_roles: z.preprocess((value) => (typeof value === "string" ? splitIds(value) : value), roleIds).default([]),
});

export const BeginGuildPruneBodySchema = z.object({
  // Discord's OpenAPI (PruneGuildRequest) types every field nullable: null means the default.
  days: z
    .number()
    .int()
    .min(PRUNE_DAYS.min)
    .max(PRUNE_DAYS.max)
    .nullish()
    .transform((days) => days ?? PRUNE_DAYS.default),
  // discord.py sends "true" / "false"; Discord takes them.
  compute_prune_count: bodyBoolean.nullish().transform((compute) => compute ?? true),
  include_roles: z
    .preprocess((value) => (typeof value === "string" ? splitIds(value) : value), roleIds.nullish())
    .transform((ids) => ids ?? []),
  /** Deprecated: X-Audit-Log-Reason wins when both are sent. */
  reason: z.string().max(AUDIT_LOG_REASON_MAX).nullish(),
});
