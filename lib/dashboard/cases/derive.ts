// Which moderation cases one audit-history entry makes (issue #32). The history already holds every change once,
// whoever made it: the dashboard's own actions, and the guild's audit log imported into it (a bot's or Discord
// client's bans, kicks, timeouts and role changes), twins merged (guild-log/twins.ts). So cases are read off the
// history, one rule per operation, and an action made anywhere becomes a case the same way. Pure: the store
// (store.ts) numbers and writes what this returns.
//
// The history's snapshots differ by where the entry came from: the dashboard's carry whole fields ({roles: [ids]},
// {communication_disabled_until}) and, in the request, what only the dashboard knows (a temporary ban's length, a
// long timeout's real end); an imported entry carries the audit log's changes ({$add: [{id, name}]}).

export const CASE_TYPES = [
  "ban",
  "unban",
  "kick",
  "timeout",
  "timeout_removed",
  "role_change",
  "warning",
  "note",
  "appeal",
] as const;

export type CaseType = (typeof CASE_TYPES)[number];

export const CASE_TYPE_LABELS: Record<CaseType, string> = {
  ban: "Ban",
  unban: "Unban",
  kick: "Kick",
  timeout: "Timeout",
  timeout_removed: "Timeout removed",
  role_change: "Role change",
  warning: "Warning",
  note: "Note",
  appeal: "Appeal",
};

/** The history's names for the member panel's Warn and Add note (dashboard-only actions, no API call). */
export const WARN_ACTION = "Warn member";
export const NOTE_ACTION = "Add note";
/** The history's names for an appeal's decision (the acceptance's unban is filed on its own as Remove Guild Ban). */
export const ACCEPT_APPEAL_ACTION = "Accept ban appeal";
export const REJECT_APPEAL_ACTION = "Reject ban appeal";

/**
 * The history actions that end a members-page kick or timeout job (member-actions/operations.ts): the chunk that
 * completes it, or its cancellation (of any job). The job's one entry stands for all its members; the store reads
 * the members it was done to.
 */
export const MEMBER_JOB_END_ACTIONS = [
  "Bulk kick",
  "Bulk timeout",
  "Bulk remove timeout",
  "Cancel bulk member action",
] as const;

/** The cases of a members-page job, by its kind: a kick or a timeout each member; role jobs are housekeeping. */
const MEMBER_JOB_CASE_TYPES: Partial<Record<string, CaseType>> = {
  kick: "kick",
  timeout: "timeout",
  remove_timeout: "timeout_removed",
};

/** A members-page job as its cases need it: its kind, a timeout's end, and the members it was done to. */
export interface MemberJobForCases {
  kind: string;
  /** A timeout job's end (ISO). */
  until: string | null;
  members: ReadonlyArray<{ userId: string; name: string | null }>;
}

/** The id of the job a job-ending entry speaks of: the chunk's request names it, a cancellation's target is it. */
export function memberJobIdOf(entry: Pick<HistoryEntryForCases, "action" | "request" | "targetId">): string | null {
  if (entry.action === "Cancel bulk member action") return entry.targetId;
  const job = parse(entry.request).job;
  return typeof job === "string" ? job : null;
}

/** One case per member a kick or timeout job was done to, when the job ended (completed or cancelled). */
export function casesFromMemberJob(entry: HistoryEntryForCases, job: MemberJobForCases): CaseDraft[] {
  const type = MEMBER_JOB_CASE_TYPES[job.kind];
  if (entry.status !== "success" || !type) return [];
  const until = type === "timeout" ? timeOf(job.until) : null;
  const at = entry.createdAt.getTime();
  const length =
    until !== null && until > at ? { durationSeconds: Math.round((until - at) / 1000), endsAt: new Date(until) } : {};
  return job.members.map((member) =>
    draftFor(entry, type, { targetId: member.userId, targetName: member.name ?? member.userId, ...length }),
  );
}

/** Every history action that can make a case: the store reads only these entries. */
export const CASE_ACTIONS = [
  "Create Guild Ban",
  "Remove Guild Ban",
  "Remove Guild Member",
  "Bulk Guild Ban",
  "Modify Guild Member",
  "Modify Guild Member Roles",
  WARN_ACTION,
  NOTE_ACTION,
  ACCEPT_APPEAL_ACTION,
  REJECT_APPEAL_ACTION,
  ...MEMBER_JOB_END_ACTIONS,
] as const;

/** The history entry as the derivation reads it (AuditHistoryEntry's columns). */
export interface HistoryEntryForCases {
  id: string;
  action: string;
  status: string;
  source: string;
  actorId: string;
  actorName: string;
  actorBot: boolean;
  targetId: string | null;
  targetName: string | null;
  reason: string | null;
  /** JSON text, as stored. */
  request: string | null;
  before: string | null;
  after: string | null;
  auditLogId: string | null;
  createdAt: Date;
}

export interface RoleRef {
  id: string;
  name: string | null;
}

/** A case before it has a number. */
export interface CaseDraft {
  type: CaseType;
  targetId: string;
  targetName: string;
  moderatorId: string;
  moderatorName: string;
  moderatorBot: boolean;
  reason: string | null;
  durationSeconds: number | null;
  endsAt: Date | null;
  auditLogId: string | null;
  historyId: string;
  source: "dashboard" | "guild-log";
  details: { added: RoleRef[]; removed: RoleRef[] } | null;
  createdAt: Date;
}

/**
 * What the dashboard records in a ban's or timeout's request beyond the API's own fields: the length it chose (a
 * temporary ban) and a timeout's end when it is past Discord's 28-day cap (the API holds the cap, renewed later).
 */
export interface DashboardModerationRequest {
  ban_duration_seconds?: number | null;
  timeout_ends_at?: string | null;
  /** A renewal of a long timeout by the schedule (schedule.ts): the case's number. */
  renewal_of_case?: number;
}

const parse = (text: string | null): Record<string, unknown> => {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const has = (object: Record<string, unknown>, key: string) => Object.hasOwn(object, key);

const timeOf = (value: unknown): number | null => {
  if (typeof value !== "string" || value === "") return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
};

const roleRefs = (value: unknown): RoleRef[] =>
  Array.isArray(value)
    ? value.flatMap((role): RoleRef[] => {
        if (typeof role === "string") return [{ id: role, name: null }];
        if (role && typeof role === "object" && typeof (role as { id?: unknown }).id === "string")
          return [{ id: (role as { id: string }).id, name: (role as { name?: string }).name ?? null }];
        return [];
      })
    : [];

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** A case of `type` from `entry`: its moderator, target, reason and time, with `extra` over them. */
function draftFor(entry: HistoryEntryForCases, type: CaseType, extra: Partial<CaseDraft> = {}): CaseDraft {
  return {
    type,
    targetId: entry.targetId ?? "0",
    targetName: entry.targetName ?? entry.targetId ?? "Unknown user",
    moderatorId: entry.actorId,
    moderatorName: entry.actorName,
    moderatorBot: entry.actorBot,
    reason: entry.reason,
    durationSeconds: null,
    endsAt: null,
    auditLogId: entry.auditLogId,
    historyId: entry.id,
    source: entry.source === "guild-log" ? "guild-log" : "dashboard",
    details: null,
    createdAt: entry.createdAt,
    ...extra,
  };
}

/** The cases `entry` makes: none for a failure, a part of another change, or a change that is not moderation. */
export function casesFromHistoryEntry(entry: HistoryEntryForCases): CaseDraft[] {
  if (entry.status !== "success" || entry.source === "part") return [];
  const request = parse(entry.request);
  const before = parse(entry.before);
  const after = parse(entry.after);
  const at = entry.createdAt.getTime();
  const draft = (type: CaseType, extra?: Partial<CaseDraft>) => draftFor(entry, type, extra);
  const needsTarget = entry.targetId !== null;

  switch (entry.action) {
    case "Create Guild Ban": {
      if (!needsTarget) return [];
      const seconds = request.ban_duration_seconds;
      return typeof seconds === "number" && seconds > 0
        ? [draft("ban", { durationSeconds: seconds, endsAt: new Date(at + seconds * 1000) })]
        : [draft("ban")];
    }
    case "Remove Guild Ban":
      return needsTarget ? [draft("unban")] : [];
    case "Remove Guild Member":
      return needsTarget ? [draft("kick")] : [];
    // The dashboard's own: a warning or a private note from the member panel, recorded only here.
    case WARN_ACTION:
      return needsTarget ? [draft("warning")] : [];
    case NOTE_ACTION:
      return needsTarget ? [draft("note")] : [];
    // An appeal decided: its case says how, with the message the user was given.
    case ACCEPT_APPEAL_ACTION:
    case REJECT_APPEAL_ACTION: {
      if (!needsTarget) return [];
      const decision = entry.action === ACCEPT_APPEAL_ACTION ? "Accepted" : "Rejected";
      const message = typeof request.message === "string" && request.message ? `: ${request.message}` : "";
      return [draft("appeal", { reason: `${decision}${message}` })];
    }
    case "Bulk Guild Ban": {
      // One case per user the chunk banned (its guild entries are kept as parts and make none).
      // The job's length, when it has one, rides with the chunk's outcome.
      const seconds = after.ban_duration_seconds;
      const length =
        typeof seconds === "number" && seconds > 0
          ? { durationSeconds: seconds, endsAt: new Date(at + seconds * 1000) }
          : {};
      return idsOf(after.banned_users).map((id) =>
        draft("ban", { targetId: id, targetName: id, auditLogId: null, ...length }),
      );
    }
    case "Modify Guild Member": {
      // A long timeout renewed by the dashboard's schedule is part of its case, not a new one.
      if (!needsTarget || request.renewal_of_case !== undefined) return [];
      const cases: CaseDraft[] = [];
      if (has(after, "communication_disabled_until")) {
        const until = timeOf(request.timeout_ends_at) ?? timeOf(after.communication_disabled_until);
        const previous = timeOf(before.communication_disabled_until);
        if (until !== null && until > at) {
          const seconds = Math.round((until - at) / 1000);
          cases.push(draft("timeout", { durationSeconds: seconds, endsAt: new Date(until) }));
        } else if (previous !== null && previous > at) cases.push(draft("timeout_removed"));
      }
      if (has(before, "roles") && has(after, "roles")) {
        const was = new Set(idsOf(before.roles));
        const now = new Set(idsOf(after.roles));
        const added = [...now].filter((id) => !was.has(id)).map((id) => ({ id, name: null }));
        const removed = [...was].filter((id) => !now.has(id)).map((id) => ({ id, name: null }));
        if (added.length || removed.length) cases.push(draft("role_change", { details: { added, removed } }));
      }
      return cases;
    }
    case "Modify Guild Member Roles": {
      if (!needsTarget) return [];
      const added = roleRefs(after.$add);
      const removed = roleRefs(after.$remove);
      return added.length || removed.length ? [draft("role_change", { details: { added, removed } })] : [];
    }
    default:
      return [];
  }
}
