// Cases as the dashboard's pages read them (issue #32): the guild's audit log imported first, so that what a bot or
// Discord's client did becomes cases too, then the cases the viewer may see. The policy table's rule for the guild's
// own log holds here as in the audit history: cases read off it (source "guild-log": who acted outside the dashboard,
// and why) only with View Audit Log; without it a moderator sees the cases made through the dashboard.
import "server-only";
import {
  caseCountsFor,
  caseModerators,
  DASHBOARD_CASE_SOURCES,
  exportCases,
  listCases,
  syncCases,
  type CaseFilter,
  type CaseSource,
  type CaseView,
} from "@/lib/dashboard/cases/store";
import type { CaseType } from "@/lib/dashboard/cases/derive";
import { guildLogHidden } from "./audit-history";
import { syncAuditLog, type AuditLogSync } from "./audit-log";
import type { GuildViewer } from "./viewer";

/** The case sources the viewer may see (undefined: all). */
export function caseSourcesFor(viewer: Pick<GuildViewer, "permissions">): readonly CaseSource[] | undefined {
  return guildLogHidden(viewer) ? DASHBOARD_CASE_SOURCES : undefined;
}

async function upToDate(viewer: GuildViewer, waitMs?: number): Promise<AuditLogSync> {
  const sync = await syncAuditLog(viewer, waitMs);
  // The dashboard's own entries make their cases when recorded; this catches any left (an entry written before
  // cases existed, a sync that lost a race).
  await syncCases(viewer.guild.id);
  return sync;
}

export async function getCasesPage(
  viewer: GuildViewer,
  filter: CaseFilter,
  before: number | null,
): Promise<{ cases: CaseView[]; next: number | null; sync: AuditLogSync }> {
  const sync = await upToDate(viewer);
  const page = await listCases(viewer.guild.id, filter, { before, sources: caseSourcesFor(viewer) });
  return { ...page, sync };
}

/** The CSV's cases: every case the filter matches that the viewer may see. */
export async function exportGuildCases(viewer: GuildViewer, filter: CaseFilter, waitMs?: number): Promise<CaseView[]> {
  await upToDate(viewer, waitMs);
  return exportCases(viewer.guild.id, filter, caseSourcesFor(viewer));
}

/** The member panel's case history: counts by type and the latest cases. */
export async function getMemberCases(
  viewer: GuildViewer,
  userId: string,
  latest = 10,
): Promise<{ counts: Partial<Record<CaseType, number>>; cases: CaseView[] }> {
  await upToDate(viewer);
  const sources = caseSourcesFor(viewer);
  const [counts, page] = await Promise.all([
    caseCountsFor(viewer.guild.id, userId, sources),
    listCases(viewer.guild.id, { targetId: userId }, { pageSize: latest, sources }),
  ]);
  return { counts, cases: page.cases };
}

/** The Moderator filter's menu: the people the viewer's cases name. */
export function getCaseModerators(viewer: GuildViewer): Promise<Array<{ id: string; name: string }>> {
  return caseModerators(viewer.guild.id, caseSourcesFor(viewer));
}
