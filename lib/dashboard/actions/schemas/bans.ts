// Remove Guild Ban, and the bulk-ban job: its preview form, the chunks sent to Bulk Guild Ban, job controls, undo.
import { z } from "zod";
import { DurationSchema } from "@/lib/moderation/durations";
import { BULK_BAN_MAX, DELETE_MESSAGE_SECONDS_MAX } from "@/lib/discord/limits";
import { BULK_BAN_INPUT_MAX_CHARS, BULK_BAN_JOB_MAX_IDS, parseUserIds } from "@/lib/dashboard/jobs/bulk-ban/parse";
import { distinctIds, guildActionBase, reasonSchema, snowflakeSchema } from "./common";

/** Remove Guild Ban gives one user back per request: undo sends this many per action call. */
export const UNDO_CHUNK_SIZE = 50;

/** The user by id only: the history names them from the ban the API holds, never from the browser. */
export const UnbanInputSchema = z.object({ ...guildActionBase, userId: snowflakeSchema });

/** Ban by id (Create Guild Ban for one user, member or not): the dialog's fields, and the action's input. */
export const BanByIdFormSchema = z.object({
  userId: snowflakeSchema,
  delete_message_seconds: z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX, "At most 7 days."),
  reason: reasonSchema,
  /** A temporary ban's length (the dashboard unbans when it ends), or "permanent". */
  duration: DurationSchema.default("permanent"),
});
export type BanByIdFormValues = z.input<typeof BanByIdFormSchema>;
export const BanByIdInputSchema = BanByIdFormSchema.extend({ guildId: snowflakeSchema });

export const BulkBanFormSchema = z.object({
  text: z
    .string()
    .max(BULK_BAN_INPUT_MAX_CHARS, `At most ${BULK_BAN_INPUT_MAX_CHARS.toLocaleString("en-US")} characters.`)
    .superRefine((text, ctx) => {
      const { ids } = parseUserIds(text);
      if (ids.length === 0) ctx.addIssue({ code: "custom", message: "Paste or upload at least one user id." });
      else if (ids.length > BULK_BAN_JOB_MAX_IDS)
        ctx.addIssue({
          code: "custom",
          message: `At most ${BULK_BAN_JOB_MAX_IDS.toLocaleString("en-US")} ids per job (${ids.length.toLocaleString("en-US")} given).`,
        });
    }),
  delete_message_seconds: z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX, "At most 7 days."),
  reason: reasonSchema,
  /** Every ban of the job lasts this long (the dashboard unbans each at its end), or is permanent. */
  duration: DurationSchema.default("permanent"),
});
export type BulkBanFormValues = z.input<typeof BulkBanFormSchema>;

export const BulkBanPreviewInputSchema = BulkBanFormSchema.extend({ guildId: snowflakeSchema });

const jobId = z.string().regex(/^[a-z0-9]{1,40}$/, "Not a valid job id.");
const uniqueIds = (max: number) => distinctIds(max, "ids per request").min(1);

export const BulkBanJobInputSchema = z.object({ ...guildActionBase, jobId });

export const BulkBanChunkInputSchema = z.object({ ...guildActionBase, jobId, userIds: uniqueIds(BULK_BAN_MAX) });

export const UndoChunkInputSchema = z.object({ ...guildActionBase, jobId, userIds: uniqueIds(UNDO_CHUNK_SIZE) });
