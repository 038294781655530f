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
import { bodyBoolean, isoTimestampAs, lengthBetween, snowflake, snowflakeCursor, uniqueSnowflakes } from "./common";

const incidentTimestamp = isoTimestampAs("DATE_TIME_INVALID");

// ── Widget ──

/** Modify Guild Widget: any widget settings attribute. */
export const ModifyGuildWidgetBodySchema = z.object({
  enabled: bodyBoolean.nullish(),
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
  enabled: bodyBoolean.nullish(),
  welcome_channels: z.array(WelcomeChannelSchema).max(WELCOME_CHANNELS_MAX).nullish(),
  description: z.string().max(WELCOME_DESCRIPTION_MAX).nullish(),
});
export type ModifyGuildWelcomeScreenBody = z.output<typeof ModifyGuildWelcomeScreenBodySchema>;

// ── Onboarding ──

const PromptOptionSchema = z.object({
  // Absent, null or unknown ids get a new id (clients send placeholders for new options, 0 among them).
  id: snowflakeCursor.nullish(),
  title: lengthBetween(ONBOARDING_OPTION_TITLE_LENGTH.min, ONBOARDING_OPTION_TITLE_LENGTH.max),
  description: z.string().max(ONBOARDING_OPTION_DESCRIPTION_MAX).nullish(),
  emoji_id: snowflake.nullish(),
  emoji_name: z.string().max(100).nullish(),
  emoji_animated: bodyBoolean.nullish(),
  role_ids: uniqueSnowflakes(ONBOARDING_OPTION_IDS_MAX).nullish(),
  channel_ids: uniqueSnowflakes(ONBOARDING_OPTION_IDS_MAX).nullish(),
});
export type PromptOptionInput = z.output<typeof PromptOptionSchema>;

const PromptSchema = z.object({
  id: snowflakeCursor.nullish(),
  type: z.literal([0, 1]).nullish(),
  title: lengthBetween(ONBOARDING_PROMPT_TITLE_LENGTH.min, ONBOARDING_PROMPT_TITLE_LENGTH.max),
  options: z.array(PromptOptionSchema).min(1).max(ONBOARDING_OPTIONS_MAX),
  single_select: bodyBoolean.nullish(),
  required: bodyBoolean.nullish(),
  in_onboarding: bodyBoolean.nullish(),
});
export type PromptInput = z.output<typeof PromptSchema>;

/** Modify Guild Onboarding: every field optional; an absent field keeps its current value. */
export const ModifyGuildOnboardingBodySchema = z.object({
  prompts: z.array(PromptSchema).max(ONBOARDING_PROMPTS_MAX).nullish(),
  default_channel_ids: uniqueSnowflakes(ONBOARDING_DEFAULT_CHANNELS_MAX).nullish(),
  enabled: bodyBoolean.nullish(),
  mode: z.literal([0, 1]).nullish(),
});
export type ModifyGuildOnboardingBody = z.output<typeof ModifyGuildOnboardingBodySchema>;

// ── Incident actions ──

/** Modify Guild Incident Actions: each field a timestamp at most 24 hours ahead (checked by the service), or null to lift. */
export const ModifyGuildIncidentActionsBodySchema = z.object({
  // Only JSON null lifts an action: strings such as "-1" or "%00" are not timestamps and are refused.
  invites_disabled_until: incidentTimestamp.nullish(),
  dms_disabled_until: incidentTimestamp.nullish(),
});
export type ModifyGuildIncidentActionsBody = z.output<typeof ModifyGuildIncidentActionsBodySchema>;
