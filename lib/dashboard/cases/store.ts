// The moderation cases of each guild, in the dashboard's Prisma tables (issue #32). Cases are read off the audit
// history (derive.ts): syncCases takes the guild's history entries not read yet, oldest first, numbers their cases
// (#1, #2, … per guild, from case_counters) and marks the entries read, all in one transaction per batch that first
// writes the guild's counter row: two syncs of one guild take turns there (PostgreSQL's row lock, SQLite's single
// writer), so an entry makes its cases exactly once; the unique key (historyId, type, targetId) backs that up.
import type { Prisma } from "@/lib/generated/prisma";
import { containsText, prisma } from "@/lib/dashboard/db";
import { CASE_ACTIONS, casesFromHistoryEntry, type CaseDraft, type CaseType } from "./derive";
import type { EscalationRule } from "./escalation";
import { cancelScheduled, scheduleForCase } from "./schedule";

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
 * Numbers and writes the drafts, and keeps what is scheduled in step with them: a new ban or an unban cancels a
 * temporary ban's pending end for that user, a new timeout or its removal a pending renewal; then a temporary ban or
 * a timeout past the cap schedules its own (schedule.ts).
 */
async function insertCases(tx: Tx, guildId: string, drafts: readonly CaseDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  const first = await takeNumbers(tx, guildId, drafts.length);
  const created = await tx.moderationCase.createManyAndReturn({
    data: drafts.map((draft, i) => ({
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
    })),
    select: { id: true, number: true },
  });
  const idOf = new Map(created.map((row) => [row.number, row.id]));
  for (const [i, draft] of drafts.entries()) {
    if (draft.type === "ban" || draft.type === "unban") await cancelScheduled(tx, guildId, draft.targetId, "unban");
    if (draft.type === "timeout" || draft.type === "timeout_removed")
      await cancelScheduled(tx, guildId, draft.targetId, "renew_timeout");
    await scheduleForCase(tx, guildId, idOf.get(first + i)!, draft);
  }
}

/**
 * Makes the cases of every history entry of the guild not read yet; returns how many cases it made. Entries are
 * taken oldest first, so case numbers follow the order the actions happened in within each batch.
 */
export async function syncCases(guildId: string): Promise<number> {
  let made = 0;
  for (;;) {
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
      const drafts = entries
        .filter((entry) => (CASE_ACTIONS as readonly string[]).includes(entry.action))
        .flatMap(casesFromHistoryEntry);
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
}

/** A history entry matched to its guild audit-log entry later (a twin): its cases link to that entry too. */
export async function linkCasesToAuditLog(historyId: string, auditLogId: string): Promise<void> {
  await prisma.moderationCase.updateMany({ where: { historyId, auditLogId: null }, data: { auditLogId } });
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
  sources?: readonly CaseSource[],
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
    where.OR = [
      ...(number ? [{ number: Number(number[1]) }] : []),
      { reason: containsText(search) },
      { targetName: containsText(search) },
      { moderatorName: containsText(search) },
      ...(/^\d{17,20}$/.test(search) ? [{ targetId: search }, { moderatorId: search }] : []),
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
    source: row.source,
    details: row.details ? (JSON.parse(row.details) as CaseView["details"]) : null,
    createdAt: row.createdAt.toISOString(),
    reasonEdits: row._count.reasonEdits,
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
    sources,
  }: { before?: number | null; pageSize?: number; sources?: readonly CaseSource[] } = {},
): Promise<{ cases: CaseView[]; next: number | null }> {
  const where = caseWhere(guildId, filter, sources);
  const rows = await prisma.moderationCase.findMany({
    where: before === null ? where : { AND: [where, { number: { lt: before } }] },
    orderBy: { number: "desc" },
    take: pageSize + 1,
    include: { _count: { select: { reasonEdits: true } } },
  });
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize).map(toView);
  return { cases: page, next: more ? page[page.length - 1].number : null };
}

/** Every case the filter matches, newest first, for the CSV (at most `max`). */
export async function exportCases(
  guildId: string,
  filter: CaseFilter,
  sources?: readonly CaseSource[],
  max = 100_000,
): Promise<CaseView[]> {
  const rows = await prisma.moderationCase.findMany({
    where: caseWhere(guildId, filter, sources),
    orderBy: { number: "desc" },
    take: max,
    include: { _count: { select: { reasonEdits: true } } },
  });
  return rows.map(toView);
}

/** One case by its number in the guild, with its reason's edits (oldest first); null when there is none. */
export async function getCase(
  guildId: string,
  number: number,
): Promise<
  (CaseView & { edits: { editorName: string; previous: string | null; next: string | null; at: string }[] }) | null
> {
  const row = await prisma.moderationCase.findUnique({
    where: { guildId_number: { guildId, number } },
    include: { _count: { select: { reasonEdits: true } }, reasonEdits: { orderBy: { createdAt: "asc" } } },
  });
  if (!row) return null;
  return {
    ...toView(row),
    edits: row.reasonEdits.map((edit) => ({
      editorName: edit.editorName,
      previous: edit.previous,
      next: edit.next,
      at: edit.createdAt.toISOString(),
    })),
  };
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

/** The moderators the guild's cases name (the Moderator filter's menu), by name. */
export async function caseModerators(
  guildId: string,
  sources?: readonly CaseSource[],
): Promise<Array<{ id: string; name: string }>> {
  const rows = await prisma.moderationCase.findMany({
    where: { guildId, ...(sources ? { source: { in: [...sources] } } : {}) },
    distinct: ["moderatorId"],
    select: { moderatorId: true, moderatorName: true },
    orderBy: { moderatorId: "asc" },
    take: 500,
  });
  return rows
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
