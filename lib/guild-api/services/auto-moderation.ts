// AutoMod rules: List, Get, Create, Modify and Delete Auto Moderation Rule. Manage Server for all of them (a timeout
// action also needs Timeout Members, as Discord asks); a rule's metadata is kept as its trigger type's shape (Discord
// answers only the fields that type has); rules are capped per trigger type inside the write transaction. Each change
// writes its AUTO_MODERATION_RULE_* dispatch and its audit-log entry in the same transaction. A member-profile rule's
// change re-judges the members it may have blocked (services/member-profile-rules.ts).
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { APIAutoModerationAction, APIAutoModerationRule } from "discord-api-types/v10";
import { checkRegexPattern } from "@/lib/discord/automod/matcher";
import {
  ACTIONS_OF_TRIGGER,
  AUTOMOD_LIMITS,
  AutoModerationActionType as Action,
  AutoModerationTriggerType as Trigger,
  EVENT_TYPE_OF_TRIGGER,
  RULES_PER_TRIGGER_TYPE,
  type AutoModerationTriggerType,
} from "@/lib/discord/automod/rules";
import { newSnowflake } from "@/lib/discord/snowflake";
import { AuditLogEvent, auditByCaller, diffChanges } from "../audit-log";
import { ApiError, Errors, FieldErrorCode, invalidFormBody, type FieldIssue } from "../errors";
import { emitEvent } from "../events";
import type { GuildAccess } from "../guards";
import type {
  ActionBody,
  CreateAutoModerationRuleBody,
  ModifyAutoModerationRuleBody,
  TriggerMetadataBody,
} from "../schemas/auto-moderation";
import { serializeAutoModerationRule } from "../serializers/auto-moderation";
import {
  countRulesOfTriggerType,
  deleteAutoModerationRule as deleteRuleRow,
  findAutoModerationRule,
  insertAutoModerationRule,
  listGuildAutoModerationRules,
  updateAutoModerationRule,
  type AutoModerationRuleRow,
} from "../store/auto-moderation-rules";
import { listGuildChannels } from "../store/channels";
import { transaction } from "../store/db";
import { rejudgeMemberProfiles } from "./member-profile-rules";

// Discord documents no JSON code for a rule that does not exist; it answers 404 with this message.
const unknownRule = () => new ApiError(404, 0, "Unknown Auto Moderation Rule");
const { AUTOMOD_ACTION_INVALID, AUTOMOD_EVENT_TYPE_INVALID, AUTOMOD_INVALID_REGEX, CHANNEL_INVALID, ROLE_INVALID } =
  FieldErrorCode;

/** Channels an alert can be posted in: text and announcement channels. */
const ALERT_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];

type TriggerMetadata = APIAutoModerationRule["trigger_metadata"];

export async function listAutoModerationRules(access: GuildAccess): Promise<APIAutoModerationRule[]> {
  access.authorize("List Auto Moderation Rules");
  return (await listGuildAutoModerationRules(access.guildId)).map(serializeAutoModerationRule);
}

export async function getAutoModerationRule(access: GuildAccess, ruleId: bigint): Promise<APIAutoModerationRule> {
  access.authorize("Get Auto Moderation Rule");
  const row = await findAutoModerationRule(access.guildId, ruleId);
  if (!row) throw unknownRule();
  return serializeAutoModerationRule(row);
}

/**
 * The metadata a rule of `triggerType` keeps: its type's fields, from the body where sent and `current` otherwise
 * (fields of other types are ignored, as Discord ignores them). Regex patterns must compile on the linear-time engine;
 * keyword and member-profile rules take an allow list of 100, keyword-preset rules 1,000.
 */
function triggerMetadataFor(
  triggerType: AutoModerationTriggerType,
  body: TriggerMetadataBody | null | undefined,
  current: Record<string, unknown>,
  issues: FieldIssue[],
): TriggerMetadata {
  const pick = <K extends keyof TriggerMetadataBody>(key: K, fallback: NonNullable<TriggerMetadataBody[K]>) =>
    (body?.[key] ?? current[key] ?? fallback) as NonNullable<TriggerMetadataBody[K]>;
  switch (triggerType) {
    case Trigger.Keyword:
    case Trigger.MemberProfile: {
      const allowList = pick("allow_list", []);
      if (allowList.length > AUTOMOD_LIMITS.allowList)
        issues.push({
          path: ["trigger_metadata", "allow_list"],
          code: "BASE_TYPE_MAX_LENGTH",
          message: `Must be ${AUTOMOD_LIMITS.allowList} or fewer in length.`,
        });
      const regexPatterns = pick("regex_patterns", []);
      regexPatterns.forEach((pattern, index) => {
        const check = checkRegexPattern(pattern);
        if (!check.ok)
          issues.push({
            path: ["trigger_metadata", "regex_patterns", index],
            code: AUTOMOD_INVALID_REGEX,
            message: `Invalid regex: ${check.message}`,
          });
      });
      return { keyword_filter: pick("keyword_filter", []), regex_patterns: regexPatterns, allow_list: allowList };
    }
    case Trigger.KeywordPreset: {
      const presets = [...new Set(pick("presets", []))];
      return { presets, allow_list: pick("allow_list", []) };
    }
    case Trigger.MentionSpam: {
      const limit = body?.mention_total_limit ?? (current.mention_total_limit as number | undefined);
      if (limit === undefined)
        issues.push({
          path: ["trigger_metadata", "mention_total_limit"],
          code: "BASE_TYPE_REQUIRED",
          message: "This field is required",
        });
      return {
        mention_total_limit: limit ?? 0,
        mention_raid_protection_enabled: pick("mention_raid_protection_enabled", false),
      };
    }
    case Trigger.Spam:
      return {};
  }
}

/** The actions as Discord answers them, each allowed for the trigger type and complete. */
function actionsFor(
  access: GuildAccess,
  triggerType: AutoModerationTriggerType,
  actions: readonly ActionBody[],
  channels: ReadonlyMap<string, number>,
  issues: FieldIssue[],
): APIAutoModerationAction[] {
  const allowed: readonly number[] = ACTIONS_OF_TRIGGER[triggerType];
  return actions.map((action, index) => {
    const at = (...path: string[]) => ["actions", index, ...path];
    if (!allowed.includes(action.type))
      issues.push({
        path: at("type"),
        code: AUTOMOD_ACTION_INVALID,
        message: `Action type ${action.type} is not allowed for trigger type ${triggerType}.`,
      });
    const metadata = action.metadata ?? {};
    switch (action.type) {
      case Action.BlockMessage:
        return {
          type: action.type,
          metadata: metadata.custom_message ? { custom_message: metadata.custom_message } : {},
        };
      case Action.SendAlertMessage: {
        const channelId = metadata.channel_id;
        if (channelId === undefined)
          issues.push({
            path: at("metadata", "channel_id"),
            code: "BASE_TYPE_REQUIRED",
            message: "This field is required",
          });
        else if (!ALERT_CHANNEL_TYPES.includes(channels.get(channelId) ?? -1))
          issues.push({
            path: at("metadata", "channel_id"),
            code: CHANNEL_INVALID,
            message: "Must be a text or announcement channel of this server.",
          });
        return { type: action.type, metadata: { channel_id: channelId ?? "" } };
      }
      case Action.Timeout: {
        // "The MODERATE_MEMBERS permission is required to use the TIMEOUT action type."
        if (!access.isOwner && !access.has(P.ModerateMembers)) throw Errors.missingPermissions();
        if (metadata.duration_seconds == null)
          issues.push({
            path: at("metadata", "duration_seconds"),
            code: "BASE_TYPE_REQUIRED",
            message: "This field is required",
          });
        return { type: action.type, metadata: { duration_seconds: metadata.duration_seconds ?? 0 } };
      }
      default:
        return { type: action.type, metadata: {} } as APIAutoModerationAction;
    }
  });
}

interface RuleFields {
  name: string;
  event_type: number;
  trigger_metadata: TriggerMetadata;
  actions: APIAutoModerationAction[];
  enabled: boolean;
  exempt_roles: string[];
  exempt_channels: string[];
}

/** The rule after the request, every field error collected: 400 with all of them, or the fields to store. */
async function ruleFieldsAfter(
  access: GuildAccess,
  triggerType: AutoModerationTriggerType,
  current: RuleFields,
  body: ModifyAutoModerationRuleBody,
): Promise<RuleFields> {
  const issues: FieldIssue[] = [];
  const eventType = body.event_type ?? current.event_type;
  if (eventType !== EVENT_TYPE_OF_TRIGGER[triggerType])
    issues.push({
      path: ["event_type"],
      code: AUTOMOD_EVENT_TYPE_INVALID,
      message: `Trigger type ${triggerType} runs on event type ${EVENT_TYPE_OF_TRIGGER[triggerType]}.`,
    });
  const channels = new Map((await listGuildChannels(access.guildId)).map((c) => [String(c.id), Number(c.type)]));
  const triggerMetadata = triggerMetadataFor(
    triggerType,
    body.trigger_metadata,
    current.trigger_metadata as Record<string, unknown>,
    issues,
  );
  const actions = body.actions ? actionsFor(access, triggerType, body.actions, channels, issues) : current.actions;
  // Ids sent must be the server's; a kept one whose role or channel was deleted since is dropped quietly, so the rule
  // stays editable (deleting a role or channel does not touch the rules that name it).
  const isRole = (id: string) => access.role(id) !== undefined && id !== String(access.guildId);
  body.exempt_roles?.forEach((id, index) => {
    if (!isRole(id))
      issues.push({
        path: ["exempt_roles", index],
        code: ROLE_INVALID,
        message: `Role ${id} is not a role of this server.`,
      });
  });
  body.exempt_channels?.forEach((id, index) => {
    if (!channels.has(id))
      issues.push({
        path: ["exempt_channels", index],
        code: CHANNEL_INVALID,
        message: `Channel ${id} is not a channel of this server.`,
      });
  });
  const exemptRoles = body.exempt_roles ?? current.exempt_roles.filter(isRole);
  const exemptChannels = body.exempt_channels ?? current.exempt_channels.filter((id) => channels.has(id));
  if (issues.length > 0) throw invalidFormBody(issues);
  return {
    name: body.name ?? current.name,
    event_type: eventType,
    trigger_metadata: triggerMetadata,
    actions,
    enabled: body.enabled ?? current.enabled,
    exempt_roles: exemptRoles,
    exempt_channels: exemptChannels,
  };
}

function rowOf(
  base: Pick<AutoModerationRuleRow, "id" | "guild_id" | "creator_id" | "trigger_type">,
  fields: RuleFields,
) {
  return {
    ...base,
    name: fields.name,
    event_type: BigInt(fields.event_type),
    trigger_metadata: JSON.stringify(fields.trigger_metadata),
    actions: JSON.stringify(fields.actions),
    enabled: fields.enabled,
    exempt_roles: JSON.stringify(fields.exempt_roles),
    exempt_channels: JSON.stringify(fields.exempt_channels),
  } satisfies AutoModerationRuleRow;
}

/** The audit log's view of a rule: Discord's change keys for AutoMod rules. */
function auditView(rule: APIAutoModerationRule): Record<string, unknown> {
  const { name, event_type, trigger_type, trigger_metadata, actions, enabled, exempt_roles, exempt_channels } = rule;
  return { name, event_type, trigger_type, trigger_metadata, actions, enabled, exempt_roles, exempt_channels };
}

const tooManyRules = (triggerType: AutoModerationTriggerType) =>
  invalidFormBody([
    {
      path: [],
      code: "AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED",
      message: `Maximum number of rules with trigger type ${triggerType} is ${RULES_PER_TRIGGER_TYPE[triggerType]}`,
    },
  ]);

export async function createAutoModerationRule(
  access: GuildAccess,
  body: CreateAutoModerationRuleBody,
  reason: string | null,
): Promise<APIAutoModerationRule> {
  access.authorize("Create Auto Moderation Rule");
  const triggerType = body.trigger_type as AutoModerationTriggerType;
  const blank: RuleFields = {
    name: body.name,
    event_type: body.event_type,
    trigger_metadata: {},
    actions: [],
    enabled: false,
    exempt_roles: [],
    exempt_channels: [],
  };
  if (triggerType === Trigger.MemberProfile && !body.trigger_metadata)
    throw Errors.invalidField(["trigger_metadata"], "BASE_TYPE_REQUIRED", "This field is required");
  return await transaction(async () => {
    const fields = await ruleFieldsAfter(access, triggerType, blank, body);
    if ((await countRulesOfTriggerType(access.guildId, triggerType)) >= RULES_PER_TRIGGER_TYPE[triggerType])
      throw tooManyRules(triggerType);
    const row = rowOf(
      {
        id: newSnowflake(),
        guild_id: access.guildId,
        creator_id: access.caller.userId,
        trigger_type: BigInt(triggerType),
      },
      fields,
    );
    await insertAutoModerationRule(row);
    const rule = serializeAutoModerationRule(row);
    await emitEvent(access.guildId, "AUTO_MODERATION_RULE_CREATE", rule);
    await auditByCaller(access, {
      actionType: AuditLogEvent.AutoModerationRuleCreate,
      targetId: row.id,
      reason,
      changes: diffChanges({}, auditView(rule)),
    });
    if (triggerType === Trigger.MemberProfile) await rejudgeMemberProfiles(access.guildId);
    return rule;
  });
}

export async function modifyAutoModerationRule(
  access: GuildAccess,
  ruleId: bigint,
  body: ModifyAutoModerationRuleBody,
  reason: string | null,
): Promise<APIAutoModerationRule> {
  access.authorize("Modify Auto Moderation Rule");
  return await transaction(async () => {
    const row = await findAutoModerationRule(access.guildId, ruleId);
    if (!row) throw unknownRule();
    const before = serializeAutoModerationRule(row);
    const triggerType = before.trigger_type as AutoModerationTriggerType;
    if (body.trigger_type !== undefined && body.trigger_type !== triggerType)
      throw Errors.invalidField(["trigger_type"], "BASE_TYPE_CHOICES", "A rule's trigger type cannot be changed.");
    const fields = await ruleFieldsAfter(access, triggerType, before, body);
    const updated = rowOf(row, fields);
    await updateAutoModerationRule(updated);
    const rule = serializeAutoModerationRule(updated);
    const changes = diffChanges(auditView(before), auditView(rule));
    if (changes.length > 0) {
      await emitEvent(access.guildId, "AUTO_MODERATION_RULE_UPDATE", rule);
      await auditByCaller(access, {
        actionType: AuditLogEvent.AutoModerationRuleUpdate,
        targetId: ruleId,
        reason,
        changes,
      });
      if (triggerType === Trigger.MemberProfile) await rejudgeMemberProfiles(access.guildId);
    }
    return rule;
  });
}

export async function deleteAutoModerationRule(access: GuildAccess, ruleId: bigint, reason: string | null) {
  access.authorize("Delete Auto Moderation Rule");
  await transaction(async () => {
    const row = await findAutoModerationRule(access.guildId, ruleId);
    if (!row || !(await deleteRuleRow(access.guildId, ruleId))) throw unknownRule();
    const rule = serializeAutoModerationRule(row);
    await emitEvent(access.guildId, "AUTO_MODERATION_RULE_DELETE", rule);
    await auditByCaller(access, {
      actionType: AuditLogEvent.AutoModerationRuleDelete,
      targetId: ruleId,
      reason,
      changes: Object.entries(auditView(rule)).map(([key, value]) => ({ key, old_value: value })),
    });
    if (Number(row.trigger_type) === Trigger.MemberProfile) await rejudgeMemberProfiles(access.guildId);
  });
}
