// Create / Modify / Delete Guild Role and Modify Guild Role Positions.
import { z } from "zod";
import { ROLE_NAME_MAX } from "@/lib/discord/limits";
import { guildActionBase, snowflakeSchema } from "./common";

export const permissionsString = z.string().regex(/^\d{1,20}$/, "Not a permission bitfield.");

export const RoleFormSchema = z.object({
  name: z.string().trim().min(1, "Give the role a name.").max(ROLE_NAME_MAX, `At most ${ROLE_NAME_MAX} characters.`),
  color: z.number().int().min(0).max(0xffffff),
  hoist: z.boolean(),
  mentionable: z.boolean(),
  /** Decimal bitfield string: permissions reach bit 50+, beyond what a JS number holds exactly. */
  permissions: permissionsString,
});

export type RoleFormValues = z.infer<typeof RoleFormSchema>;

export const CreateRoleInputSchema = RoleFormSchema.extend(guildActionBase);

export const ModifyRoleInputSchema = RoleFormSchema.partial()
  .extend({ ...guildActionBase, roleId: snowflakeSchema })
  .refine(
    (input) =>
      ["name", "color", "hoist", "mentionable", "permissions"].some(
        (key) => key in input && input[key as keyof typeof input] !== undefined,
      ),
    {
      message: "Nothing to save.",
      path: [],
    },
  );

export const RolePositionsInputSchema = z.object({
  ...guildActionBase,
  positions: z
    .array(z.object({ id: snowflakeSchema, position: z.number().int().min(1) }))
    .min(1, "Nothing moved.")
    .max(250),
});

export const DeleteRoleInputSchema = z.object({
  ...guildActionBase,
  roleId: snowflakeSchema,
});

export const hexToColor = (hex: string) => Number.parseInt(hex.replace("#", ""), 16) || 0;
export const colorToHex = (color: number) => `#${color.toString(16).padStart(6, "0")}`;
