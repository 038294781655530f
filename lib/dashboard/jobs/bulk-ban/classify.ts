// The bulk-ban preview's verdict on one id, from the shared permission engine: who cannot be banned, and why.
// Pure: the lookups (is the user banned, are they a member and with which roles) are done by the caller.
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

export function classifyTarget(
  ctx: GuildPermissionContext,
  self: PermissionMember,
  userId: string,
  lookup: TargetLookup,
): Verdict {
  if (userId === ctx.ownerId) return { state: "skipped", detail: SKIP_REASONS.owner };
  if (userId === self.userId) return { state: "skipped", detail: SKIP_REASONS.self };
  if (lookup.banned) return { state: "skipped", detail: SKIP_REASONS.banned };
  if (lookup.member) {
    const verdict = canActOnMember(ctx, self, lookup.member);
    if (!verdict.ok) return { state: "skipped", detail: verdict.reason };
  }
  return { state: "pending", detail: null };
}
