// The AutoMod editor's schema (the form's resolver and the server actions' validation, one schema): Discord's limits
// from AUTOMOD_LIMITS, regex patterns judged by the matcher's engine, the actions each kind of rule may take; the
// translation between the editor's values and Discord's rule; API error paths put back on the editor's fields; the
// history's snapshot; and "Try it" over a guild's rules.
import { describe, expect, test } from "vitest";
import type { APIAutoModerationRule } from "discord-api-types/v10";
import {
  AutoModerationRuleFormSchema,
  CreateAutoModerationRuleInputSchema,
  DeleteAutoModerationRuleInputSchema,
  ModifyAutoModerationRuleInputSchema,
  SetAutoModerationRuleEnabledInputSchema,
  createRuleBody,
  modifyRuleBody,
  newRuleValues,
  ruleFieldPath,
  ruleFormValues,
  ruleSnapshot,
  type AutoModerationRuleFormValues,
} from "@/lib/dashboard/actions/schemas/auto-moderation";
import { AUTOMOD_LIMITS, AutoModerationTriggerType as Trigger } from "@/lib/discord/automod/rules";
import { checkRegexPattern } from "@/lib/discord/automod/matcher";
import { compileRules, splitAtMatch, tryRules } from "@/lib/dashboard/auto-moderation-trial";

const GUILD = "1058897343283335200";
const CHANNEL = "1058897343283335201";
const ROLE = "1058897343283335202";
const RULE = "1058897343283335203";

const keywordRule = (changes: Partial<AutoModerationRuleFormValues> = {}): AutoModerationRuleFormValues => ({
  ...newRuleValues(Trigger.Keyword, "Custom words 1"),
  keyword_filter: ["bad", "worse*"],
  ...changes,
});

/** The issues the schema raises, as "path: message". */
function issues(values: unknown): string[] {
  const parsed = AutoModerationRuleFormSchema.safeParse(values);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

const many = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i));
const ids = (n: number) => many(n, (i) => String(1058897343283335300n + BigInt(i)));

describe("the editor's schema holds Discord's limits", () => {
  test("a keyword rule with a keyword and a response is valid", () => {
    expect(issues(keywordRule())).toEqual([]);
  });

  test("keywords: 1,000 at most, each 60 characters at most (counted in characters), flagged by position", () => {
    expect(issues(keywordRule({ keyword_filter: many(AUTOMOD_LIMITS.keywordFilter, (i) => `w${i}`) }))).toEqual([]);
    expect(issues(keywordRule({ keyword_filter: many(AUTOMOD_LIMITS.keywordFilter + 1, (i) => `w${i}`) }))).toEqual([
      "keyword_filter: At most 1,000 keywords.",
    ]);
    expect(issues(keywordRule({ keyword_filter: ["ok", "x".repeat(61), "é".repeat(60), "🙂".repeat(60)] }))).toEqual([
      "keyword_filter.1: At most 60 characters.",
    ]);
  });

  test("a keyword or member-profile rule needs a keyword or a regex pattern", () => {
    expect(issues(keywordRule({ keyword_filter: [] }))).toEqual([
      "keyword_filter: Add at least one keyword or regex pattern.",
    ]);
    expect(issues(keywordRule({ keyword_filter: [], regex_patterns: ["b[a4]d"] }))).toEqual([]);
  });

  test("regex patterns: 10 at most, 260 characters each, and the matcher's engine must accept each, with its message", () => {
    expect(issues(keywordRule({ regex_patterns: many(10, (i) => `a${i}+`) }))).toEqual([]);
    expect(issues(keywordRule({ regex_patterns: many(11, (i) => `a${i}+`) }))).toEqual([
      "regex_patterns: At most 10 regex patterns.",
    ]);
    expect(issues(keywordRule({ regex_patterns: ["a".repeat(261)] }))).toEqual([
      "regex_patterns.0: At most 260 characters.",
    ]);
    const broken = "(unclosed";
    const verdict = checkRegexPattern(broken);
    expect(verdict.ok).toBe(false);
    expect(issues(keywordRule({ regex_patterns: ["fine", broken] }))).toEqual([
      `regex_patterns.1: ${verdict.ok ? "" : verdict.message}`,
    ]);
  });

  test("allowed words: 100 on keyword rules, 1,000 on the commonly-flagged-words rule", () => {
    const allow = (n: number) => many(n, (i) => `ok${i}`);
    expect(issues(keywordRule({ allow_list: allow(100) }))).toEqual([]);
    expect(issues(keywordRule({ allow_list: allow(101) }))).toEqual([
      "allow_list: At most 100 allowed words for this kind of rule.",
    ]);
    const preset = newRuleValues(Trigger.KeywordPreset, "Block commonly flagged words");
    expect(issues({ ...preset, allow_list: allow(1_000) })).toEqual([]);
    expect(issues({ ...preset, allow_list: allow(1_001) })).toEqual(["allow_list: At most 1,000 allowed words."]);
    expect(issues({ ...preset, presets: [] })).toEqual(["presets: Pick at least one list of words."]);
    expect(issues({ ...preset, presets: [1, 1] })).toEqual(["presets: A word list is picked twice."]);
    expect(issues({ ...preset, presets: [9] })).toEqual(["presets: Not one of Discord's word lists."]);
  });

  test("mention spam: a limit from 0 to 50", () => {
    const mention = newRuleValues(Trigger.MentionSpam, "Block mention spam");
    expect(issues(mention)).toEqual([]);
    expect(issues({ ...mention, mention_total_limit: 51 })).toEqual(["mention_total_limit: At most 50 mentions."]);
    expect(issues({ ...mention, mention_total_limit: 0 })).toEqual([]);
    expect(issues({ ...mention, mention_total_limit: -1 })).toEqual(["mention_total_limit: At least 0 mentions."]);
  });

  test("responses: at least one, only those the kind of rule takes, a channel for alerts, Discord's lengths", () => {
    expect(issues(keywordRule({ block_message: false }))).toEqual(["actions: Choose at least one response."]);
    expect(issues(keywordRule({ custom_message: "x".repeat(150) }))).toEqual([]);
    expect(issues(keywordRule({ custom_message: "x".repeat(151) }))).toEqual([
      "custom_message: At most 150 characters.",
    ]);
    expect(issues(keywordRule({ send_alert: true }))).toEqual(["alert_channel_id: Pick the channel for alerts."]);
    expect(issues(keywordRule({ send_alert: true, alert_channel_id: CHANNEL }))).toEqual([]);
    // Timeouts: keyword and mention-spam rules only, at most 4 weeks.
    expect(issues(keywordRule({ timeout: true, timeout_seconds: AUTOMOD_LIMITS.timeoutSeconds }))).toEqual([]);
    expect(issues(keywordRule({ timeout: true, timeout_seconds: AUTOMOD_LIMITS.timeoutSeconds + 1 }))).toEqual([
      "timeout_seconds: At most 4 weeks.",
    ]);
    const spam = newRuleValues(Trigger.Spam, "Block spam content");
    expect(issues({ ...spam, timeout: true })).toEqual(["timeout: This kind of rule can't take this action."]);
    const profile = { ...newRuleValues(Trigger.MemberProfile, "Names"), keyword_filter: ["admin"] };
    expect(issues(profile)).toEqual([]);
    expect(issues({ ...profile, block_message: true })).toEqual([
      "block_message: This kind of rule can't take this action.",
    ]);
    expect(issues({ ...keywordRule(), block_member_interaction: true })).toEqual([
      "block_member_interaction: This kind of rule can't take this action.",
    ]);
  });

  test("exempt roles (20) and channels (50), none twice", () => {
    expect(issues(keywordRule({ exempt_roles: ids(20), exempt_channels: ids(50) }))).toEqual([]);
    expect(issues(keywordRule({ exempt_roles: ids(21) }))).toEqual(["exempt_roles: At most 20 roles."]);
    expect(issues(keywordRule({ exempt_channels: ids(51) }))).toEqual(["exempt_channels: At most 50 channels."]);
    expect(issues(keywordRule({ exempt_roles: [ROLE, ROLE] }))).toEqual(["exempt_roles: A role is listed twice."]);
  });

  test("a name of 1 to 100 characters, and only AutoMod's kinds of rule", () => {
    expect(issues(keywordRule({ name: "  " }))).toEqual(["name: Give the rule a name."]);
    expect(issues(keywordRule({ name: "n".repeat(101) }))).toEqual(["name: At most 100 characters."]);
    expect(issues({ ...keywordRule(), trigger_type: 2 })).toEqual(["trigger_type: Not a kind of rule AutoMod has."]);
  });

  test("the actions' inputs name their guild, and a rule by id", () => {
    expect(CreateAutoModerationRuleInputSchema.safeParse({ ...keywordRule(), guildId: GUILD }).success).toBe(true);
    expect(CreateAutoModerationRuleInputSchema.safeParse(keywordRule()).success).toBe(false);
    expect(
      ModifyAutoModerationRuleInputSchema.safeParse({ ...keywordRule(), guildId: GUILD, ruleId: RULE }).success,
    ).toBe(true);
    // The refinements hold for the actions too: the server refuses what the form would.
    expect(
      ModifyAutoModerationRuleInputSchema.safeParse({
        ...keywordRule({ block_message: false }),
        guildId: GUILD,
        ruleId: RULE,
      }).success,
    ).toBe(false);
    expect(
      SetAutoModerationRuleEnabledInputSchema.safeParse({ guildId: GUILD, ruleId: RULE, enabled: false }).success,
    ).toBe(true);
    expect(DeleteAutoModerationRuleInputSchema.safeParse({ guildId: GUILD, ruleId: "x" }).success).toBe(false);
  });
});

describe("between the editor's values and Discord's rule", () => {
  test("a keyword rule: its event, trigger metadata and actions in Discord's shape", () => {
    const values = keywordRule({
      regex_patterns: ["b[a4]d"],
      allow_list: ["badge"],
      custom_message: "Keep it friendly",
      send_alert: true,
      alert_channel_id: CHANNEL,
      timeout: true,
      timeout_seconds: 600,
      exempt_roles: [ROLE],
    });
    expect(createRuleBody(values)).toEqual({
      name: "Custom words 1",
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ["bad", "worse*"], regex_patterns: ["b[a4]d"], allow_list: ["badge"] },
      actions: [
        { type: 1, metadata: { custom_message: "Keep it friendly" } },
        { type: 2, metadata: { channel_id: CHANNEL } },
        { type: 3, metadata: { duration_seconds: 600 } },
      ],
      enabled: true,
      exempt_roles: [ROLE],
      exempt_channels: [],
    });
    // Modify Auto Moderation Rule cannot change the trigger type: it is not sent.
    expect(modifyRuleBody(values)).not.toHaveProperty("trigger_type");
    expect(modifyRuleBody(values).trigger_metadata).toEqual(createRuleBody(values).trigger_metadata);
  });

  test("each kind sends only its own metadata and actions; spam rules none, member-profile rules listen to member updates", () => {
    expect(createRuleBody(newRuleValues(Trigger.Spam, "Spam"))).toMatchObject({
      event_type: 1,
      actions: [{ type: 1 }],
    });
    expect(createRuleBody(newRuleValues(Trigger.Spam, "Spam"))).not.toHaveProperty("trigger_metadata");
    expect(createRuleBody(newRuleValues(Trigger.MentionSpam, "Mentions")).trigger_metadata).toEqual({
      mention_total_limit: 20,
      mention_raid_protection_enabled: true,
    });
    expect(createRuleBody(newRuleValues(Trigger.KeywordPreset, "Lists")).trigger_metadata).toEqual({
      presets: [3, 2, 1],
      allow_list: [],
    });
    const profile = createRuleBody({ ...newRuleValues(Trigger.MemberProfile, "Names"), keyword_filter: ["admin"] });
    expect(profile).toMatchObject({ event_type: 2, trigger_type: 6, actions: [{ type: 4 }] });
  });

  test("a rule from the API comes back into the editor as it was sent", () => {
    const values = keywordRule({ send_alert: true, alert_channel_id: CHANNEL, exempt_channels: [CHANNEL] });
    const rule: APIAutoModerationRule = {
      id: RULE,
      guild_id: GUILD,
      creator_id: ROLE,
      ...(createRuleBody(values) as Omit<APIAutoModerationRule, "id" | "guild_id" | "creator_id">),
      trigger_metadata: createRuleBody(values).trigger_metadata!,
      enabled: true,
      exempt_roles: [],
      exempt_channels: [CHANNEL],
    };
    expect(ruleFormValues(rule)).toEqual(values);
    expect(ruleSnapshot(rule)).toEqual({
      id: RULE,
      name: "Custom words 1",
      trigger_type: 1,
      enabled: true,
      keyword_filter: ["bad", "worse*"],
      regex_patterns: [],
      allow_list: [],
      block_message: true,
      custom_message: "",
      alert_channel_id: CHANNEL,
      timeout_seconds: null,
      exempt_roles: [],
      exempt_channels: [CHANNEL],
    });
  });

  test("API error paths land on the editor's fields", () => {
    expect(ruleFieldPath("trigger_metadata.regex_patterns.0")).toBe("regex_patterns.0");
    expect(ruleFieldPath("trigger_metadata.keyword_filter")).toBe("keyword_filter");
    expect(ruleFieldPath("actions.0.metadata.custom_message")).toBe("custom_message");
    expect(ruleFieldPath("actions.1.metadata.channel_id")).toBe("alert_channel_id");
    expect(ruleFieldPath("actions.2.metadata.duration_seconds")).toBe("timeout_seconds");
    expect(ruleFieldPath("actions.2.type")).toBe("actions");
    expect(ruleFieldPath("exempt_roles.3")).toBe("exempt_roles.3");
    // Too many rules of a type: Discord's top-level _errors (the form's own message).
    expect(ruleFieldPath("")).toBe("");
  });
});

describe("Try it", () => {
  const rule = (id: string, trigger: number, metadata: APIAutoModerationRule["trigger_metadata"], enabled = true) =>
    ({
      id,
      guild_id: GUILD,
      name: `Rule ${id}`,
      creator_id: ROLE,
      event_type: trigger === Trigger.MemberProfile ? 2 : 1,
      trigger_type: trigger,
      trigger_metadata: metadata,
      actions: [{ type: 1 }],
      enabled,
      exempt_roles: [],
      exempt_channels: [],
    }) as APIAutoModerationRule;
  const rules = compileRules([
    rule("1", Trigger.Keyword, { keyword_filter: ["bad"], regex_patterns: [], allow_list: [] }),
    rule("2", Trigger.Keyword, { keyword_filter: ["worse"], regex_patterns: [], allow_list: [] }, false),
    rule("3", Trigger.MemberProfile, { keyword_filter: ["admin"], regex_patterns: [], allow_list: [] }),
    rule("4", Trigger.Spam, {}),
  ]);

  test("only enabled rules the matcher can judge are tried; spam rules are not", () => {
    expect(rules.map((r) => [r.rule.id, r.subject])).toEqual([
      ["1", "message"],
      ["3", "name"],
    ]);
  });

  test("a message is tried against message rules, a name against member-profile rules", () => {
    const hits = tryRules(rules, "message", "that is bad, and worse");
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ ruleId: "1", ruleName: "Rule 1", match: { kind: "keyword", pattern: "bad" } });
    expect(splitAtMatch("that is bad, and worse", hits[0].match)).toEqual(["that is ", "bad", ", and worse"]);
    expect(tryRules(rules, "message", "nothing here")).toEqual([]);
    expect(tryRules(rules, "message", "admin")).toEqual([]);
    expect(tryRules(rules, "name", "admin")).toMatchObject([{ ruleId: "3" }]);
    expect(tryRules(rules, "name", "   ")).toEqual([]);
  });
});
