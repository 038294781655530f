// Create / Modify / Delete Auto Moderation Rule: the editor's values (one schema for the form's resolver and the
// server actions), Discord's limits from lib/discord/automod (AUTOMOD_LIMITS), regex patterns checked with the
// matcher's own engine, and the translation between the editor's flat values and Discord's rule (trigger metadata and
// a list of actions). Pure: zod, the shared limits and the matcher.
import { z } from "zod";
import type {
  APIAutoModerationAction,
  APIAutoModerationRule,
  APIAutoModerationRuleTriggerMetadata,
  RESTPatchAPIAutoModerationRuleJSONBody,
  RESTPostAPIAutoModerationRuleJSONBody,
} from "discord-api-types/v10";
import { TIMEOUT_MAX_MS } from "@/lib/discord/limits";
import {
  ACTIONS_OF_TRIGGER,
  AUTOMOD_LIMITS as LIMITS,
  AutoModerationActionType as Action,
  AutoModerationTriggerType as Trigger,
  EVENT_TYPE_OF_TRIGGER,
  KeywordPresetType,
  type AutoModerationActionType,
  type AutoModerationTriggerType,
} from "@/lib/discord/automod/rules";
import { checkRegexPattern } from "@/lib/discord/automod/matcher";
import { distinctIds, guildActionBase, snowflakeSchema } from "./common";

/** Characters as the API counts them (code points). */
const chars = (value: string) => [...value].length;
const atMost = (max: number) => (value: string) => chars(value) <= max;

/** The groups of Discord's AutoMod page, in its order, with its words. */
export const AUTOMOD_GROUPS = [
  {
    trigger: Trigger.Keyword,
    label: "Block custom words",
    description: "Block messages with words, phrases or patterns you choose.",
    newName: "Custom words",
  },
  {
    trigger: Trigger.Spam,
    label: "Block spam content",
    description: "Block messages that look like spam.",
    newName: "Block spam content",
  },
  {
    trigger: Trigger.MentionSpam,
    label: "Block mention spam",
    description: "Block messages that mention too many roles and users at once.",
    newName: "Block mention spam",
  },
  {
    trigger: Trigger.KeywordPreset,
    label: "Block commonly flagged words",
    description: "Block messages with words from Discord's lists of commonly flagged words.",
    newName: "Block commonly flagged words",
  },
  {
    trigger: Trigger.MemberProfile,
    label: "Block words in member profile names",
    description: "Stop members whose names hold words you choose from talking until they change them.",
    newName: "Block words in member profile names",
  },
] as const satisfies ReadonlyArray<{
  trigger: AutoModerationTriggerType;
  label: string;
  description: string;
  newName: string;
}>;

/** Discord's word lists, in its client's order and words. */
export const PRESET_OPTIONS = [
  { preset: KeywordPresetType.Slurs, label: "Insults and slurs" },
  { preset: KeywordPresetType.SexualContent, label: "Sexual content" },
  { preset: KeywordPresetType.Profanity, label: "Severe profanity" },
] as const;

/** A timeout action's lengths, as Discord's AutoMod offers them (at most 4 weeks). */
export const TIMEOUT_OPTIONS = [
  { label: "60 seconds", seconds: 60 },
  { label: "5 minutes", seconds: 300 },
  { label: "10 minutes", seconds: 600 },
  { label: "1 hour", seconds: 3_600 },
  { label: "1 day", seconds: 86_400 },
  { label: "1 week", seconds: 604_800 },
  { label: "4 weeks", seconds: TIMEOUT_MAX_MS / 1000 },
] as const;

const TRIGGER_TYPES = [
  Trigger.Keyword,
  Trigger.Spam,
  Trigger.KeywordPreset,
  Trigger.MentionSpam,
  Trigger.MemberProfile,
] as const;
const PRESETS = PRESET_OPTIONS.map((option) => option.preset);

/** Trigger types with keywords, regex patterns and an allow list of their own. */
export const hasKeywords = (trigger: AutoModerationTriggerType) =>
  trigger === Trigger.Keyword || trigger === Trigger.MemberProfile;

/** How many allow-list entries a rule of this trigger type may hold. */
export const allowListLimit = (trigger: AutoModerationTriggerType) =>
  trigger === Trigger.KeywordPreset ? LIMITS.allowListPreset : LIMITS.allowList;

export const keywordSchema = z
  .string()
  .trim()
  .min(1, "A keyword can't be empty.")
  .refine(atMost(LIMITS.keywordLength), `At most ${LIMITS.keywordLength} characters.`);

export const allowedWordSchema = z
  .string()
  .trim()
  .min(1, "An allowed word can't be empty.")
  .refine(atMost(LIMITS.allowListLength), `At most ${LIMITS.allowListLength} characters.`);

/** A regex pattern: within Discord's length, and one the matcher's engine (Rust's regex syntax) accepts. */
export const regexPatternSchema = z
  .string()
  .min(1, "A pattern can't be empty.")
  .refine(atMost(LIMITS.regexLength), `At most ${LIMITS.regexLength} characters.`)
  .superRefine((pattern, ctx) => {
    if (!atMost(LIMITS.regexLength)(pattern)) return;
    const verdict = checkRegexPattern(pattern);
    if (!verdict.ok) ctx.addIssue({ code: "custom", message: verdict.message });
  });

/** The editor's fields: one rule, its trigger's settings and its actions flattened to what a moderator sets. */
const RuleFieldsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the rule a name.")
    .refine(atMost(LIMITS.ruleName), `At most ${LIMITS.ruleName} characters.`),
  trigger_type: z.literal(TRIGGER_TYPES, { error: "Not a kind of rule AutoMod has." }),
  enabled: z.boolean(),
  keyword_filter: z
    .array(keywordSchema)
    .max(LIMITS.keywordFilter, `At most ${LIMITS.keywordFilter.toLocaleString("en")} keywords.`),
  regex_patterns: z
    .array(regexPatternSchema)
    .max(LIMITS.regexPatterns, `At most ${LIMITS.regexPatterns} regex patterns.`),
  allow_list: z
    .array(allowedWordSchema)
    .max(LIMITS.allowListPreset, `At most ${LIMITS.allowListPreset.toLocaleString("en")} allowed words.`),
  presets: z
    .array(z.number().int())
    .max(PRESETS.length)
    .refine((presets) => presets.every((p) => (PRESETS as number[]).includes(p)), "Not one of Discord's word lists.")
    .refine((presets) => new Set(presets).size === presets.length, "A word list is picked twice."),
  mention_total_limit: z
    .number({ error: "Enter a number." })
    .int("Enter a whole number.")
    .min(0, "At least 0 mentions.")
    .max(LIMITS.mentionTotalLimit, `At most ${LIMITS.mentionTotalLimit} mentions.`),
  mention_raid_protection_enabled: z.boolean(),
  block_message: z.boolean(),
  custom_message: z.string().trim().refine(atMost(LIMITS.customMessage), `At most ${LIMITS.customMessage} characters.`),
  send_alert: z.boolean(),
  alert_channel_id: snowflakeSchema.nullable(),
  timeout: z.boolean(),
  timeout_seconds: z
    .number({ error: "Pick how long." })
    .int()
    .min(1, "At least 1 second.")
    .max(LIMITS.timeoutSeconds, "At most 4 weeks."),
  block_member_interaction: z.boolean(),
  exempt_roles: distinctIds(LIMITS.exemptRoles, "roles"),
  exempt_channels: distinctIds(LIMITS.exemptChannels, "channels"),
});

/** The editor's action switches, by Discord's action type. */
export const ACTION_FIELDS = {
  [Action.BlockMessage]: "block_message",
  [Action.SendAlertMessage]: "send_alert",
  [Action.Timeout]: "timeout",
  [Action.BlockMemberInteraction]: "block_member_interaction",
} as const satisfies Record<AutoModerationActionType, keyof z.infer<typeof RuleFieldsSchema>>;

type RuleFields = z.infer<typeof RuleFieldsSchema>;

/** What the fields cannot say alone: the trigger's own needs and limits, and the actions it may take. */
function refineRule(rule: RuleFields, ctx: z.RefinementCtx): void {
  const trigger = rule.trigger_type as AutoModerationTriggerType;
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (hasKeywords(trigger) && rule.keyword_filter.length === 0 && rule.regex_patterns.length === 0)
    issue("keyword_filter", "Add at least one keyword or regex pattern.");
  if (trigger === Trigger.KeywordPreset && rule.presets.length === 0)
    issue("presets", "Pick at least one list of words.");
  const allowLimit = allowListLimit(trigger);
  if (rule.allow_list.length > allowLimit)
    issue("allow_list", `At most ${allowLimit.toLocaleString("en")} allowed words for this kind of rule.`);

  const allowed: readonly number[] = ACTIONS_OF_TRIGGER[trigger] ?? [];
  const chosen = (Object.entries(ACTION_FIELDS) as Array<[string, keyof RuleFields]>).filter(
    ([, field]) => rule[field] === true,
  );
  for (const [type, field] of chosen)
    if (!allowed.includes(Number(type))) issue(field, "This kind of rule can't take this action.");
  if (chosen.length === 0) issue("actions", "Choose at least one response.");
  if (rule.send_alert && rule.alert_channel_id === null) issue("alert_channel_id", "Pick the channel for alerts.");
}

export const AutoModerationRuleFormSchema = RuleFieldsSchema.superRefine(refineRule);
export type AutoModerationRuleFormValues = z.infer<typeof AutoModerationRuleFormSchema>;
/** The editor's fields (the names API errors are put on). */
export const RULE_FORM_FIELDS = [...Object.keys(RuleFieldsSchema.shape), "actions"] as const;

export const CreateAutoModerationRuleInputSchema = RuleFieldsSchema.extend(guildActionBase).superRefine(refineRule);
export type CreateAutoModerationRuleInput = z.input<typeof CreateAutoModerationRuleInputSchema>;

export const ModifyAutoModerationRuleInputSchema = RuleFieldsSchema.extend({
  ...guildActionBase,
  ruleId: snowflakeSchema,
}).superRefine(refineRule);
export type ModifyAutoModerationRuleInput = z.input<typeof ModifyAutoModerationRuleInputSchema>;

/** The switch beside a rule: Modify Auto Moderation Rule with `enabled` alone. */
export const SetAutoModerationRuleEnabledInputSchema = z.object({
  ...guildActionBase,
  ruleId: snowflakeSchema,
  enabled: z.boolean(),
});

export const DeleteAutoModerationRuleInputSchema = z.object({ ...guildActionBase, ruleId: snowflakeSchema });

// ── Between the editor's values and Discord's rule ─────────────────────────────────────────────────────────────

/** A new rule of this trigger type, as Discord's client starts one. */
export function newRuleValues(trigger: AutoModerationTriggerType, name: string): AutoModerationRuleFormValues {
  return {
    name,
    trigger_type: trigger,
    enabled: true,
    keyword_filter: [],
    regex_patterns: [],
    allow_list: [],
    presets: trigger === Trigger.KeywordPreset ? [...PRESETS] : [],
    mention_total_limit: 20,
    mention_raid_protection_enabled: trigger === Trigger.MentionSpam,
    block_message: trigger !== Trigger.MemberProfile,
    custom_message: "",
    send_alert: false,
    alert_channel_id: null,
    timeout: false,
    timeout_seconds: 60,
    block_member_interaction: trigger === Trigger.MemberProfile,
    exempt_roles: [],
    exempt_channels: [],
  };
}

/** A rule from the API as the editor's values. */
export function ruleFormValues(rule: APIAutoModerationRule): AutoModerationRuleFormValues {
  const trigger = rule.trigger_type as number as AutoModerationTriggerType;
  const metadata = rule.trigger_metadata ?? {};
  const action = (type: AutoModerationActionType) => rule.actions.find((a) => a.type === (type as number));
  const block = action(Action.BlockMessage);
  const alert = action(Action.SendAlertMessage);
  const timeout = action(Action.Timeout);
  const base = newRuleValues(trigger, rule.name);
  return {
    ...base,
    enabled: rule.enabled,
    keyword_filter: [...(metadata.keyword_filter ?? [])],
    regex_patterns: [...(metadata.regex_patterns ?? [])],
    allow_list: [...(metadata.allow_list ?? [])],
    presets: [...(metadata.presets ?? [])],
    mention_total_limit: metadata.mention_total_limit ?? base.mention_total_limit,
    mention_raid_protection_enabled: metadata.mention_raid_protection_enabled ?? false,
    block_message: Boolean(block),
    custom_message: block?.metadata?.custom_message ?? "",
    send_alert: Boolean(alert),
    alert_channel_id: alert?.metadata?.channel_id ?? null,
    timeout: Boolean(timeout),
    timeout_seconds: timeout?.metadata?.duration_seconds ?? base.timeout_seconds,
    block_member_interaction: Boolean(action(Action.BlockMemberInteraction)),
    exempt_roles: [...rule.exempt_roles],
    exempt_channels: [...rule.exempt_channels],
  };
}

/** The trigger metadata Discord takes for the rule's trigger type (none for spam rules). */
export function triggerMetadata(
  values: AutoModerationRuleFormValues,
): APIAutoModerationRuleTriggerMetadata | undefined {
  const trigger = values.trigger_type as AutoModerationTriggerType;
  if (hasKeywords(trigger))
    return {
      keyword_filter: values.keyword_filter,
      regex_patterns: values.regex_patterns,
      allow_list: values.allow_list,
    };
  if (trigger === Trigger.KeywordPreset) return { presets: values.presets, allow_list: values.allow_list };
  if (trigger === Trigger.MentionSpam)
    return {
      mention_total_limit: values.mention_total_limit,
      mention_raid_protection_enabled: values.mention_raid_protection_enabled,
    };
  return undefined;
}

/** The rule's actions, in Discord's order, only those its trigger type may take. */
export function ruleActions(values: AutoModerationRuleFormValues): APIAutoModerationAction[] {
  const allowed: readonly number[] = ACTIONS_OF_TRIGGER[values.trigger_type as AutoModerationTriggerType] ?? [];
  const actions: APIAutoModerationAction[] = [];
  if (values.block_message && allowed.includes(Action.BlockMessage))
    actions.push(
      values.custom_message
        ? { type: Action.BlockMessage, metadata: { custom_message: values.custom_message } }
        : { type: Action.BlockMessage },
    );
  if (values.send_alert && values.alert_channel_id && allowed.includes(Action.SendAlertMessage))
    actions.push({ type: Action.SendAlertMessage, metadata: { channel_id: values.alert_channel_id } });
  if (values.timeout && allowed.includes(Action.Timeout))
    actions.push({ type: Action.Timeout, metadata: { duration_seconds: values.timeout_seconds } });
  if (values.block_member_interaction && allowed.includes(Action.BlockMemberInteraction))
    actions.push({ type: Action.BlockMemberInteraction });
  return actions;
}

/** Create Auto Moderation Rule's body. */
export function createRuleBody(values: AutoModerationRuleFormValues): RESTPostAPIAutoModerationRuleJSONBody {
  const trigger = values.trigger_type as AutoModerationTriggerType;
  const metadata = triggerMetadata(values);
  return {
    name: values.name,
    event_type: EVENT_TYPE_OF_TRIGGER[trigger],
    trigger_type: trigger,
    ...(metadata ? { trigger_metadata: metadata } : {}),
    actions: ruleActions(values),
    enabled: values.enabled,
    exempt_roles: values.exempt_roles,
    exempt_channels: values.exempt_channels,
  };
}

/** Modify Auto Moderation Rule's body: everything the editor holds but the trigger type, which cannot change. */
export function modifyRuleBody(values: AutoModerationRuleFormValues): RESTPatchAPIAutoModerationRuleJSONBody {
  const { trigger_type: _trigger, ...body } = createRuleBody(values);
  return body;
}

/**
 * An API error's field path as the editor's field: `trigger_metadata.keyword_filter.3` → `keyword_filter.3`, an
 * action's metadata → its field (`actions.1.metadata.channel_id` → `alert_channel_id`), other action errors →
 * `actions`. Anything else keeps its path (an unknown one lands on the form's own message).
 */
export function ruleFieldPath(apiPath: string): string {
  if (apiPath.startsWith("trigger_metadata.")) return apiPath.slice("trigger_metadata.".length);
  const metadata = /^actions\.\d+\.metadata\.(custom_message|channel_id|duration_seconds)(\..*)?$/.exec(apiPath);
  if (metadata)
    return { custom_message: "custom_message", channel_id: "alert_channel_id", duration_seconds: "timeout_seconds" }[
      metadata[1] as "custom_message" | "channel_id" | "duration_seconds"
    ];
  if (apiPath === "actions" || apiPath.startsWith("actions.")) return "actions";
  return apiPath;
}

/**
 * A rule as the audit history keeps it: its name, its switch and the settings its trigger type has, flattened as the
 * editor shows them (an alert is its channel, a timeout its length), so a change reads field by field.
 */
export function ruleSnapshot(rule: APIAutoModerationRule): Record<string, unknown> {
  const values = ruleFormValues(rule);
  const trigger = values.trigger_type as AutoModerationTriggerType;
  const allowed: readonly number[] = ACTIONS_OF_TRIGGER[trigger] ?? [];
  const may = (type: AutoModerationActionType) => allowed.includes(type);
  return {
    id: rule.id,
    name: values.name,
    trigger_type: trigger,
    enabled: values.enabled,
    ...(hasKeywords(trigger)
      ? {
          keyword_filter: values.keyword_filter,
          regex_patterns: values.regex_patterns,
          allow_list: values.allow_list,
        }
      : {}),
    ...(trigger === Trigger.KeywordPreset ? { presets: values.presets, allow_list: values.allow_list } : {}),
    ...(trigger === Trigger.MentionSpam
      ? {
          mention_total_limit: values.mention_total_limit,
          mention_raid_protection_enabled: values.mention_raid_protection_enabled,
        }
      : {}),
    ...(may(Action.BlockMessage)
      ? { block_message: values.block_message, custom_message: values.block_message ? values.custom_message : null }
      : {}),
    ...(may(Action.SendAlertMessage) ? { alert_channel_id: values.send_alert ? values.alert_channel_id : null } : {}),
    ...(may(Action.Timeout) ? { timeout_seconds: values.timeout ? values.timeout_seconds : null } : {}),
    ...(may(Action.BlockMemberInteraction) ? { block_member_interaction: values.block_member_interaction } : {}),
    exempt_roles: values.exempt_roles,
    exempt_channels: values.exempt_channels,
  };
}
