// The dashboard's audit history: one row per mutation made from the dashboard (who, which spec operation, on what,
// why, the effective request, before/after snapshots, the outcome), in the dashboard's own Prisma table, beside the
// guild's own audit log imported into it (guild-log/), which its readers list only for those who may see that log.
import type { Prisma } from "@/lib/generated/prisma";
import { containsText, prisma } from "@/lib/dashboard/db";
import { DEFAULT_TIME_ORDER, type TimeOrder } from "@/lib/dashboard/list-params";
import type { AuditEntryView } from "./format";
import { recordDashboardChange, recordDashboardChanges } from "./guild-log/twins";
import { ACTIONS, actionLabel } from "./sentences";

export { auditEntriesToCsv, diffSnapshots, type AuditEntryView, type DiffRow } from "./format";

export interface AuditTarget {
  type: string;
  id?: string | null;
  name?: string | null;
  /** Other names the target went by then (username, global name, nickname), for the Target filter. */
  aliases?: readonly string[] | null;
}

export interface NewAuditEntry {
  guildId: string;
  actor: { id: string; name: string };
  /** The spec operation, e.g. "Modify Guild Role". */
  action: string;
  target?: AuditTarget | null;
  reason?: string | null;
  request?: unknown;
  before?: unknown;
  after?: unknown;
  status: "success" | "error";
  httpStatus?: number | null;
  error?: string | null;
  /** When the change was made, for one filed later than that (the scheduler files a batch's calls after the batch). */
  at?: Date;
}

export type AuditRecorder = (entry: NewAuditEntry) => Promise<void>;

const json = (value: unknown) =>
  value === undefined ? null : JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

/** The aliases column: distinct names, one a line; null when there are none. */
export function aliasesText(aliases: readonly (string | null | undefined)[] | null | undefined): string | null {
  const names = [...new Set((aliases ?? []).map((name) => name?.trim()).filter(Boolean))];
  return names.length ? names.join("\n") : null;
}

/** An entry as its row. */
const rowOf = (entry: NewAuditEntry) => ({
  guildId: entry.guildId,
  actorId: entry.actor.id,
  actorName: entry.actor.name,
  action: entry.action,
  targetType: entry.target?.type ?? null,
  targetId: entry.target?.id ?? null,
  targetName: entry.target?.name ?? null,
  targetAliases: aliasesText(entry.target?.aliases),
  reason: entry.reason || null,
  request: json(entry.request),
  before: json(entry.before),
  after: json(entry.after),
  status: entry.status,
  httpStatus: entry.httpStatus ?? null,
  error: entry.error ?? null,
});

/** A success is matched to the guild's own entry for it when that was imported first (guild-log/twins.ts). */
export const recordAuditEntry: AuditRecorder = async (entry) => {
  if (entry.status === "success") await recordDashboardChange(rowOf(entry));
  else await prisma.auditHistoryEntry.create({ data: rowOf(entry) });
};

/** Successes recorded together (the scheduler's batch): one matching and one transaction per guild. */
export async function recordAuditSuccesses(entries: readonly NewAuditEntry[]): Promise<void> {
  for (const guildId of new Set(entries.map((entry) => entry.guildId)))
    await recordDashboardChanges(
      guildId,
      entries
        .filter((entry) => entry.guildId === guildId && entry.status === "success")
        .map((entry) => ({ ...rowOf(entry), createdAt: entry.at })),
    );
}

export interface AuditFilter {
  /** The actor's id, or part of their name. */
  actor?: string;
  /** An action's filter label ("Ban"), or an operation name. */
  action?: string;
  /** Matches the target's id exactly, or by substring its name or any name it went by then (username, nickname…). */
  target?: string;
  /** Inclusive ISO dates (yyyy-mm-dd) in UTC. */
  from?: string;
  to?: string;
  status?: "success" | "error";
  /** Words the reason contains. */
  q?: string;
  /** "dashboard" or "guild-log". */
  source?: AuditSource;
  /** One entry: its id in this history, or the guild audit-log entry's id it was read from or matched to (a case's link). */
  entry?: string;
}

/** Time, then id (two entries of the same millisecond keep one order, so a page's cursor never skips or repeats). */
const orderBy = (order: TimeOrder): Prisma.AuditHistoryEntryOrderByWithRelationInput[] => {
  const direction = order === "oldest" ? "asc" : "desc";
  return [{ createdAt: direction }, { id: direction }];
};

/** Where an entry listed in the history comes from: the dashboard's own record, or the guild's audit log imported. */
export type AuditSource = "dashboard" | "guild-log";

/**
 * What a reader sees when nobody says more: the dashboard's own entries. The guild's log is listed only to a caller
 * that passes it, for a reader who may see it (lib/dashboard/data/audit-history.ts decides, from the policy table), so
 * a forgotten check shows less, never more.
 */
export const DASHBOARD_SOURCES: readonly AuditSource[] = ["dashboard"];
export const ALL_AUDIT_SOURCES: readonly AuditSource[] = ["dashboard", "guild-log"];
/** The other source stored: a guild entry that is one of the many a single dashboard change made, never listed. */
const UNLISTED_SOURCES = ["part"] as const;

/** The operation names recorded under a filter label ("Prune preview" covers both names previews were recorded as). */
function actionsFor(labelOrAction: string): string[] {
  const names = Object.keys(ACTIONS).filter((name) => ACTIONS[name].label === labelOrAction);
  return names.length ? names : [labelOrAction];
}

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * The rows a reader sees: only the sources they may see (a filter for another source matches nothing), and never
 * the guild entries that are parts of one dashboard change (a bulk-ban chunk's bans, a reorder's moves).
 */
function where(
  guildId: string,
  filter: AuditFilter,
  sources: readonly AuditSource[],
): Prisma.AuditHistoryEntryWhereInput {
  const and: Prisma.AuditHistoryEntryWhereInput[] = [{ guildId }];
  const visible = filter.source ? sources.filter((source) => source === filter.source) : sources;
  // Every listed source: "not a part", which SQLite reads along (guildId, createdAt), newest first, up to the page. One
  // source: equality, along (guildId, source, createdAt). An IN of both would read both sources whole, then sort them.
  and.push(
    ALL_AUDIT_SOURCES.every((source) => visible.includes(source))
      ? { source: { notIn: [...UNLISTED_SOURCES] } }
      : { source: { in: [...visible] } },
  );
  if (filter.actor) and.push({ OR: [{ actorId: filter.actor }, { actorName: containsText(filter.actor) }] });
  if (filter.action) and.push({ action: { in: actionsFor(filter.action) } });
  if (filter.target)
    and.push({
      OR: [
        { targetId: filter.target },
        { targetName: containsText(filter.target) },
        { targetAliases: containsText(filter.target) },
      ],
    });
  if (filter.status) and.push({ status: filter.status });
  if (filter.q) and.push({ reason: containsText(filter.q) });
  if (filter.entry) and.push({ OR: [{ id: filter.entry }, { auditLogId: filter.entry }] });
  const from = filter.from ? new Date(`${filter.from}T00:00:00.000Z`) : null;
  const to = filter.to ? new Date(`${filter.to}T00:00:00.000Z`) : null;
  if (from && !Number.isNaN(from.getTime())) and.push({ createdAt: { gte: from } });
  if (to && !Number.isNaN(to.getTime())) and.push({ createdAt: { lt: new Date(to.getTime() + 86_400_000) } });
  return { AND: and };
}

function toView(row: Prisma.AuditHistoryEntryGetPayload<object>): AuditEntryView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actorId: row.actorId,
    actorName: row.actorName,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetName: row.targetName,
    reason: row.reason,
    request: parse(row.request),
    before: parse(row.before),
    after: parse(row.after),
    status: row.status,
    httpStatus: row.httpStatus,
    error: row.error,
    source: row.source,
    auditLogId: row.auditLogId,
    actorBot: row.actorBot,
  };
}

/**
 * One page in `page.order` (newest first unless told); `cursor` is the id of the last entry of the previous page in
 * that same order (Prisma's cursor starts after that row whichever way the list runs, so a page reached oldest first
 * continues oldest first); `sources`: what the reader may see.
 */
export async function listAuditEntries(
  guildId: string,
  filter: AuditFilter,
  page: { limit: number; cursor?: string; order?: TimeOrder },
  sources: readonly AuditSource[] = DASHBOARD_SOURCES,
): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
  const rows = await prisma.auditHistoryEntry.findMany({
    where: where(guildId, filter, sources),
    orderBy: orderBy(page.order ?? DEFAULT_TIME_ORDER),
    take: page.limit + 1,
    ...(page.cursor ? { cursor: { id: page.cursor }, skip: 1 } : {}),
  });
  const entries = rows.slice(0, page.limit).map(toView);
  return { entries, nextCursor: rows.length > page.limit ? entries[entries.length - 1].id : null };
}

/** Everything matching the filter, newest first (CSV export), capped; `sources` as for listAuditEntries. */
export async function exportAuditEntries(
  guildId: string,
  filter: AuditFilter,
  max = 10_000,
  sources: readonly AuditSource[] = DASHBOARD_SOURCES,
): Promise<AuditEntryView[]> {
  const rows = await prisma.auditHistoryEntry.findMany({
    where: where(guildId, filter, sources),
    orderBy: orderBy("newest"),
    take: max,
  });
  return rows.map(toView);
}

/** UTF-8 byte order (SQLite's BINARY, PostgreSQL's "C"), which is code point order; `<` on strings compares UTF-16 units. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The actors and actions seen in the sources of a guild's history the reader may see (filter menus; actions by label). */
export async function auditFacets(
  guildId: string,
  sources: readonly AuditSource[] = DASHBOARD_SOURCES,
): Promise<{ actors: Array<{ id: string; name: string }>; actions: string[] }> {
  // Each source's distinct values, skipping from one to the next along an index ((guildId, source, action) and
  // (guildId, source, actorId, actorName)): a seek per value. A GROUP BY read the whole history on every visit, and the
  // history grows by every change the guild's audit log imports (~20,000 entries an hour of the soak: 60 ms a render).
  const perSource = await Promise.all(
    sources.map(async (source) => {
      const [actions, actors] = await Promise.all([
        prisma.$queryRaw<Array<{ action: string }>>`
          WITH RECURSIVE seen("action") AS (
            SELECT MIN("action") FROM "audit_history_entries" WHERE "guildId" = ${guildId} AND "source" = ${source}
            UNION ALL
            SELECT (SELECT MIN(e."action") FROM "audit_history_entries" e
                    WHERE e."guildId" = ${guildId} AND e."source" = ${source} AND e."action" > seen."action")
            FROM seen WHERE seen."action" IS NOT NULL
          )
          SELECT "action" FROM seen WHERE "action" IS NOT NULL`,
        prisma.$queryRaw<Array<{ actorId: string; actorName: string }>>`
          WITH RECURSIVE seen("actorId") AS (
            SELECT MIN("actorId") FROM "audit_history_entries" WHERE "guildId" = ${guildId} AND "source" = ${source}
            UNION ALL
            SELECT (SELECT MIN(e."actorId") FROM "audit_history_entries" e
                    WHERE e."guildId" = ${guildId} AND e."source" = ${source} AND e."actorId" > seen."actorId")
            FROM seen WHERE seen."actorId" IS NOT NULL
          )
          SELECT seen."actorId" AS "actorId",
                 (SELECT MIN(e."actorName") FROM "audit_history_entries" e
                  WHERE e."guildId" = ${guildId} AND e."source" = ${source} AND e."actorId" = seen."actorId") AS "actorName"
          FROM seen WHERE seen."actorId" IS NOT NULL`,
      ]);
      return { actions, actors };
    }),
  );
  // One row per person, under the first of their names in order (someone renamed appears under two), in the byte order
  // the database compares them in (PostgreSQL's columns are COLLATE "C").
  const firstName = new Map<string, string>();
  for (const { actorId, actorName } of perSource.flatMap((found) => found.actors)) {
    const known = firstName.get(actorId);
    if (known === undefined || byteOrder(actorName, known) < 0) firstName.set(actorId, actorName);
  }
  return {
    actors: [...firstName]
      .map(([id, name]) => ({ id, name }))
      .sort((a, b) => byteOrder(a.name, b.name) || byteOrder(a.id, b.id)),
    actions: [...new Set(perSource.flatMap((found) => found.actions).map((a) => actionLabel(a.action)))].sort(),
  };
}

export interface LatestAction {
  actorId: string;
  actorName: string;
  actorBot: boolean;
  source: string;
  createdAt: string;
}

/** For each target, who last did one of `actions` to it successfully, and when (e.g. who banned each banned user). */
export async function latestActionsOn(
  guildId: string,
  actions: readonly string[],
  targetIds: readonly string[],
): Promise<Map<string, LatestAction>> {
  // Unordered, so the planner seeks (guildId, targetId, createdAt) per target: asked for the newest first, SQLite walked
  // (guildId, createdAt) to skip a sort and read the guild's whole history (17 ms at 46,000 entries, per Bans page).
  // A target has a few such entries: the newest is picked here.
  const rows = await prisma.auditHistoryEntry.findMany({
    where: { guildId, action: { in: [...actions] }, status: "success", targetId: { in: [...targetIds] } },
    select: { id: true, targetId: true, actorId: true, actorName: true, actorBot: true, source: true, createdAt: true },
  });
  const newest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    if (!row.targetId) continue;
    const seen = newest.get(row.targetId);
    // Later, or at the same moment the greater id (the old ORDER BY createdAt DESC, id DESC).
    if (!seen || (row.createdAt.getTime() - seen.createdAt.getTime() || byteOrder(row.id, seen.id)) > 0)
      newest.set(row.targetId, row);
  }
  const latest = new Map<string, LatestAction>();
  for (const [targetId, { actorId, actorName, actorBot, source, createdAt }] of newest)
    latest.set(targetId, { actorId, actorName, actorBot, source, createdAt: createdAt.toISOString() });
  return latest;
}
