// The moderation cases of each guild, in the dashboard's Prisma tables (issue #32). Cases are read off the audit
// history (derive.ts): syncCases takes the guild's history entries not read yet, oldest first, numbers their cases
// (#1, #2, … per guild, from case_counters) and marks the entries read, all in one transaction per batch that first
// writes the guild's counter row: two syncs of one guild take turns there (PostgreSQL's row lock, SQLite's single
// writer), so an entry makes its cases exactly once; the unique key (historyId, type, targetId) backs that up.
import type { Prisma } from "@/lib/generated/prisma";
import { containsText, prisma } from "@/lib/dashboard/db";
import { insertRows, newRowId } from "@/lib/dashboard/insert-rows";
import {
  CASE_ACTIONS,
  casesFromHistoryEntry,
  casesFromMemberJob,
  MEMBER_JOB_END_ACTIONS,
  memberJobIdOf,
  type CaseDraft,
  type CaseType,
  type HistoryEntryForCases,
} from "./derive";
import type { EscalationRule } from "./escalation";
import { cancelScheduled, scheduleForCase, type ScheduleEnd } from "./schedule";

/** History entries read per transaction. */
const SYNC_BATCH = 200;

type Tx = Prisma.TransactionClient;

/** The next `count` case numbers of the guild, taken in `tx` (the counter row is written, so it is held until commit). */
async function takeNumbers(tx: Tx, guildId: string, count: number): Promise<number> {
  const counter = await tx.caseCounter.upsert({
    where: { guildId },
    create: { guildId, last: count },
    update: { last: { increment: count } },
  });
  return counter.last - count + 1;
}

/**
 * Numbers and writes the drafts, and keeps what is scheduled in step with them: a temporary ban or a timeout past the
 * cap schedules its own end or renewal (schedule.ts); a new ban or an unban cancels an earlier temporary ban's pending
 * end for that user, a new timeout or its removal an earlier pending renewal.
 */
async function insertCases(tx: Tx, guildId: string, drafts: readonly CaseDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  const first = await takeNumbers(tx, guildId, drafts.length);
  const rows = drafts.map((draft, i) => ({
    id: newRowId(),
    guildId,
    number: first + i,
    type: draft.type,
    targetId: draft.targetId,
    targetName: draft.targetName,
    moderatorId: draft.moderatorId,
    moderatorName: draft.moderatorName,
    moderatorBot: draft.moderatorBot,
    reason: draft.reason,
    durationSeconds: draft.durationSeconds,
    endsAt: draft.endsAt,
    auditLogId: draft.auditLogId,
    historyId: draft.historyId,
    source: draft.source,
    details: draft.details ? JSON.stringify(draft.details) : null,
    createdAt: draft.createdAt,
  }));
  for (const statement of insertRows(tx, "moderation_cases", rows)) await statement;
  for (const [i, draft] of drafts.entries()) await scheduleForCase(tx, guildId, rows[i].id, draft);
  // After scheduling: a later draft's end cancels an earlier draft's schedule, never its own (older cases only).
  await cancelScheduled(
    tx,
    guildId,
    drafts.flatMap((draft): ScheduleEnd[] => {
      const kind = SCHEDULE_ENDED_BY[draft.type];
      return kind ? [{ userId: draft.targetId, kind, at: draft.createdAt }] : [];
    }),
  );
}

/** The case types that end what was scheduled for the member: a temporary ban's end, a long timeout's renewal. */
const SCHEDULE_ENDED_BY: Partial<Record<CaseType, ScheduleEnd["kind"]>> = {
  ban: "unban",
  unban: "unban",
  timeout: "renew_timeout",
  timeout_removed: "renew_timeout",
};

/** The members-page job kind that makes each case type (derive.ts's MEMBER_JOB_CASE_TYPES, the other way). */
const JOB_KIND_OF: Partial<Record<CaseType, string>> = {
  kick: "kick",
  timeout: "timeout",
  timeout_removed: "remove_timeout",
};

/** A guild entry and the members-page job that made it are at most this far apart (clocks, the last chunk's write). */
const JOB_SLACK_MS = 60_000;

/**
 * Whether a guild audit-log entry's case is one a members-page job makes itself (when it ends): the member was taken
 * by a job of that kind (its item is marked before the request, so before the guild's entry exists) that ran then.
 */
async function madeByMemberJob(tx: Tx, guildId: string, draft: CaseDraft): Promise<boolean> {
  const kind = JOB_KIND_OF[draft.type];
  if (!kind) return false;
  const at = draft.createdAt.getTime();
  // The jobs that ran then first (by guild, kind and time: an index), then the member in them (by primary key).
  const jobs = await tx.bulkBanJob.findMany({
    where: {
      guildId,
      kind,
      createdAt: { lte: new Date(at + JOB_SLACK_MS) },
      updatedAt: { gte: new Date(at - JOB_SLACK_MS) },
    },
    select: { id: true },
  });
  if (jobs.length === 0) return false;
  const item = await tx.bulkBanItem.findFirst({
    where: { jobId: { in: jobs.map((job) => job.id) }, userId: draft.targetId, state: { in: ["sending", "done"] } },
    select: { jobId: true },
  });
  return item !== null;
}

/**
 * The cases of one entry. A members-page kick or timeout job's end makes one per member it was done to (read from the
 * job); the guild's own entries for those members make none (they would be each member's case twice).
 */
async function draftsOf(tx: Tx, guildId: string, entry: HistoryEntryForCases): Promise<CaseDraft[]> {
  if ((MEMBER_JOB_END_ACTIONS as readonly string[]).includes(entry.action)) {
    const jobId = memberJobIdOf(entry);
    if (entry.status !== "success" || !jobId) return [];
    const job = await tx.bulkBanJob.findFirst({
      where: { id: jobId, guildId },
      select: { kind: true, params: true, items: { where: { state: "done" }, select: { userId: true, name: true } } },
    });
    if (!job) return [];
    const params = JSON.parse(job.params) as { until?: string };
    return casesFromMemberJob(entry, { kind: job.kind, until: params.until ?? null, members: job.items });
  }
  const drafts = casesFromHistoryEntry(entry);
  if (entry.source !== "guild-log") return drafts;
  const kept: CaseDraft[] = [];
  for (const draft of drafts) if (!(await madeByMemberJob(tx, guildId, draft))) kept.push(draft);
  return kept;
}

/**
 * Makes the cases of the guild's history entries not read yet (at most about `maxEntries` of them: a request does not
 * wait for a long backlog, the history of before cases existed); returns how many cases it made. Entries are taken
 * oldest first, so case numbers follow the order the actions happened in.
 */
export async function syncCases(guildId: string, maxEntries = Number.POSITIVE_INFINITY): Promise<number> {
  let made = 0;
  for (let read = 0; read < maxEntries; read += SYNC_BATCH) {
    const batch = await prisma.$transaction(async (tx) => {
      await takeNumbers(tx, guildId, 0);
      const entries = await tx.auditHistoryEntry.findMany({
        where: { guildId, casesDerived: false },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: SYNC_BATCH,
        select: {
          id: true,
          action: true,
          status: true,
          source: true,
          actorId: true,
          actorName: true,
          actorBot: true,
          targetId: true,
          targetName: true,
          reason: true,
          request: true,
          before: true,
          after: true,
          auditLogId: true,
          createdAt: true,
        },
      });
      const drafts: CaseDraft[] = [];
      for (const entry of entries)
        if ((CASE_ACTIONS as readonly string[]).includes(entry.action))
          drafts.push(...(await draftsOf(tx, guildId, entry)));
      await insertCases(tx, guildId, drafts);
      // Only the entries read: one written meanwhile (after this read) is left for the next sync.
      await tx.auditHistoryEntry.updateMany({
        where: { id: { in: entries.map((entry) => entry.id) }, casesDerived: false },
        data: { casesDerived: true },
      });
      return { read: entries.length, made: drafts.length };
    });
    made += batch.made;
    if (batch.read < SYNC_BATCH) return made;
  }
  return made;
}

export interface CaseFilter {
  types?: readonly CaseType[];
  moderatorId?: string;
  targetId?: string;
  /** Inclusive, ISO dates (yyyy-mm-dd) in UTC. */
  from?: string;
  to?: string;
  /** A case number ("#12" or "12"), or words in the reason, the target's or the moderator's name. */
  search?: string;
}

/** Where cases come from; a viewer who may not see the guild's audit log sees only the dashboard's own. */
export type CaseSource = "dashboard" | "guild-log";
export const DASHBOARD_CASE_SOURCES: readonly CaseSource[] = ["dashboard"];

/** What of the cases a viewer may see (data/cases.ts): their sources (undefined: all), and whether who acted. */
export interface CaseScope {
  sources?: readonly CaseSource[];
  /** Who acted is not the viewer's to know: a search does not look at the moderator's name or id. */
  moderatorsHidden?: boolean;
}

export interface CaseView {
  id: string;
  number: number;
  type: CaseType;
  targetId: string;
  targetName: string;
  moderatorId: string;
  moderatorName: string;
  moderatorBot: boolean;
  reason: string | null;
  durationSeconds: number | null;
  endsAt: string | null;
  auditLogId: string | null;
  /** The audit-history entry it was read from (the case's link to it). */
  historyId: string;
  source: string;
  details: { added: { id: string; name: string | null }[]; removed: { id: string; name: string | null }[] } | null;
  createdAt: string;
  reasonEdits: number;
}

const DAY_MS = 86_400_000;

/** The where clause of a filter (also the CSV export's). */
export function caseWhere(
  guildId: string,
  filter: CaseFilter,
  { sources, moderatorsHidden = false }: CaseScope = {},
): Prisma.ModerationCaseWhereInput {
  const where: Prisma.ModerationCaseWhereInput = { guildId };
  if (sources) where.source = { in: [...sources] };
  if (filter.types?.length) where.type = { in: [...filter.types] };
  if (filter.moderatorId) where.moderatorId = filter.moderatorId;
  if (filter.targetId) where.targetId = filter.targetId;
  if (filter.from || filter.to)
    where.createdAt = {
      ...(filter.from ? { gte: new Date(`${filter.from}T00:00:00.000Z`) } : {}),
      ...(filter.to ? { lt: new Date(Date.parse(`${filter.to}T00:00:00.000Z`) + DAY_MS) } : {}),
    };
  const search = filter.search?.trim();
  if (search) {
    const number = /^#?(\d{1,9})$/.exec(search);
    // "#12" asks for case #12 (the number's index); "12" may also be words in a reason or a name.
    if (number && search.startsWith("#")) {
      where.number = Number(number[1]);
      return where;
    }
    where.OR = [
      ...(number ? [{ number: Number(number[1]) }] : []),
      { reason: containsText(search) },
      { targetName: containsText(search) },
      ...(moderatorsHidden ? [] : [{ moderatorName: containsText(search) }]),
      ...(/^\d{17,20}$/.test(search)
        ? [{ targetId: search }, ...(moderatorsHidden ? [] : [{ moderatorId: search }])]
        : []),
    ];
  }
  return where;
}

type CaseRow = Prisma.ModerationCaseGetPayload<{ include: { _count: { select: { reasonEdits: true } } } }>;

function toView(row: CaseRow): CaseView {
  return {
    id: row.id,
    number: row.number,
    type: row.type as CaseType,
    targetId: row.targetId,
    targetName: row.targetName,
    moderatorId: row.moderatorId,
    moderatorName: row.moderatorName,
    moderatorBot: row.moderatorBot,
    reason: row.reason,
    durationSeconds: row.durationSeconds,
    endsAt: row.endsAt?.toISOString() ?? null,
    auditLogId: row.auditLogId,
    historyId: row.historyId,
    source: row.source,
    details: row.details ? (JSON.parse(row.details) as CaseView["details"]) : null,
    createdAt: row.createdAt.toISOString(),
    reasonEdits: row._count.reasonEdits,
  };
}

/** An earlier reason of a case: who replaced it, when, and with what. */
export interface CaseReasonEditView {
  editorId: string;
  editorName: string;
  previous: string | null;
  next: string | null;
  at: string;
}

/** A case as a page lists it: with its reason's edits, oldest first. */
export type ListedCase = CaseView & { edits: CaseReasonEditView[] };

const WITH_EDITS = {
  _count: { select: { reasonEdits: true } },
  reasonEdits: { orderBy: { createdAt: "asc" } },
} satisfies Prisma.ModerationCaseInclude;

function toListed(row: Prisma.ModerationCaseGetPayload<{ include: typeof WITH_EDITS }>): ListedCase {
  return {
    ...toView(row),
    edits: row.reasonEdits.map((edit) => ({
      editorId: edit.editorId,
      editorName: edit.editorName,
      previous: edit.previous,
      next: edit.next,
      at: edit.createdAt.toISOString(),
    })),
  };
}

export const CASES_PAGE_SIZE = 50;

/**
 * One page of the guild's cases, newest first (by number), after `before` (a case number) when paging on: the page
 * and the number to ask for the next one with (null at the end).
 */
export async function listCases(
  guildId: string,
  filter: CaseFilter,
  {
    before = null,
    pageSize = CASES_PAGE_SIZE,
    scope,
  }: { before?: number | null; pageSize?: number; scope?: CaseScope } = {},
): Promise<{ cases: ListedCase[]; next: number | null }> {
  const where = caseWhere(guildId, filter, scope);
  const rows = await prisma.moderationCase.findMany({
    where: before === null ? where : { AND: [where, { number: { lt: before } }] },
    orderBy: { number: "desc" },
    take: pageSize + 1,
    include: WITH_EDITS,
  });
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize).map(toListed);
  return { cases: page, next: more ? page[page.length - 1].number : null };
}

/** Every case the filter matches, newest first, for the CSV (at most `max`). */
export async function exportCases(
  guildId: string,
  filter: CaseFilter,
  scope?: CaseScope,
  max = 100_000,
): Promise<CaseView[]> {
  const rows = await prisma.moderationCase.findMany({
    where: caseWhere(guildId, filter, scope),
    orderBy: { number: "desc" },
    take: max,
    include: { _count: { select: { reasonEdits: true } } },
  });
  return rows.map(toView);
}

/** One case by its number in the guild, with its reason's edits (oldest first); null when there is none. */
export async function getCase(guildId: string, number: number): Promise<ListedCase | null> {
  const row = await prisma.moderationCase.findUnique({
    where: { guildId_number: { guildId, number } },
    include: WITH_EDITS,
  });
  return row && toListed(row);
}

/** Changes a case's reason and keeps the change (who, when, from what); false when the guild has no such case. */
export async function editCaseReason(
  guildId: string,
  number: number,
  editor: { id: string; name: string },
  reason: string | null,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const row = await tx.moderationCase.findUnique({
      where: { guildId_number: { guildId, number } },
      select: { id: true, reason: true },
    });
    if (!row) return false;
    if ((row.reason ?? null) === (reason ?? null)) return true;
    await tx.caseReasonEdit.create({
      data: { caseId: row.id, editorId: editor.id, editorName: editor.name, previous: row.reason, next: reason },
    });
    await tx.moderationCase.update({ where: { id: row.id }, data: { reason } });
    return true;
  });
}

/** How many cases of each type a member has in the guild (the member panel's "3 warnings, 1 timeout"). */
export async function caseCountsFor(
  guildId: string,
  targetId: string,
  sources?: readonly CaseSource[],
): Promise<Partial<Record<CaseType, number>>> {
  const groups = await prisma.moderationCase.groupBy({
    by: ["type"],
    where: { guildId, targetId, ...(sources ? { source: { in: [...sources] } } : {}) },
    _count: { _all: true },
  });
  return Object.fromEntries(groups.map((group) => [group.type, group._count._all]));
}

/**
 * The moderators the guild's cases name (the Moderator filter's menu), by name: grouped in the database (Prisma's
 * `distinct` reads every row into JavaScript), with the name of their latest case.
 */
export async function caseModerators(
  guildId: string,
  sources?: readonly CaseSource[],
): Promise<Array<{ id: string; name: string }>> {
  const groups = await prisma.moderationCase.groupBy({
    by: ["moderatorId"],
    where: { guildId, ...(sources ? { source: { in: [...sources] } } : {}) },
    _max: { number: true },
    orderBy: { moderatorId: "asc" },
    take: 500,
  });
  const latest = await prisma.moderationCase.findMany({
    where: { guildId, number: { in: groups.map((group) => group._max.number!) } },
    select: { moderatorId: true, moderatorName: true },
  });
  return latest
    .map((row) => ({ id: row.moderatorId, name: row.moderatorName }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** When each of a member's cases of `type` was made (ms), newest first, at most `max`. */
export async function caseTimes(guildId: string, targetId: string, type: CaseType, max = 200): Promise<number[]> {
  const rows = await prisma.moderationCase.findMany({
    where: { guildId, targetId, type },
    orderBy: { number: "desc" },
    take: max,
    select: { createdAt: true },
  });
  return rows.map((row) => row.createdAt.getTime());
}

export async function getEscalationRules(guildId: string): Promise<EscalationRule[]> {
  const rows = await prisma.escalationRule.findMany({ where: { guildId }, orderBy: { createdAt: "asc" } });
  return rows.map((row) => ({
    id: row.id,
    warnings: row.warnings,
    withinDays: row.withinDays,
    action: row.action as EscalationRule["action"],
    durationSeconds: row.durationSeconds,
  }));
}

/** The guild's rules replaced by `rules`, in one transaction. */
export async function saveEscalationRules(guildId: string, rules: ReadonlyArray<Omit<EscalationRule, "id">>) {
  await prisma.$transaction([
    prisma.escalationRule.deleteMany({ where: { guildId } }),
    prisma.escalationRule.createMany({
      data: rules.map((rule, i) => ({ guildId, ...rule, createdAt: new Date(Date.now() + i) })),
    }),
  ]);
}
