// Bulk member actions from the members page (add or remove a role, time out or remove a timeout, kick) as the job
// page and the runner see them. Bans go to the bulk-ban job (Bulk Guild Ban takes 200 per request). Pure, so client
// components can import it.
import type { JobStatus } from "@/lib/dashboard/jobs/bulk-ban/types";

export type { JobStatus };

export const MEMBER_JOB_KINDS = ["add_role", "remove_role", "timeout", "remove_timeout", "kick"] as const;
export type MemberJobKind = (typeof MEMBER_JOB_KINDS)[number];
/** What the members page's bulk bar offers: the member jobs, and a bulk ban. */
export type BulkMemberAction = MemberJobKind | "ban";

/** The most members one job takes (the job page lists them; a preview reads them all through the search). */
export const MEMBER_JOB_MAX = 25_000;
/** Members per server action: each one request, 16 in flight. */
export const MEMBER_JOB_CHUNK = 500;
export const MEMBER_JOB_CONCURRENCY = 16;

export interface MemberJobParams {
  roleId?: string;
  roleName?: string;
  /** Timeouts: until when, ISO. */
  until?: string;
}

/** "sending": claimed by a chunk whose answers are not recorded yet. */
export type MemberItemState = "pending" | "sending" | "done" | "failed" | "skipped";

export interface MemberJobItem {
  userId: string;
  /** The member's name when the job was prepared. */
  name: string | null;
  state: MemberItemState;
  detail: string | null;
}

export type MemberJobCounts = Record<MemberItemState, number> & { total: number };

export interface MemberJobView {
  id: string;
  guildId: string;
  kind: MemberJobKind;
  params: MemberJobParams;
  actorId: string;
  actorName: string;
  reason: string | null;
  status: JobStatus;
  createdAt: string;
  updatedAt: string;
  counts: MemberJobCounts;
}

export function countMemberItems(items: ReadonlyArray<{ state: string }>): MemberJobCounts {
  const counts: MemberJobCounts = { total: items.length, pending: 0, sending: 0, done: 0, failed: 0, skipped: 0 };
  for (const item of items) counts[item.state as MemberItemState]++;
  return counts;
}

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** The action in words, for titles, buttons and the audit history: "Add the role Regular", "Time out until …". */
export function describeMemberAction(kind: MemberJobKind, params: MemberJobParams): string {
  switch (kind) {
    case "add_role":
      return `Add the role ${params.roleName ?? params.roleId}`;
    case "remove_role":
      return `Remove the role ${params.roleName ?? params.roleId}`;
    case "timeout":
      return `Time out until ${params.until ? `${when.format(new Date(params.until))} UTC` : "?"}`;
    case "remove_timeout":
      return "Remove the timeout";
    case "kick":
      return "Kick";
  }
}

/** The audit history's action name per kind (one entry per job). */
export const MEMBER_JOB_AUDIT_ACTIONS: Record<MemberJobKind, string> = {
  add_role: "Bulk add role",
  remove_role: "Bulk remove role",
  timeout: "Bulk timeout",
  remove_timeout: "Bulk remove timeout",
  kick: "Bulk kick",
};

/** What "done" means for a member, per kind. */
export const DONE_WORDS: Record<MemberJobKind, string> = {
  add_role: "Role added",
  remove_role: "Role removed",
  timeout: "Timed out",
  remove_timeout: "Timeout removed",
  kick: "Kicked",
};
