"use server";

// The moderators' side of ban appeals (issue #32): the guild's appeal form (on, the ban's reason shown or not, the
// questions), and deciding an appeal. Accepting unbans (Remove Guild Ban, filed as its own entry with the reason
// "Ban appeal accepted") and tells the user; rejecting tells them why. Each decision is a case of its own
// (cases/derive.ts). All of it takes Ban Members, judged by the guard in both modes: the form and the decision are
// the dashboard's own tables, and the unban is Remove Guild Ban's to judge too.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import {
  AcceptAppealInputSchema,
  AppealSettingsInputSchema,
  RejectAppealInputSchema,
} from "@/lib/dashboard/appeals/schemas";
import { decideAppeal, getAppeal, saveAppealSettings, type AppealView } from "@/lib/dashboard/appeals/store";
import { ACCEPT_APPEAL_ACTION, REJECT_APPEAL_ACTION } from "@/lib/dashboard/cases/derive";
import { forgetAppellantBan } from "@/lib/dashboard/appeals/ban-lookup";
import { ActionRefusal } from "./action-client";
import { auditReason } from "./audit-reason";
import { guildAction } from "./guild-action";

/** The appeal, open and of this guild, as the decision's before snapshot (its user named from the table). */
async function openAppeal(guildId: string, appealId: string): Promise<AppealView> {
  const appeal = await getAppeal(guildId, appealId);
  if (!appeal) throw new ActionRefusal("This server has no such appeal.", {}, 404);
  if (appeal.status !== "open") throw new ActionRefusal("Another moderator has decided this appeal already.");
  return appeal;
}

const appealTarget = (_input: unknown, { before }: { before?: unknown }) => {
  const appeal = before as AppealView | undefined;
  return appeal ? { type: "user", id: appeal.userId, name: appeal.userName } : null;
};

export const saveAppealSettingsAction = guildAction({
  action: "Save appeal settings",
  schema: AppealSettingsInputSchema,
  dashboardOnly: true,
  authorize: (check) => check.missing(P.BanMembers),
  request: (input) => ({ enabled: input.enabled, show_reason: input.showReason, questions: input.questions }),
  run: async ({ guildId, input, actor }) => {
    await saveAppealSettings(guildId, actor, input);
    return input;
  },
  message: (result) => (result.enabled ? "Appeals are open." : "Appeal settings saved; appeals are closed."),
});

/** An accepted appeal's unban, as the guild's audit log and the unban's case give it. */
const APPEAL_UNBAN_REASON = "Ban appeal accepted";

export const acceptAppealAction = guildAction({
  action: ACCEPT_APPEAL_ACTION,
  schema: AcceptAppealInputSchema,
  dashboardOnly: true,
  target: appealTarget,
  authorize: (check) => check.missing(P.BanMembers),
  request: (input) => ({ message: input.message || null }),
  before: ({ guildId, input }) => openAppeal(guildId, input.appealId),
  run: async ({ api, guildId, input, actor, mode, recordCall }) => {
    const appeal = await openAppeal(guildId, input.appealId);
    let unbanned = true;
    try {
      // In bot mode the reason carries who accepted (auditReason), as every change the bot makes for a moderator.
      await api.bans.unban(guildId, appeal.userId, { reason: auditReason(APPEAL_UNBAN_REASON, actor, mode) });
    } catch (error) {
      // Unbanned meanwhile (10026 Unknown Ban): the appeal is still accepted.
      if (!(error instanceof GuildApiError && error.code === 10026)) throw error;
      unbanned = false;
    }
    if (unbanned)
      await recordCall({
        action: "Remove Guild Ban",
        target: { type: "user", id: appeal.userId, name: appeal.userName },
        reason: APPEAL_UNBAN_REASON,
        request: { appeal: appeal.id },
        status: "success",
      });
    if (
      !(await decideAppeal(guildId, appeal.id, {
        status: "accepted",
        moderator: actor,
        message: input.message || null,
      }))
    )
      throw new ActionRefusal("Another moderator has decided this appeal already.");
    forgetAppellantBan(guildId, appeal.userId);
    return { unbanned };
  },
  after: (result) => ({ status: "accepted", unbanned: result.unbanned }),
  message: (result, _input, { before }) =>
    `Appeal accepted; ${(before as AppealView | undefined)?.userName ?? "they"} ${result.unbanned ? "can join again" : "was not banned any more"}.`,
});

export const rejectAppealAction = guildAction({
  action: REJECT_APPEAL_ACTION,
  schema: RejectAppealInputSchema,
  dashboardOnly: true,
  target: appealTarget,
  authorize: (check) => check.missing(P.BanMembers),
  // The message the user reads is the case's reason too.
  request: (input) => ({ message: input.message }),
  before: ({ guildId, input }) => openAppeal(guildId, input.appealId),
  run: async ({ guildId, input, actor }) => {
    if (
      !(await decideAppeal(guildId, input.appealId, { status: "rejected", moderator: actor, message: input.message }))
    )
      throw new ActionRefusal("Another moderator has decided this appeal already.");
    return null;
  },
  after: () => ({ status: "rejected" }),
  message: () => "Appeal rejected; they see your message on the appeal page.",
});
