// Ban appeals' forms (issue #32), pure so the browser's resolvers and the server check the same: a guild's appeal
// settings (up to 5 questions of 200 characters) and an appeal's answers (each 1 to 1,000 characters, one per question).
import { z } from "zod";
import { snowflakeSchema } from "@/lib/dashboard/actions/schemas/common";

export const APPEAL_QUESTIONS_MAX = 5;
export const APPEAL_QUESTION_MAX = 200;
export const APPEAL_ANSWER_MAX = 1_000;
export const APPEAL_MESSAGE_MAX = 1_000;
/** After a decision, the user may appeal again this much later. */
export const APPEAL_WAIT_AFTER_DECISION_MS = 7 * 86_400_000;

export const DEFAULT_APPEAL_QUESTIONS = ["Why were you banned?", "Why should we unban you?"] as const;

export const AppealSettingsFormSchema = z.object({
  enabled: z.boolean(),
  showReason: z.boolean(),
  questions: z
    .array(
      z
        .string()
        .trim()
        .min(1, "Write the question, or remove it.")
        .max(APPEAL_QUESTION_MAX, `At most ${APPEAL_QUESTION_MAX} characters.`),
    )
    .min(1, "Ask at least one question.")
    .max(APPEAL_QUESTIONS_MAX, `At most ${APPEAL_QUESTIONS_MAX} questions.`),
});
export type AppealSettingsFormValues = z.input<typeof AppealSettingsFormSchema>;
export const AppealSettingsInputSchema = AppealSettingsFormSchema.extend({ guildId: snowflakeSchema });

export const AppealAnswersSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1, "Answer this question.")
      .max(APPEAL_ANSWER_MAX, `At most ${APPEAL_ANSWER_MAX} characters.`),
  )
  .max(APPEAL_QUESTIONS_MAX);
export const AppealSubmitSchema = z.object({ guildId: snowflakeSchema, answers: AppealAnswersSchema });

const appealId = z.string().regex(/^[a-z0-9]{1,40}$/, "Not a valid appeal.");
export const AcceptAppealInputSchema = z.object({
  guildId: snowflakeSchema,
  appealId,
  message: z.string().trim().max(APPEAL_MESSAGE_MAX, `At most ${APPEAL_MESSAGE_MAX} characters.`).optional(),
});
export const RejectAppealInputSchema = z.object({
  guildId: snowflakeSchema,
  appealId,
  message: z
    .string({ message: "Tell them why." })
    .trim()
    .min(1, "Tell them why.")
    .max(APPEAL_MESSAGE_MAX, `At most ${APPEAL_MESSAGE_MAX} characters.`),
});
