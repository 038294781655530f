// The AutoMod page's "Try it": a sample message (or a member's name) run through the guild's enabled rules with the
// matcher of lib/discord/automod, in the browser (the matcher is pure; the rules are the API's). Every rule that
// would act is named with what matched. Spam rules cannot be tried: Discord judges spam from more than one message.
// Exempt roles and channels are not applied: a sample has no author and no channel.
import type { APIAutoModerationRule } from "discord-api-types/v10";
import {
  compileKeywordTrigger,
  compilePresetTrigger,
  matchMentionSpam,
  type TriggerMatch,
} from "@/lib/discord/automod/matcher";
import { AutoModerationTriggerType as Trigger, type AutoModerationTriggerType } from "@/lib/discord/automod/rules";

/** What is tried: a message (message rules) or a member's name (member-profile rules). */
export type TrialSubject = "message" | "name";

export interface TrialHit {
  ruleId: string;
  ruleName: string;
  trigger: AutoModerationTriggerType;
  match: TriggerMatch;
}

type Matcher = (content: string) => TriggerMatch | null;

export interface CompiledRule {
  rule: APIAutoModerationRule;
  subject: TrialSubject;
  match: Matcher;
}

/** The rules a trial runs: enabled ones the matcher can judge, each compiled once. */
export function compileRules(rules: readonly APIAutoModerationRule[]): CompiledRule[] {
  const compiled: CompiledRule[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    try {
      const one = compileRule(rule);
      if (one) compiled.push(one);
    } catch {
      // A pattern the engine refuses (the API would not have saved it): that rule is not tried.
    }
  }
  return compiled;
}

/** One enabled rule as the trial runs it; null for a kind it cannot try (spam). Throws on a refused pattern. */
function compileRule(rule: APIAutoModerationRule): CompiledRule | null {
  const metadata = rule.trigger_metadata ?? {};
  const trigger = rule.trigger_type as number as AutoModerationTriggerType;
  if (trigger === Trigger.Keyword || trigger === Trigger.MemberProfile) {
    const keywords = compileKeywordTrigger({
      keyword_filter: metadata.keyword_filter ?? [],
      regex_patterns: metadata.regex_patterns ?? [],
      allow_list: metadata.allow_list ?? [],
    });
    return {
      rule,
      subject: trigger === Trigger.MemberProfile ? "name" : "message",
      match: (content) => keywords.match(content),
    };
  }
  if (trigger === Trigger.KeywordPreset) {
    const presets = compilePresetTrigger(metadata.presets ?? [], metadata.allow_list ?? []);
    return { rule, subject: "message", match: (content) => presets.match(content) };
  }
  if (trigger === Trigger.MentionSpam) {
    const limit = metadata.mention_total_limit ?? 0;
    return { rule, subject: "message", match: (content) => matchMentionSpam(content, limit) };
  }
  return null;
}

/** Every enabled rule of the subject's kind that the sample sets off, in the rules' order. */
export function tryRules(rules: readonly CompiledRule[], subject: TrialSubject, content: string): TrialHit[] {
  if (content.trim() === "") return [];
  const hits: TrialHit[] = [];
  for (const { rule, subject: kind, match } of rules) {
    if (kind !== subject) continue;
    const found = match(content);
    if (found)
      hits.push({
        ruleId: rule.id,
        ruleName: rule.name,
        trigger: rule.trigger_type as number as AutoModerationTriggerType,
        match: found,
      });
  }
  return hits;
}

/** The sample cut around the match, for highlighting: before, the matched text, after. */
export function splitAtMatch(
  content: string,
  match: Pick<TriggerMatch, "index" | "matched">,
): [string, string, string] {
  const start = Math.max(0, Math.min(match.index, content.length));
  const end = Math.min(content.length, start + match.matched.length);
  return [content.slice(0, start), content.slice(start, end), content.slice(end)];
}
