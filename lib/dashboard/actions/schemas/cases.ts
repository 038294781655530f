// Warnings, private notes and case reasons (issue #32). Pure: the member panel's forms and the server actions share
// them. A warning's or a note's text is its case's reason, within Discord's 512 characters like every reason here.
import { z } from "zod";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import { guildActionBase, snowflakeSchema } from "./common";

const caseText = (empty: string) =>
  z
    .string({ message: empty })
    .trim()
    .min(1, empty)
    .max(AUDIT_LOG_REASON_MAX, `At most ${AUDIT_LOG_REASON_MAX} characters.`);

export const WarnInputSchema = z.object({
  ...guildActionBase,
  userId: snowflakeSchema,
  reason: caseText("Say what the warning is for."),
});

export const NoteInputSchema = z.object({
  ...guildActionBase,
  userId: snowflakeSchema,
  reason: caseText("Write the note."),
});

/** A case's new reason; empty clears it. */
export const EditCaseReasonInputSchema = z.object({
  guildId: snowflakeSchema,
  number: z.coerce.number({ message: "Not a case number." }).int("Not a case number.").min(1).max(2_147_483_647),
  reason: z.string().trim().max(AUDIT_LOG_REASON_MAX, `At most ${AUDIT_LOG_REASON_MAX} characters.`),
});
