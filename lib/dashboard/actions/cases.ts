"use server";

// Server actions of the member panel's Warn and Add note, and of a case's reason (issue #32). They change only the
// dashboard's own tables (a warning or a note exists nowhere else), so each is judged by its guard in both modes
// (`dashboardOnly`): warning a member or writing a note about them takes what timing them out takes (Moderate
// Members and a place above them); editing a case's reason takes a moderator who may see that case.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { NOTE_ACTION, WARN_ACTION } from "@/lib/dashboard/cases/derive";
import { describeRule, EscalationRulesInputSchema, ruleToPropose } from "@/lib/dashboard/cases/escalation";
import {
  caseTimes,
  editCaseReason,
  getCase,
  getEscalationRules,
  saveEscalationRules,
  syncCases,
} from "@/lib/dashboard/cases/store";
import { ActionRefusal } from "./action-client";
import { guildAction } from "./guild-action";
import { EditCaseReasonInputSchema, NoteInputSchema, WarnInputSchema } from "./schemas/cases";
import { memberUserSnapshot, snapshotUserAliases, snapshotUserName } from "./snapshots";

const memberCaseAction = (action: typeof WARN_ACTION | typeof NOTE_ACTION, schema: typeof WarnInputSchema) =>
  guildAction({
    action,
    schema,
    dashboardOnly: true,
    target: (input, { before }) => ({
      type: "member",
      id: input.userId,
      name: snapshotUserName(before),
      aliases: snapshotUserAliases(before, undefined),
    }),
    authorize: (check, input) => check.mayTimeOut(input.userId),
    request: () => ({}),
    // The member as the API names them; one who is not a member (any more) cannot be warned.
    before: async ({ api, guildId, input }) => {
      const member = await api.members.get(guildId, input.userId).catch(() => null);
      if (!member) throw new ActionRefusal("They are not a member of this server.", {}, 404);
      return { user: memberUserSnapshot(member) };
    },
    // A warning may cross one of the guild's escalation rules: the strictest met is proposed, never applied here.
    run: async ({ guildId, input }) =>
      action === WARN_ACTION ? { proposal: await proposalAfterWarning(guildId, input.userId) } : { proposal: null },
    after: (result) => (result.proposal ? { proposal: describeRule(result.proposal) } : undefined),
    message: (result, _input, { before }) =>
      action === WARN_ACTION
        ? `Warned ${snapshotUserName(before) ?? "the member"}.${result.proposal ? ` ${result.proposal.count} warnings: the server's rule proposes ${describeRule(result.proposal).split("→ ")[1]}.` : ""}`
        : `Note added to ${snapshotUserName(before) ?? "the member"}'s cases.`,
  });

/** The rule the warning being added makes the member meet (their earlier warnings, and this one now). */
async function proposalAfterWarning(guildId: string, userId: string) {
  const rules = await getEscalationRules(guildId);
  if (rules.length === 0) return null;
  // The member's warnings up to this one (the change's own sync may have left a long backlog of older history).
  await syncCases(guildId, 1_000);
  const now = Date.now();
  return ruleToPropose(rules, [now, ...(await caseTimes(guildId, userId, "warning"))], now);
}

/** The guild's escalation rules, replaced as a whole (Cases → Escalation). */
export const saveEscalationRulesAction = guildAction({
  action: "Save escalation rules",
  schema: EscalationRulesInputSchema,
  dashboardOnly: true,
  authorize: (check) => check.missing(P.ModerateMembers),
  request: (input) => ({ rules: input.rules.map(describeRule) }),
  run: async ({ guildId, input }) => {
    await saveEscalationRules(guildId, input.rules);
    return input.rules.length;
  },
  message: (count) =>
    count ? `${count} escalation rule${count === 1 ? "" : "s"} saved.` : "No escalation rules: none will be proposed.",
});

/** The member panel's Warn: a warning case with its reason. */
export const warnMemberAction = memberCaseAction(WARN_ACTION, WarnInputSchema);

/** The member panel's Add note: a private note, a case only moderators see. */
export const addMemberNoteAction = memberCaseAction(NOTE_ACTION, NoteInputSchema);

/** A case's reason, changed; the change is kept with the case (who, when, from what). */
export const editCaseReasonAction = guildAction({
  action: "Edit case reason",
  schema: EditCaseReasonInputSchema,
  dashboardOnly: true,
  target: (input) => ({ type: "case", id: String(input.number), name: `Case #${input.number}` }),
  // A case read off the guild's audit log is seen, and so edited, only with View Audit Log (as in the list).
  authorize: async (check, input) => {
    const found = await getCase(check.guildId, input.number);
    if (found?.source === "guild-log") return check.missing(P.ViewAuditLog);
    return check.missingAny(P.BanMembers, P.KickMembers, P.ModerateMembers, P.ViewAuditLog);
  },
  request: (input) => ({ reason: input.reason || null }),
  before: async ({ guildId, input }) => {
    const found = await getCase(guildId, input.number);
    if (!found) throw new ActionRefusal(`This server has no case #${input.number}.`, {}, 404);
    return { reason: found.reason };
  },
  run: async ({ guildId, input, actor }) => {
    await editCaseReason(guildId, input.number, actor, input.reason || null);
    return { reason: input.reason || null };
  },
  after: (result) => result,
  message: (_result, input) => `Case #${input.number}'s reason saved.`,
});
