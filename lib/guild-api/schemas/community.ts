// Request schemas of the widget, welcome screen, onboarding and incident-action operations. Rules that need the guild
// (channels and roles of the guild, custom emojis, the onboarding constraints, the 24-hour window) are the services'.
import { z } from "zod";
import {
  ONBOARDING_DEFAULT_CHANNELS_MAX,
  ONBOARDING_OPTION_DESCRIPTION_MAX,
  ONBOARDING_OPTION_IDS_MAX,
  ONBOARDING_OPTION_TITLE_LENGTH,
  ONBOARDING_OPTIONS_MAX,
  ONBOARDING_PROMPT_TITLE_LENGTH,
  ONBOARDING_PROMPTS_MAX,
  WELCOME_CHANNEL_DESCRIPTION_LENGTH,
  WELCOME_CHANNELS_MAX,
  WELCOME_DESCRIPTION_MAX,
} from "@/lib/discord/limits";
import { lengthBetween, snowflake } from "./guild";

/** A list of distinct snowflakes: a repeated id is refused where it repeats (uniqueItems in Discord's OpenAPI). */
const uniqueSnowflakes = (max: number) =>
  z
    .array(snowflake)
    .max(max)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, index) => {
        if (seen.has(id))
          ctx.addIssue({
            code: "custom",
            path: [index],
            message: "The set already contains this value.",
            params: { code: "SET_TYPE_ALREADY_CONTAINS_VALUE" },
          });
        seen.add(id);
      });
    });

/** An ISO 8601 timestamp, as ms since the epoch. */
const timestamp = z.string().transform((value, ctx) => {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({
      code: "custom",
      message: `Could not interpret "${value}" as a date.`,
      params: { code: "DATE_TIME_INVALID" },
    });
    return z.NEVER;
  }
  return ms;
});

// ── Widget ──

/** Modify Guild Widget: any widget settings attribute. */
export const ModifyGuildWidgetBodySchema = z.object({
  enabled: z.boolean().nullish(),
  channel_id: snowflake.nullish(),
});
export type ModifyGuildWidgetBody = z.output<typeof ModifyGuildWidgetBodySchema>;

// ── Welcome screen ──

const WelcomeChannelSchema = z.object({
  channel_id: snowflake,
  description: lengthBetween(WELCOME_CHANNEL_DESCRIPTION_LENGTH.min, WELCOME_CHANNEL_DESCRIPTION_LENGTH.max),
  emoji_id: snowflake.nullish(),
  emoji_name: z.string().max(100).nullish(),
});

/** Modify Guild Welcome Screen: every field optional and nullable. */
export const ModifyGuildWelcomeScreenBodySchema = z.object({
  enabled: z.boolean().nullish(),
  welcome_channels: z.array(WelcomeChannelSchema).max(WELCOME_CHANNELS_MAX).nullish(),
  description: z.string().max(WELCOME_DESCRIPTION_MAX).nullish(),
});
export type ModifyGuildWelcomeScreenBody = z.output<typeof ModifyGuildWelcomeScreenBodySchema>;

// ── Onboarding ──

const PromptOptionSchema = z.object({
  // Absent, null or unknown ids get a new id (clients send placeholders for new options).
  id: snowflake.nullish(),
  title: lengthBetween(ONBOARDING_OPTION_TITLE_LENGTH.min, ONBOARDING_OPTION_TITLE_LENGTH.max),
  description: z.string().max(ONBOARDING_OPTION_DESCRIPTION_MAX).nullish(),
  emoji_id: snowflake.nullish(),
  emoji_name: z.string().max(100).nullish(),
  emoji_animated: z.boolean().nullish(),
  role_ids: uniqueSnowflakes(ONBOARDING_OPTION_IDS_MAX).nullish(),
  channel_ids: uniqueSnowflakes(ONBOARDING_OPTION_IDS_MAX).nullish(),
});
export type PromptOptionInput = z.output<typeof PromptOptionSchema>;

const PromptSchema = z.object({
  id: snowflake.nullish(),
  type: z.literal([0, 1]).nullish(),
  title: lengthBetween(ONBOARDING_PROMPT_TITLE_LENGTH.min, ONBOARDING_PROMPT_TITLE_LENGTH.max),
  options: z.array(PromptOptionSchema).min(1).max(ONBOARDING_OPTIONS_MAX),
  single_select: z.boolean().nullish(),
  required: z.boolean().nullish(),
  in_onboarding: z.boolean().nullish(),
});
export type PromptInput = z.output<typeof PromptSchema>;

/** Modify Guild Onboarding: every field optional; an absent field keeps its current value. */
export const ModifyGuildOnboardingBodySchema = z.object({
  prompts: z.array(PromptSchema).max(ONBOARDING_PROMPTS_MAX).nullish(),
  default_channel_ids: uniqueSnowflakes(ONBOARDING_DEFAULT_CHANNELS_MAX).nullish(),
  enabled: z.boolean().nullish(),
  mode: z.literal([0, 1]).nullish(),
});
export type ModifyGuildOnboardingBody = z.output<typeof ModifyGuildOnboardingBodySchema>;

// ── Incident actions ──

/** Modify Guild Incident Actions: each field a timestamp at most 24 hours ahead (checked by the service), or null to lift. */
export const ModifyGuildIncidentActionsBodySchema = z.object({
  invites_disabled_until: timestamp.nullish(),
  dms_disabled_until: timestamp.nullish(),
});
export type ModifyGuildIncidentActionsBody = z.output<typeof ModifyGuildIncidentActionsBodySchema>;
