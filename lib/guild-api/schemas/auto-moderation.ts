// AutoMod request bodies (Create and Modify Auto Moderation Rule) with Discord's limits. What depends on the rule's
// trigger type (which metadata fields count, which actions it may take, the allow list's size) is judged by the
// service, which knows the trigger type of a rule being modified.
import { z } from "zod";
import { AUTOMOD_LIMITS as L, AutoModerationActionType, AutoModerationTriggerType } from "@/lib/discord/automod/rules";
import { bodyBoolean, displayName, lengthBetween, snowflake, uniqueSnowflakes } from "./common";

const words = (max: number) => z.array(lengthBetween(1, L.keywordLength)).max(max);

export const TriggerMetadataBodySchema = z.object({
  keyword_filter: words(L.keywordFilter).nullish(),
  regex_patterns: z.array(lengthBetween(1, L.regexLength)).max(L.regexPatterns).nullish(),
  // The larger cap (a keyword-preset rule's); keyword and member-profile rules are held to theirs by the service.
  allow_list: z.array(lengthBetween(1, L.allowListLength)).max(L.allowListPreset).nullish(),
  presets: z
    .array(z.union([z.literal(1), z.literal(2), z.literal(3)]))
    .max(3)
    .nullish(),
  mention_total_limit: z.number().int().min(0).max(L.mentionTotalLimit).nullish(),
  mention_raid_protection_enabled: bodyBoolean.nullish(),
});
export type TriggerMetadataBody = z.output<typeof TriggerMetadataBodySchema>;

const ACTION_TYPES = Object.values(AutoModerationActionType);

export const ActionBodySchema = z.object({
  type: z
    .number()
    .int()
    .refine((type) => (ACTION_TYPES as number[]).includes(type), {
      message: `Value must be one of {${ACTION_TYPES.join(", ")}}.`,
      params: { code: "BASE_TYPE_CHOICES" },
    }),
  metadata: z
    .object({
      channel_id: snowflake.optional(),
      duration_seconds: z.number().int().min(0).max(L.timeoutSeconds).nullish(),
      custom_message: lengthBetween(0, L.customMessage).nullish(),
    })
    .nullish(),
});
export type ActionBody = z.output<typeof ActionBodySchema>;

const TRIGGER_TYPES = Object.values(AutoModerationTriggerType);

const ruleFields = {
  name: displayName(lengthBetween(1, L.ruleName)),
  event_type: z.union([z.literal(1), z.literal(2)]),
  trigger_metadata: TriggerMetadataBodySchema.nullish(),
  actions: z.array(ActionBodySchema).min(1).max(L.actions),
  enabled: bodyBoolean.nullish(),
  exempt_roles: uniqueSnowflakes(L.exemptRoles).nullish(),
  exempt_channels: uniqueSnowflakes(L.exemptChannels).nullish(),
};

export const CreateAutoModerationRuleBodySchema = z.object({
  ...ruleFields,
  trigger_type: z
    .number()
    .int()
    .refine((type) => (TRIGGER_TYPES as number[]).includes(type), {
      message: `Value must be one of {${TRIGGER_TYPES.join(", ")}}.`,
      params: { code: "BASE_TYPE_CHOICES" },
    }),
});
export type CreateAutoModerationRuleBody = z.output<typeof CreateAutoModerationRuleBodySchema>;

/** Every field optional; a trigger type may be sent only as the rule's own (judged by the service). */
export const ModifyAutoModerationRuleBodySchema = z.object({
  name: ruleFields.name.optional(),
  event_type: ruleFields.event_type.optional(),
  trigger_metadata: ruleFields.trigger_metadata,
  actions: ruleFields.actions.nullish(),
  enabled: ruleFields.enabled,
  exempt_roles: ruleFields.exempt_roles,
  exempt_channels: ruleFields.exempt_channels,
  trigger_type: z.number().int().optional(),
});
export type ModifyAutoModerationRuleBody = z.output<typeof ModifyAutoModerationRuleBodySchema>;
