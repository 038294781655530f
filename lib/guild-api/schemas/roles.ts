// Role request bodies (Create Guild Role, Modify Guild Role, Modify Guild Role Positions), with the spec's limits.
import { z } from "zod";
import { ROLE_COLOR_MAX, ROLE_NAME_MAX, ROLE_UNICODE_EMOJI_MAX } from "@/lib/discord/limits";
import { bodyBoolean, displayName, snowflake } from "./common";

const color = z.number().int().min(0).max(ROLE_COLOR_MAX);

const MAX_BITFIELD = (1n << 64n) - 1n;

/**
 * A permission bitfield: Discord sends decimal strings; integers are accepted too (the OpenAPI file types it so; the
 * body parser keeps those beyond 2^53 exact as bigints). At most 64 bits.
 */
export const PermissionsValueSchema = z
  .union([
    z.string().regex(/^\d{1,20}$/, { message: "Value is not a permission bitfield." }),
    z.number().int().nonnegative(),
    z.bigint().nonnegative(),
  ])
  .transform((value) => BigInt(value))
  .refine((bits) => bits <= MAX_BITFIELD, {
    message: "Value is not a permission bitfield.",
    params: { code: "NUMBER_TYPE_COERCE" },
  });

export const RoleColorsSchema = z.object({
  primary_color: color.nullish(),
  secondary_color: color.nullish(),
  tertiary_color: color.nullish(),
});

/** Create Guild Role and Modify Guild Role share the fields: all optional and nullable. */
export const CreateGuildRoleBodySchema = z.object({
  name: displayName(z.string().min(1).max(ROLE_NAME_MAX)).nullish(),
  permissions: PermissionsValueSchema.nullish(),
  color: color.nullish(),
  colors: RoleColorsSchema.nullish(),
  hoist: bodyBoolean.nullish(),
  icon: z.string().nullish(),
  unicode_emoji: z.string().min(1).max(ROLE_UNICODE_EMOJI_MAX).nullish(),
  mentionable: bodyBoolean.nullish(),
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
