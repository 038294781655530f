// Who banned each user on a page of bans, and when: the latest ban in the audit history (the dashboard's own entries
// and the guild's audit log imported beside them), with the moderator or bot looked up by name. Who made a change is
// the audit log's to tell (the policy table's ACTORS_REQUIREMENT, View Audit Log, as for the live stream's actors):
// a Ban Members viewer without it is told nobody, the page says why, and no import starts on their behalf.
import "server-only";
import { latestActionsOn } from "@/lib/dashboard/audit/history";
import { describeMissing } from "@/lib/discord/permissions";
import { ACTORS_REQUIREMENT, meetsRequirement } from "@/lib/discord/policies";
import type { UserRef } from "@/lib/dashboard/users/user-ref";
import { userRefOf } from "@/lib/dashboard/users/user-ref";
import { managementApi } from "./api";
import { syncAuditLog } from "./audit-log";
import { lookupUsers } from "./users";
import type { GuildViewer } from "./viewer";

export interface BanActor {
  by: UserRef;
  at: string;
  /** "dashboard" or "guild-log". */
  source: string;
}

/** Why the viewer is not told who banned whom ("needs View Audit Log"), or null when they are. */
export function banActorsHidden(viewer: Pick<GuildViewer, "permissions">): string | null {
  if (meetsRequirement(viewer.permissions, ACTORS_REQUIREMENT)) return null;
  // One alternative today (View Audit Log): name what it lacks.
  return describeMissing(viewer.permissions, ACTORS_REQUIREMENT[0]) ?? "missing permissions";
}

/**
 * Who banned each of `userIds`, and when; nobody for a viewer who may not be told. The guild's audit log is imported
 * first unless the caller did already (`sync: false`: the CSV export imports once, then asks page by page).
 */
export async function getBanActors(
  viewer: GuildViewer,
  userIds: readonly string[],
  { sync = true }: { sync?: boolean } = {},
): Promise<Record<string, BanActor>> {
  if (userIds.length === 0 || banActorsHidden(viewer)) return {};
  if (sync) await syncAuditLog(viewer);
  const latest = await latestActionsOn(viewer.guild.id, ["Create Guild Ban", "Bulk Guild Ban"], userIds);
  const api = await managementApi(viewer.session);
  const people = await lookupUsers(
    api,
    [...latest.values()].map((a) => a.actorId),
  );
  const out: Record<string, BanActor> = {};
  for (const [userId, action] of latest) {
    const ref = userRefOf(people, action.actorId);
    out[userId] = {
      by: ref.status === "found" ? ref : { ...ref, displayName: action.actorName, bot: action.actorBot },
      at: action.createdAt,
      source: action.source,
    };
  }
  return out;
}
