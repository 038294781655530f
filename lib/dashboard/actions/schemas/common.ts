// Pieces every action schema shares. These modules are pure (zod and the shared limits), so the same schema
// feeds the form's resolver in the browser and the server action's validation.
import { z } from "zod";
import { repeatedIdPositions } from "@/lib/discord/snowflake";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";

export const snowflakeSchema = z.string().regex(/^\d{1,20}$/, "Not a valid id.");

export const reasonSchema = z
  .string()
  .trim()
  .max(AUDIT_LOG_REASON_MAX, `At most ${AUDIT_LOG_REASON_MAX} characters.`)
  .optional();

/** Every guild action names its guild and may carry a reason (sent as X-Audit-Log-Reason). */
export const guildActionBase = { guildId: snowflakeSchema, reason: reasonSchema };

/** "" from an empty <select> or input means "none". */
export const emptyToNull = (value: unknown) => (value === "" || value === undefined ? null : value);

/** At most `max` ids, none twice. */
export const distinctIds = (max: number, what: string) =>
  z
    .array(snowflakeSchema)
    .max(max, `At most ${max} ${what}.`)
    .refine((ids) => repeatedIdPositions(ids).length === 0, `A ${what.replace(/s$/, "")} is listed twice.`);
