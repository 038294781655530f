// Member-profile rules at work: when a member joins or changes their nickname, their username, global name and nickname
// go through the guild's enabled member-profile rules (the shared matcher, lib/discord/automod). A match blocks the
// member as Discord does (the AUTOMOD_QUARANTINED_USERNAME member flag) when the rule says so, and each of the rule's
// actions is reported as Discord reports it: an AUTO_MODERATION_ACTION_EXECUTION dispatch and an audit-log entry. A
// blocked member whose names no longer match any rule (renamed, or the rule changed or went) is unblocked. Like Discord,
// the owner, administrators, Manage Server holders, bots and the rule's exempt roles are never judged.
import { AuditLogEvent, PermissionFlagsBits as P } from "discord-api-types/v10";
import { compileKeywordTrigger, type CompiledKeywordTrigger, type TriggerMatch } from "@/lib/discord/automod/matcher";
import { AutoModerationActionType as Action, AutoModerationTriggerType as Trigger } from "@/lib/discord/automod/rules";
import { GuildMemberFlags, hasMemberFlag } from "@/lib/discord/member-flags";
import { computeBasePermissions, hasPermission } from "@/lib/discord/permissions";
import { writeAuditLog } from "../audit-log";
import { emitEvent } from "../events";
import { guildSnapshotOf, toPermissionMember } from "../guards";
import { memberEventPayload } from "../serializers/members";
import { listEnabledMemberProfileRules, type AutoModerationRuleRow } from "../store/auto-moderation-rules";
import {
  findMemberWithUser,
  listMemberIdsWithFlag,
  setMemberFlags,
  splitRoleIds,
  type MemberWithUserRow,
} from "../store/members";
import { serializeMemberRow } from "./members";

const QUARANTINED = GuildMemberFlags.AutomodQuarantinedUsernameOrGuildNickname;

/** Compiled triggers by rule, rebuilt when the rule's metadata changes (rules change rarely; names are judged often). */
const compiledTriggers = new Map<bigint, { metadata: string; trigger: CompiledKeywordTrigger }>();

function triggerOf(rule: AutoModerationRuleRow): CompiledKeywordTrigger {
  const cached = compiledTriggers.get(rule.id);
  if (cached?.metadata === rule.trigger_metadata) return cached.trigger;
  const metadata = JSON.parse(rule.trigger_metadata) as {
    keyword_filter?: string[];
    regex_patterns?: string[];
    allow_list?: string[];
  };
  const trigger = compileKeywordTrigger({
    keyword_filter: metadata.keyword_filter ?? [],
    regex_patterns: metadata.regex_patterns ?? [],
    allow_list: metadata.allow_list ?? [],
  });
  if (compiledTriggers.size >= 1_000) compiledTriggers.clear();
  compiledTriggers.set(rule.id, { metadata: rule.trigger_metadata, trigger });
  return trigger;
}

interface ProfileMatch {
  rule: AutoModerationRuleRow;
  match: TriggerMatch;
  /** The name that matched. */
  content: string;
}

/** The first rule (oldest first) one of the member's names matches, unless the member is exempt. */
async function findProfileMatch(
  member: MemberWithUserRow,
  rules: readonly AutoModerationRuleRow[],
  now: number,
): Promise<ProfileMatch | null> {
  if (member.bot) return null;
  const snapshot = await guildSnapshotOf(member.guild_id);
  if (!snapshot) return null;
  const roleIds = splitRoleIds(member.role_ids);
  if (snapshot.guild.owner_id === member.user_id) return null;
  const permissions = computeBasePermissions(snapshot.context, toPermissionMember(member, roleIds), now);
  if (hasPermission(permissions, P.ManageGuild)) return null; // administrators hold it too
  const names = [member.nick, member.global_name, member.username].filter((name): name is string => Boolean(name));
  for (const rule of rules) {
    const exempt = JSON.parse(rule.exempt_roles) as string[];
    if (roleIds.some((id) => exempt.includes(String(id)))) continue;
    const trigger = triggerOf(rule);
    for (const content of names) {
      const match = trigger.match(content);
      if (match) return { rule, match, content };
    }
  }
  return null;
}

/** Each of the rule's actions, as Discord reports an AutoMod action: a dispatch and an audit-log entry. */
async function reportActions(member: MemberWithUserRow, found: ProfileMatch, now: number): Promise<void> {
  const { rule, match, content } = found;
  const guildId = member.guild_id;
  const options = {
    auto_moderation_rule_name: rule.name,
    auto_moderation_rule_trigger_type: String(Trigger.MemberProfile),
  };
  for (const action of JSON.parse(rule.actions) as Array<{ type: number; metadata?: { channel_id?: string } }>) {
    await emitEvent(
      guildId,
      "AUTO_MODERATION_ACTION_EXECUTION",
      {
        guild_id: String(guildId),
        action,
        rule_id: String(rule.id),
        rule_trigger_type: Trigger.MemberProfile,
        user_id: String(member.user_id),
        content,
        matched_keyword: match.pattern,
        matched_content: match.matched,
      },
      now,
    );
    if (action.type === Action.BlockMemberInteraction)
      await writeAuditLog({
        guildId,
        userId: member.user_id,
        actionType: AuditLogEvent.AutoModerationQuarantineUser,
        targetId: member.user_id,
        options,
      });
    else if (action.type === Action.SendAlertMessage)
      await writeAuditLog({
        guildId,
        userId: member.user_id,
        actionType: AuditLogEvent.AutoModerationFlagToChannel,
        targetId: member.user_id,
        options: { ...options, channel_id: action.metadata?.channel_id ?? "" },
      });
  }
}

/**
 * Judges the member's names against the guild's member-profile rules, inside the caller's transaction: blocks or
 * unblocks them (the member flag) and reports a new match's actions. True when the member's flags changed (the caller's
 * member event, written after, must carry them).
 */
export async function judgeMemberProfile(guildId: bigint, userId: bigint, now = Date.now()): Promise<boolean> {
  const rules = await listEnabledMemberProfileRules(guildId);
  const member = await findMemberWithUser(guildId, userId);
  if (!member) return false;
  const flags = Number(member.flags);
  const blocked = hasMemberFlag(flags, QUARANTINED);
  // Nobody is blocked in a guild without enabled member-profile rules (their change or deletion re-judges the blocked).
  if (rules.length === 0 && !blocked) return false;
  const found = rules.length > 0 ? await findProfileMatch(member, rules, now) : null;
  const blocks =
    found !== null &&
    JSON.parse(found.rule.actions).some((a: { type: number }) => a.type === Action.BlockMemberInteraction);
  if (found && !blocked) await reportActions(member, found, now);
  const next = blocks ? flags | QUARANTINED : flags & ~QUARANTINED;
  if (next === flags) return false;
  await setMemberFlags(guildId, userId, next);
  return true;
}

/**
 * After a member-profile rule is created, changed or deleted: every blocked member is judged again, and those whose
 * names no longer match are unblocked (with their GUILD_MEMBER_UPDATE). Members not blocked are judged when they next
 * join or change their name, as Discord judges them.
 */
export async function rejudgeMemberProfiles(guildId: bigint, now = Date.now()): Promise<void> {
  for (const userId of await listMemberIdsWithFlag(guildId, QUARANTINED)) {
    if (!(await judgeMemberProfile(guildId, userId, now))) continue;
    const member = serializeMemberRow((await findMemberWithUser(guildId, userId))!);
    await emitEvent(guildId, "GUILD_MEMBER_UPDATE", memberEventPayload(guildId, member), now);
  }
}
