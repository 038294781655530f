// A rule in one line, as the AutoMod page lists it: what sets it off, what it does, who is exempt.
import type { APIAutoModerationRule } from "discord-api-types/v10";
import { PRESET_OPTIONS, TIMEOUT_OPTIONS } from "@/lib/dashboard/actions/schemas/auto-moderation";
import {
  AutoModerationActionType as Action,
  AutoModerationTriggerType as Trigger,
  type AutoModerationTriggerType,
} from "@/lib/discord/automod/rules";

const count = (n: number, one: string, many = `${one}s`, locale?: string) =>
  `${new Intl.NumberFormat(locale).format(n)} ${n === 1 ? one : many}`;

export function timeoutLabel(seconds: number): string {
  const option = TIMEOUT_OPTIONS.find((o) => o.seconds === seconds);
  if (option) return option.label;
  if (seconds % 86_400 === 0) return count(seconds / 86_400, "day");
  if (seconds % 3_600 === 0) return count(seconds / 3_600, "hour");
  if (seconds % 60 === 0) return count(seconds / 60, "minute");
  return count(seconds, "second");
}

/** What sets the rule off. */
export function triggerSummary(rule: APIAutoModerationRule, locale?: string): string {
  const metadata = rule.trigger_metadata ?? {};
  const trigger = rule.trigger_type as number as AutoModerationTriggerType;
  const parts: string[] = [];
  if (trigger === Trigger.Keyword || trigger === Trigger.MemberProfile) {
    parts.push(count(metadata.keyword_filter?.length ?? 0, "keyword", "keywords", locale));
    if (metadata.regex_patterns?.length)
      parts.push(count(metadata.regex_patterns.length, "regex pattern", "regex patterns", locale));
  } else if (trigger === Trigger.KeywordPreset) {
    const lists = PRESET_OPTIONS.filter((o) => metadata.presets?.includes(o.preset as number)).map((o) => o.label);
    parts.push(lists.length ? lists.join(", ") : "No word lists");
  } else if (trigger === Trigger.MentionSpam) {
    parts.push(`More than ${count(metadata.mention_total_limit ?? 0, "mention", "mentions", locale)}`);
    if (metadata.mention_raid_protection_enabled) parts.push("mention raid protection");
  } else if (trigger === Trigger.Spam) {
    parts.push("Messages that look like spam");
  }
  if (metadata.allow_list?.length)
    parts.push(count(metadata.allow_list.length, "allowed word", "allowed words", locale));
  return parts.join(", ");
}

/** What the rule does, naming the alert channel when the page knows it. */
export function actionSummary(rule: APIAutoModerationRule, channelName: (id: string) => string | undefined): string {
  const parts = rule.actions.map((action) => {
    switch (action.type as number) {
      case Action.BlockMessage:
        return "Block message";
      case Action.SendAlertMessage: {
        const id = action.metadata?.channel_id;
        return `Send an alert${id ? ` to ${channelName(id) ?? "a channel"}` : ""}`;
      }
      case Action.Timeout:
        return `Timeout ${timeoutLabel(action.metadata?.duration_seconds ?? 0)}`;
      case Action.BlockMemberInteraction:
        return "Block member interactions";
      default:
        return `Response ${action.type}`;
    }
  });
  return parts.length ? parts.join(" · ") : "No responses";
}

/** Who the rule skips. */
export function exemptSummary(rule: APIAutoModerationRule, locale?: string): string | null {
  const parts = [
    rule.exempt_roles.length ? count(rule.exempt_roles.length, "role", "roles", locale) : null,
    rule.exempt_channels.length ? count(rule.exempt_channels.length, "channel", "channels", locale) : null,
  ].filter(Boolean);
  return parts.length ? `Exempt: ${parts.join(", ")}` : null;
}
