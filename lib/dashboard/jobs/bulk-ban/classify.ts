// The bulk-ban preview's verdict on one id, from the shared permission engine: who cannot be banned, and why.
// Pure: the lookups (is the user banned, are they a member and with which roles) are done by the caller.
import { botVerdictOn, withBotVerdict } from "@/lib/dashboard/data/bot-standing";
import { canActOnMember, type GuildPermissionContext, type PermissionMember } from "@/lib/discord/permissions";

export interface TargetLookup {
  banned: boolean;
  /** Their membership (role ids), or null when they are not in the guild. */
  member: PermissionMember | null;
}

export type Verdict = { state: "pending"; detail: null } | { state: "skipped"; detail: string };

export const SKIP_REASONS = {
  owner: "server owner",
  self: "that's you",
  banned: "already banned",
} as const;

/** `bot`: in bot mode, the bot that makes the bans; a member it does not outrank is skipped too (bot-standing.ts). */
export function classifyTarget(
  ctx: GuildPermissionContext,
  self: PermissionMember,
  userId: string,
  lookup: TargetLookup,
  bot: PermissionMember | null = null,
): Verdict {
  if (userId === ctx.ownerId) return { state: "skipped", detail: SKIP_REASONS.owner };
  if (userId === self.userId) return { state: "skipped", detail: SKIP_REASONS.self };
  if (lookup.banned) return { state: "skipped", detail: SKIP_REASONS.banned };
  if (lookup.member) {
    const target = lookup.member;
    const verdict = withBotVerdict(canActOnMember(ctx, self, target), () => botVerdictOn(ctx, bot, target));
    if (!verdict.ok) return { state: "skipped", detail: verdict.reason };
  }
  return { state: "pending", detail: null };
}
