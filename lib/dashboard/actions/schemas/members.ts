// Modify Guild Member (nickname, roles, timeout, voice, flags), Remove Guild Member (kick), Create Guild Ban.
import { z } from "zod";
import { GuildMemberFlags } from "discord-api-types/v10";
import { DELETE_MESSAGE_SECONDS_MAX, NICK_MAX, TIMEOUT_MAX_MS } from "@/lib/discord/limits";
import { DURATION_MAX_MS, DurationSchema } from "@/lib/moderation/durations";
import { guildActionBase, reasonSchema, snowflakeSchema } from "./common";

/** The member by id only: the history names them from the API, never from the browser. */
const memberBase = { ...guildActionBase, userId: snowflakeSchema };

export const NicknameInputSchema = z.object({
  ...memberBase,
  nick: z.string().trim().max(NICK_MAX, `At most ${NICK_MAX} characters.`),
});

export const MemberRolesInputSchema = z.object({ ...memberBase, roles: z.array(snowflakeSchema).max(350) });

export const TIMEOUT_PRESETS = [
  { label: "60 seconds", ms: 60_000 },
  { label: "5 minutes", ms: 5 * 60_000 },
  { label: "10 minutes", ms: 10 * 60_000 },
  { label: "1 hour", ms: 3_600_000 },
  { label: "1 day", ms: 86_400_000 },
  { label: "1 week", ms: 7 * 86_400_000 },
  { label: "28 days", ms: TIMEOUT_MAX_MS },
] as const;

/** When a timeout ends: an ISO time in the future, at most 28 days ahead (a minute of grace covers the form's clock). */
export const timeoutEndSchema = z
  .string()
  .datetime({ offset: true, message: "Pick a date and time." })
  .superRefine((value, ctx) => {
    const at = Date.parse(value);
    if (at <= Date.now()) ctx.addIssue({ code: "custom", message: "Pick a time in the future." });
    else if (at > Date.now() + TIMEOUT_MAX_MS + 60_000)
      ctx.addIssue({ code: "custom", message: "A timeout lasts at most 28 days." });
  });

/**
 * One member's timeout may run past Discord's 28 days, up to 5 years: the API holds it to the cap and the dashboard
 * renews it a day before each cap runs out until its end (cases/schedule.ts). Bulk timeouts keep to 28 days.
 */
export const longTimeoutEndSchema = z
  .string()
  .datetime({ offset: true, message: "Pick a date and time." })
  .superRefine((value, ctx) => {
    const at = Date.parse(value);
    if (at <= Date.now()) ctx.addIssue({ code: "custom", message: "Pick a time in the future." });
    else if (at > Date.now() + DURATION_MAX_MS + 60_000)
      ctx.addIssue({ code: "custom", message: "A timeout lasts at most 5 years." });
  });

/** `until`: when the timeout ends, or null to remove the timeout. */
export const TimeoutInputSchema = z.object({ ...memberBase, until: longTimeoutEndSchema.nullable() });

/** Past the 28 days Discord holds, the member panel's longer lengths (renewed by the dashboard). */
export const LONG_TIMEOUT_PRESETS = [
  { label: "3 months", ms: 90 * 86_400_000 },
  { label: "1 year", ms: 365 * 86_400_000 },
] as const;

export const VoiceInputSchema = z
  .object({
    ...memberBase,
    mute: z.boolean().optional(),
    deaf: z.boolean().optional(),
    /** Move to this channel; null disconnects. */
    channel_id: snowflakeSchema.nullable().optional(),
  })
  .refine((v) => v.mute !== undefined || v.deaf !== undefined || v.channel_id !== undefined, {
    message: "Nothing to change.",
    path: [],
  });

export const BYPASSES_VERIFICATION = GuildMemberFlags.BypassesVerification;

export const MemberFlagsInputSchema = z.object({ ...memberBase, bypassesVerification: z.boolean() });

export const KickInputSchema = z.object({ ...memberBase });

export const BanInputSchema = z.object({
  ...memberBase,
  delete_message_seconds: z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX, "At most 7 days."),
  /** A temporary ban's length (the dashboard unbans when it ends), or "permanent". */
  duration: DurationSchema.default("permanent"),
});

export const DELETE_MESSAGE_OPTIONS = [
  { label: "Don't delete any", seconds: 0 },
  { label: "Previous hour", seconds: 3600 },
  { label: "Previous 6 hours", seconds: 6 * 3600 },
  { label: "Previous 12 hours", seconds: 12 * 3600 },
  { label: "Previous 24 hours", seconds: 86_400 },
  { label: "Previous 3 days", seconds: 3 * 86_400 },
  { label: "Previous 7 days", seconds: DELETE_MESSAGE_SECONDS_MAX },
] as const;

// ── The member panel's forms: the same field rules as the actions above, for react-hook-form's resolver ──

export const NicknameFormSchema = NicknameInputSchema.pick({ nick: true });
export type NicknameFormValues = z.input<typeof NicknameFormSchema>;

export const MemberRolesFormSchema = MemberRolesInputSchema.pick({ roles: true });
export type MemberRolesFormValues = z.input<typeof MemberRolesFormSchema>;

/** A preset duration (ms) or a custom end in the browser's local time (datetime-local), at most 5 years ahead. */
export const TimeoutFormSchema = z
  .object({ preset: z.string(), custom: z.string(), reason: reasonSchema })
  .superRefine((values, ctx) => {
    if (values.preset !== "custom") return;
    const at = values.custom ? new Date(values.custom).getTime() : Number.NaN;
    if (Number.isNaN(at)) ctx.addIssue({ code: "custom", message: "Pick a date and time.", path: ["custom"] });
    else if (at <= Date.now())
      ctx.addIssue({ code: "custom", message: "Pick a time in the future.", path: ["custom"] });
    else if (at > Date.now() + DURATION_MAX_MS)
      ctx.addIssue({ code: "custom", message: "A timeout lasts at most 5 years.", path: ["custom"] });
  });
export type TimeoutFormValues = z.input<typeof TimeoutFormSchema>;

/** When the timeout ends, as the action takes it. */
export const timeoutUntil = (values: TimeoutFormValues, now = Date.now()) =>
  values.preset === "custom"
    ? new Date(values.custom).toISOString()
    : new Date(now + Number(values.preset)).toISOString();

export const RemovalFormSchema = z.object({
  reason: reasonSchema,
  delete_message_seconds: z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX, "At most 7 days."),
  duration: DurationSchema.default("permanent"),
});
export type RemovalFormValues = z.input<typeof RemovalFormSchema>;
