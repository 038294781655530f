// A bulk member action's verdict on one member, before anything is sent: who is out of reach, and why (the owner,
// yourself, the role hierarchy, administrators for timeouts), and who needs nothing done (already has the role, is
// not timed out). Pure: the permission engine over what Search Guild Members v2 answered.
import { PermissionFlagsBits } from "discord-api-types/v10";
import {
  canActOnMember,
  computeBasePermissions,
  hasPermission,
  isTimedOut,
  type GuildPermissionContext,
  type PermissionMember,
} from "@/lib/discord/permissions";
import { botVerdictOn, withBotVerdict } from "@/lib/dashboard/data/bot-standing";
import type { MemberJobKind, MemberJobParams } from "./types";

export type MemberVerdict = { state: "pending"; detail: null } | { state: "skipped"; detail: string };

export const MEMBER_SKIP_REASONS = {
  owner: "server owner: nobody can act on them",
  self: "that's you",
  hasRole: "already has the role",
  lacksRole: "doesn't have the role",
  administrator: "administrators can't be timed out",
  notTimedOut: "not timed out",
  notMember: "not a member any more",
  bot: "a bot: raid cleanup leaves bots alone",
} as const;

const pending: MemberVerdict = { state: "pending", detail: null };
const skipped = (detail: string): MemberVerdict => ({ state: "skipped", detail });

export function classifyMember(
  kind: MemberJobKind,
  params: MemberJobParams,
  ctx: GuildPermissionContext,
  self: PermissionMember,
  target: PermissionMember,
  now = Date.now(),
  bot: PermissionMember | null = null,
): MemberVerdict {
  if (target.userId === ctx.ownerId && !(kind.endsWith("role") && self.userId === ctx.ownerId))
    return skipped(MEMBER_SKIP_REASONS.owner);
  const isSelf = target.userId === self.userId;
  if (isSelf && (kind === "kick" || kind === "timeout" || kind === "remove_timeout"))
    return skipped(MEMBER_SKIP_REASONS.self);
  // Changing your own roles is not acting on a member; the role itself is checked once for the whole job.
  if (!isSelf) {
    const verdict = canActOnMember(ctx, self, target);
    if (!verdict.ok) return skipped(verdict.reason);
  }
  // Bot mode: the bot makes the kicks and timeouts, so it must outrank the member too (a role job needs only the
  // role below the bot, checked once for the job).
  if (!kind.endsWith("role")) {
    const verdict = withBotVerdict({ ok: true }, () => botVerdictOn(ctx, bot, target));
    if (!verdict.ok) return skipped(verdict.reason);
  }
  switch (kind) {
    case "add_role":
      return target.roleIds.includes(params.roleId!) ? skipped(MEMBER_SKIP_REASONS.hasRole) : pending;
    case "remove_role":
      return target.roleIds.includes(params.roleId!) ? pending : skipped(MEMBER_SKIP_REASONS.lacksRole);
    case "timeout":
      return hasPermission(computeBasePermissions(ctx, target, now), PermissionFlagsBits.Administrator)
        ? skipped(MEMBER_SKIP_REASONS.administrator)
        : pending;
    case "remove_timeout":
      return isTimedOut(target, now) ? pending : skipped(MEMBER_SKIP_REASONS.notTimedOut);
    case "kick":
      return pending;
  }
}
