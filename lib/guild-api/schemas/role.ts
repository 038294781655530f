// Role request bodies (Create Guild Role, Modify Guild Role, Modify Guild Role Positions), with the spec's limits.
import { z } from "zod";
import { ROLE_COLOR_MAX, ROLE_NAME_MAX, ROLE_UNICODE_EMOJI_MAX } from "@/lib/discord/limits";
import { SNOWFLAKE_PATTERN } from "@/lib/discord/snowflake";

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, { message: "Value is not snowflake." });
const color = z.number().int().min(0).max(ROLE_COLOR_MAX);

/** A permission bitfield: Discord sends decimal strings; integers are accepted too (the OpenAPI file types it so). */
export const PermissionsValueSchema = z
  .union([
    z.string().regex(/^\d{1,20}$/, { message: "Value is not a permission bitfield." }),
    z.number().int().nonnegative(),
  ])
  .transform((value) => BigInt(value));

export const RoleColorsSchema = z.object({
  primary_color: color.nullish(),
  secondary_color: color.nullish(),
  tertiary_color: color.nullish(),
});

/** Create Guild Role and Modify Guild Role share the fields: all optional and nullable. */
export const CreateGuildRoleBodySchema = z.object({
  name: z.string().min(1).max(ROLE_NAME_MAX).nullish(),
  permissions: PermissionsValueSchema.nullish(),
  color: color.nullish(),
  colors: RoleColorsSchema.nullish(),
  hoist: z.boolean().nullish(),
  icon: z.string().nullish(),
  unicode_emoji: z.string().min(1).max(ROLE_UNICODE_EMOJI_MAX).nullish(),
  mentionable: z.boolean().nullish(),
});
export type RoleFieldsBody = z.output<typeof CreateGuildRoleBodySchema>;

export const ModifyGuildRoleBodySchema = CreateGuildRoleBodySchema;

export const ModifyGuildRolePositionsBodySchema = z.array(
  z.object({
    id: snowflake,
    position: z.number().int().min(0).nullish(),
  }),
);
export type ModifyGuildRolePositionsBody = z.output<typeof ModifyGuildRolePositionsBodySchema>;
