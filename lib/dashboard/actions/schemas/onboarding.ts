// Modify Guild Onboarding: the editor's values and the action's input, with Discord's limits on prompts and options.
// The enabling rules (7 default channels, 5 where @everyone can talk) need the guild's channels and permissions:
// lib/discord/onboarding-rules checks them live in the editor, and the API checks them again.
import { z } from "zod";
import type { APIGuildOnboarding } from "discord-api-types/v10";
import {
  ONBOARDING_DEFAULT_CHANNELS_MAX,
  ONBOARDING_OPTION_DESCRIPTION_MAX,
  ONBOARDING_OPTION_IDS_MAX,
  ONBOARDING_OPTION_TITLE_LENGTH,
  ONBOARDING_OPTIONS_MAX,
  ONBOARDING_PROMPT_TITLE_LENGTH,
  ONBOARDING_PROMPTS_MAX,
} from "@/lib/discord/limits";
import { distinctIds, guildActionBase, snowflakeSchema } from "./common";
import { charsBetween, emojiReference, refineEmoji } from "./community";

export const PROMPT_TYPES = [
  { value: 0, name: "MULTIPLE_CHOICE", label: "Multiple choice" },
  { value: 1, name: "DROPDOWN", label: "Dropdown" },
] as const;

export const ONBOARDING_MODES = [
  {
    value: 0,
    name: "ONBOARDING_DEFAULT",
    label: "Default channels only",
    description: "Only the default channels count toward the rules.",
  },
  {
    value: 1,
    name: "ONBOARDING_ADVANCED",
    label: "Default channels and questions",
    description: "Channels the questions add count too.",
  },
] as const;

export const PromptOptionSchema = z
  .object({
    /** The option's id; a new option carries a fresh placeholder id, which the API replaces. */
    id: snowflakeSchema,
    title: charsBetween(ONBOARDING_OPTION_TITLE_LENGTH.min, ONBOARDING_OPTION_TITLE_LENGTH.max, "The title must"),
    description: z
      .string()
      .max(ONBOARDING_OPTION_DESCRIPTION_MAX, `At most ${ONBOARDING_OPTION_DESCRIPTION_MAX} characters.`),
    ...emojiReference,
    emoji_animated: z.boolean(),
    channel_ids: distinctIds(ONBOARDING_OPTION_IDS_MAX, "channels"),
    role_ids: distinctIds(ONBOARDING_OPTION_IDS_MAX, "roles"),
  })
  .superRefine(refineEmoji);
export type PromptOptionValues = z.infer<typeof PromptOptionSchema>;

export const PromptSchema = z.object({
  id: snowflakeSchema,
  type: z.union([z.literal(0), z.literal(1)]),
  title: charsBetween(ONBOARDING_PROMPT_TITLE_LENGTH.min, ONBOARDING_PROMPT_TITLE_LENGTH.max, "The question must"),
  single_select: z.boolean(),
  required: z.boolean(),
  in_onboarding: z.boolean(),
  options: z
    .array(PromptOptionSchema)
    .min(1, "Add at least one option.")
    .max(ONBOARDING_OPTIONS_MAX, `At most ${ONBOARDING_OPTIONS_MAX} options.`),
});
export type PromptValues = z.infer<typeof PromptSchema>;

export const OnboardingSchema = z.object({
  enabled: z.boolean(),
  mode: z.union([z.literal(0), z.literal(1)]),
  default_channel_ids: distinctIds(ONBOARDING_DEFAULT_CHANNELS_MAX, "channels"),
  prompts: z.array(PromptSchema).max(ONBOARDING_PROMPTS_MAX, `At most ${ONBOARDING_PROMPTS_MAX} questions.`),
});
export type OnboardingValues = z.infer<typeof OnboardingSchema>;

export const ModifyOnboardingInputSchema = OnboardingSchema.extend(guildActionBase);
export type ModifyOnboardingInput = z.input<typeof ModifyOnboardingInputSchema>;

/** The editor's values from the onboarding object (options carry an emoji object; the editor holds the id/name pair). */
export function onboardingValues(onboarding: APIGuildOnboarding): OnboardingValues {
  return {
    enabled: onboarding.enabled,
    mode: onboarding.mode === 1 ? 1 : 0,
    default_channel_ids: onboarding.default_channel_ids,
    prompts: onboarding.prompts.map((p) => ({
      id: p.id,
      type: p.type === 1 ? 1 : 0,
      title: p.title,
      single_select: p.single_select,
      required: p.required,
      in_onboarding: p.in_onboarding,
      options: p.options.map((o) => ({
        id: o.id,
        title: o.title,
        description: o.description ?? "",
        emoji_id: o.emoji?.id ?? null,
        emoji_name: o.emoji?.name ?? null,
        emoji_animated: Boolean(o.emoji?.animated),
        channel_ids: o.channel_ids,
        role_ids: o.role_ids,
      })),
    })),
  };
}
