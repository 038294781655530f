// Invite request bodies and queries: Create Channel Invite (JSON, form-urlencoded or multipart), Get Invite's query.
// Rules that need the guild (channel type, target user's stream, roles and hierarchy) are checked by the service.
import { z } from "zod";
import { INVITE_MAX_AGE, INVITE_MAX_USES, INVITE_ROLE_IDS_MAX } from "@/lib/discord/limits";
import { bodyBoolean, booleanQuery, snowflake, uniqueSnowflakes } from "./common";

/** role_ids as Discord's OpenAPI allows it: an array of snowflakes, or one comma-separated string (form bodies). */
const roleIds = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean)
      : value,
  uniqueSnowflakes(INVITE_ROLE_IDS_MAX),
);

/** Create Channel Invite: every field optional and nullable; null means the default. */
export const CreateChannelInviteBodySchema = z.object({
  max_age: z
    .number()
    .int()
    .min(INVITE_MAX_AGE.min)
    .max(INVITE_MAX_AGE.max)
    .nullish()
    .transform((v) => v ?? INVITE_MAX_AGE.default),
  max_uses: z
    .number()
    .int()
    .min(INVITE_MAX_USES.min)
    .max(INVITE_MAX_USES.max)
    .nullish()
    .transform((v) => v ?? INVITE_MAX_USES.default),
  temporary: bodyBoolean.nullish().transform((v) => v ?? false),
  unique: bodyBoolean.nullish().transform((v) => v ?? false),
  target_type: z
    .literal([1, 2])
    .nullish()
    .transform((v) => v ?? null),
  target_user_id: snowflake.nullish().transform((v) => v ?? null),
  target_application_id: snowflake.nullish().transform((v) => v ?? null),
  role_ids: roleIds.nullish().transform((v) => v ?? []),
});
export type CreateChannelInviteBody = z.output<typeof CreateChannelInviteBodySchema>;

const INTEGER_FIELDS = new Set(["max_age", "max_uses", "target_type"]);
const BOOLEAN_FIELDS = new Set(["temporary", "unique"]);

/**
 * A form body (urlencoded, or multipart without payload_json) as the JSON body it stands for: integers and booleans
 * converted where they read as such (anything else is left for the schema to refuse with Discord's message), repeated
 * role_ids collected.
 */
export function formToCreateInviteBody(form: FormData): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of [
    "max_age",
    "max_uses",
    "temporary",
    "unique",
    "target_type",
    "target_user_id",
    "target_application_id",
  ]) {
    const value = form.get(key);
    if (typeof value !== "string") continue;
    if (INTEGER_FIELDS.has(key) && /^-?[0-9]+$/.test(value)) body[key] = Number(value);
    else if (BOOLEAN_FIELDS.has(key) && /^(true|false|1|0)$/i.test(value)) body[key] = /^(true|1)$/i.test(value);
    else body[key] = value;
  }
  const roles = form.getAll("role_ids").filter((v): v is string => typeof v === "string");
  if (roles.length === 1) body.role_ids = roles[0];
  else if (roles.length > 1) body.role_ids = roles;
  return body;
}

export const GetInviteQuerySchema = z.object({
  with_counts: booleanQuery,
  with_expiration: booleanQuery,
  guild_scheduled_event_id: snowflake.optional(),
});
