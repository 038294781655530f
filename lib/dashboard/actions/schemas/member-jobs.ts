// Bulk member actions from the members page: what to do (a kind, with its role or time), to whom (ids from the page,
// or every member matching the table's filter), and the job controls.
import { z } from "zod";
import { MEMBER_FLAG_FILTERS, MEMBER_SORTS, WITHIN_OPTIONS } from "@/lib/dashboard/data/member-filters";
import { MEMBER_JOB_KINDS, MEMBER_JOB_MAX } from "@/lib/dashboard/jobs/member-actions/types";
import { guildActionBase, snowflakeSchema } from "./common";
import { timeoutEndSchema } from "./members";

const jobId = z.string().regex(/^[a-z0-9]{1,40}$/, "Not a valid job id.");

/** The members table's filter, as the URL holds it (lib/dashboard/data/member-filters.ts). */
export const MemberListFiltersSchema = z.object({
  q: z.string().trim().max(100).optional(),
  sort: z
    .enum(MEMBER_SORTS.map((s) => s.key) as [string, ...string[]])
    .transform((key) => key as (typeof MEMBER_SORTS)[number]["key"]),
  roles: z.array(snowflakeSchema).max(25),
  roleMode: z.enum(["any", "all"]),
  joined: z
    .enum(WITHIN_OPTIONS.map((o) => o.key) as [string, ...string[]])
    .transform((k) => k as (typeof WITHIN_OPTIONS)[number]["key"])
    .optional(),
  created: z
    .enum(WITHIN_OPTIONS.map((o) => o.key) as [string, ...string[]])
    .transform((k) => k as (typeof WITHIN_OPTIONS)[number]["key"])
    .optional(),
  flags: z
    .array(
      z
        .enum(MEMBER_FLAG_FILTERS.map((f) => f.key) as [string, ...string[]])
        .transform((k) => k as (typeof MEMBER_FLAG_FILTERS)[number]["key"]),
    )
    .max(MEMBER_FLAG_FILTERS.length),
});

export const BULK_MEMBER_ACTIONS = [...MEMBER_JOB_KINDS, "ban"] as const;

export const PrepareMemberJobInputSchema = z
  .object({
    ...guildActionBase,
    action: z.enum(BULK_MEMBER_ACTIONS),
    roleId: snowflakeSchema.optional(),
    until: timeoutEndSchema.optional(),
    /** Members picked on the page, or every member matching `filters`. */
    userIds: z
      .array(snowflakeSchema)
      .min(1, "Select at least one member.")
      .max(MEMBER_JOB_MAX)
      .refine((ids) => new Set(ids).size === ids.length, "Each member once.")
      .optional(),
    filters: MemberListFiltersSchema.optional(),
    /** Raid cleanup: bots among the members are left out (listed as skipped), whatever the rest says. */
    protectBots: z.boolean().optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.userIds === undefined) === (input.filters === undefined))
      ctx.addIssue({
        code: "custom",
        message: "Select members, or every member matching the filter.",
        path: ["userIds"],
      });
    if ((input.action === "add_role" || input.action === "remove_role") && !input.roleId)
      ctx.addIssue({ code: "custom", message: "Pick a role.", path: ["roleId"] });
    if (input.action === "timeout" && !input.until)
      ctx.addIssue({ code: "custom", message: "Pick how long.", path: ["until"] });
  });
export type PrepareMemberJobInput = z.input<typeof PrepareMemberJobInputSchema>;

export const MemberJobInputSchema = z.object({ ...guildActionBase, jobId });
