// AutoMod's vocabulary as Discord defines it: trigger, event, action and preset types, and the limits Discord caps a
// rule with. Shared by the built-in API (validation), the dashboard's editor (limits shown as you type) and the
// matcher. Sources: Discord's Auto Moderation documentation and its OpenAPI description (the *UpsertRequest schemas).
import type { APIAutoModerationRule } from "discord-api-types/v10";

export const AutoModerationTriggerType = {
  Keyword: 1,
  Spam: 3,
  KeywordPreset: 4,
  MentionSpam: 5,
  MemberProfile: 6,
} as const;
export type AutoModerationTriggerType = (typeof AutoModerationTriggerType)[keyof typeof AutoModerationTriggerType];

export const AutoModerationEventType = { MessageSend: 1, MemberUpdate: 2 } as const;
export type AutoModerationEventType = (typeof AutoModerationEventType)[keyof typeof AutoModerationEventType];

export const AutoModerationActionType = {
  BlockMessage: 1,
  SendAlertMessage: 2,
  Timeout: 3,
  BlockMemberInteraction: 4,
} as const;
export type AutoModerationActionType = (typeof AutoModerationActionType)[keyof typeof AutoModerationActionType];

export const KeywordPresetType = { Profanity: 1, SexualContent: 2, Slurs: 3 } as const;
export type KeywordPresetType = (typeof KeywordPresetType)[keyof typeof KeywordPresetType];

export const AUTOMOD_LIMITS = {
  ruleName: 100,
  /** Keywords of a keyword or member-profile rule, and each one's length. */
  keywordFilter: 1_000,
  keywordLength: 60,
  regexPatterns: 10,
  regexLength: 260,
  /** allow_list: 100 entries on keyword and member-profile rules, 1,000 on a keyword-preset rule. */
  allowList: 100,
  allowListPreset: 1_000,
  allowListLength: 60,
  mentionTotalLimit: 50,
  exemptRoles: 20,
  exemptChannels: 50,
  actions: 5,
  customMessage: 150,
  /** A timeout action's longest duration: 4 weeks. */
  timeoutSeconds: 2_419_200,
} as const;

/** How many rules of each trigger type a guild may have. */
export const RULES_PER_TRIGGER_TYPE: Readonly<Record<AutoModerationTriggerType, number>> = {
  [AutoModerationTriggerType.Keyword]: 6,
  [AutoModerationTriggerType.Spam]: 1,
  [AutoModerationTriggerType.KeywordPreset]: 1,
  [AutoModerationTriggerType.MentionSpam]: 1,
  [AutoModerationTriggerType.MemberProfile]: 1,
};

/** The event each trigger type listens to. */
export const EVENT_TYPE_OF_TRIGGER: Readonly<Record<AutoModerationTriggerType, AutoModerationEventType>> = {
  [AutoModerationTriggerType.Keyword]: AutoModerationEventType.MessageSend,
  [AutoModerationTriggerType.Spam]: AutoModerationEventType.MessageSend,
  [AutoModerationTriggerType.KeywordPreset]: AutoModerationEventType.MessageSend,
  [AutoModerationTriggerType.MentionSpam]: AutoModerationEventType.MessageSend,
  [AutoModerationTriggerType.MemberProfile]: AutoModerationEventType.MemberUpdate,
};

/** The actions each trigger type may take (timeouts on keyword and mention-spam rules only, as Discord allows). */
export const ACTIONS_OF_TRIGGER: Readonly<Record<AutoModerationTriggerType, readonly AutoModerationActionType[]>> = {
  [AutoModerationTriggerType.Keyword]: [
    AutoModerationActionType.BlockMessage,
    AutoModerationActionType.SendAlertMessage,
    AutoModerationActionType.Timeout,
  ],
  [AutoModerationTriggerType.Spam]: [AutoModerationActionType.BlockMessage, AutoModerationActionType.SendAlertMessage],
  [AutoModerationTriggerType.KeywordPreset]: [
    AutoModerationActionType.BlockMessage,
    AutoModerationActionType.SendAlertMessage,
  ],
  [AutoModerationTriggerType.MentionSpam]: [
    AutoModerationActionType.BlockMessage,
    AutoModerationActionType.SendAlertMessage,
    AutoModerationActionType.Timeout,
  ],
  [AutoModerationTriggerType.MemberProfile]: [
    AutoModerationActionType.SendAlertMessage,
    AutoModerationActionType.BlockMemberInteraction,
  ],
};

/** The wire shape of a rule (discord-api-types' `APIAutoModerationRule`). */
export type AutoModerationRule = APIAutoModerationRule;

/** A rule's trigger metadata with every list present (what the matcher reads). */
export interface KeywordTrigger {
  keyword_filter: readonly string[];
  regex_patterns: readonly string[];
  allow_list: readonly string[];
}
