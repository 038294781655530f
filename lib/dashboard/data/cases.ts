// Cases as the dashboard's pages read them (issue #32): the guild's audit log imported first, so that what a bot or
// Discord's client did becomes cases too, then the cases the viewer may see. The policy table's rule for the guild's
// own log holds here as in the audit history: cases read off it (source "guild-log": who acted outside the dashboard,
// and why) only with View Audit Log; without it a moderator sees the cases made through the dashboard. Who acted is
// the audit log's to tell too (ACTORS_REQUIREMENT, as on Bans and in the live stream): without View Audit Log a case
// names its moderator only when that is the viewer, and the search and the Moderator filter do not look at the rest.
import "server-only";
import {
  caseCountsFor,
  caseModerators,
  DASHBOARD_CASE_SOURCES,
  exportCases,
  listCases,
  syncCases,
  type CaseFilter,
  type CaseReasonEditView,
  type CaseScope,
  type CaseSource,
  type CaseView,
  type ListedCase,
} from "@/lib/dashboard/cases/store";
import type { CaseType } from "@/lib/dashboard/cases/derive";
import { ACTORS_REQUIREMENT, meetsRequirement } from "@/lib/discord/policies";
import { guildLogHidden } from "./audit-history";
import { syncAuditLog, type AuditLogSync } from "./audit-log";
import type { GuildViewer } from "./viewer";

/** The case sources the viewer may see (undefined: all). */
export function caseSourcesFor(viewer: Pick<GuildViewer, "permissions">): readonly CaseSource[] | undefined {
  return guildLogHidden(viewer) ? DASHBOARD_CASE_SOURCES : undefined;
}

/** What of the cases the viewer may see. */
function caseScopeFor(viewer: Pick<GuildViewer, "permissions">): CaseScope {
  return {
    sources: caseSourcesFor(viewer),
    moderatorsHidden: !meetsRequirement(viewer.permissions, ACTORS_REQUIREMENT),
  };
}

/** The moderator shown in place of one the viewer may not be told of. */
const HIDDEN_MODERATOR = { moderatorId: "", moderatorName: "A moderator", moderatorBot: false } as const;

/** The filter as the viewer may ask it: by moderator only for themselves when who acted is hidden from them. */
function scopedFilter(viewer: GuildViewer, filter: CaseFilter, scope: CaseScope): CaseFilter {
  if (!scope.moderatorsHidden || !filter.moderatorId || filter.moderatorId === viewer.self.userId) return filter;
  return { ...filter, moderatorId: undefined };
}

/**
 * The cases as the viewer may read them: other moderators' names taken out, as the case's and as its reason's
 * editors, when who acted is hidden from them.
 */
function shown<T extends CaseView & { edits?: CaseReasonEditView[] }>(
  viewer: GuildViewer,
  scope: CaseScope,
  cases: T[],
): T[] {
  if (!scope.moderatorsHidden) return cases;
  const self = viewer.self.userId;
  return cases.map((c) => ({
    ...c,
    ...(c.moderatorId === self ? {} : HIDDEN_MODERATOR),
    ...(c.edits && {
      edits: c.edits.map((edit) =>
        edit.editorId === self ? edit : { ...edit, editorId: "", editorName: HIDDEN_MODERATOR.moderatorName },
      ),
    }),
  }));
}

/** History entries a page view reads into cases at most: a long backlog is read over a few views, none waits for all. */
const CASES_PER_PAGE_VIEW = 5_000;

async function upToDate(viewer: GuildViewer, waitMs?: number): Promise<AuditLogSync> {
  const sync = await syncAuditLog(viewer, waitMs);
  // The dashboard's own entries make their cases when recorded; this catches any left (an entry written before
  // cases existed, a sync that lost a race).
  await syncCases(viewer.guild.id, CASES_PER_PAGE_VIEW);
  return sync;
}

export async function getCasesPage(
  viewer: GuildViewer,
  filter: CaseFilter,
  before: number | null,
): Promise<{ cases: ListedCase[]; next: number | null; sync: AuditLogSync }> {
  const sync = await upToDate(viewer);
  const scope = caseScopeFor(viewer);
  const page = await listCases(viewer.guild.id, scopedFilter(viewer, filter, scope), { before, scope });
  return { ...page, cases: shown(viewer, scope, page.cases), sync };
}

/** The CSV's cases: every case the filter matches that the viewer may see. */
export async function exportGuildCases(viewer: GuildViewer, filter: CaseFilter, waitMs?: number): Promise<CaseView[]> {
  await upToDate(viewer, waitMs);
  const scope = caseScopeFor(viewer);
  return shown(viewer, scope, await exportCases(viewer.guild.id, scopedFilter(viewer, filter, scope), scope));
}

/** The member panel's case history: counts by type and the latest cases. */
export async function getMemberCases(
  viewer: GuildViewer,
  userId: string,
  latest = 10,
): Promise<{ counts: Partial<Record<CaseType, number>>; cases: ListedCase[] }> {
  await upToDate(viewer);
  const scope = caseScopeFor(viewer);
  const [counts, page] = await Promise.all([
    caseCountsFor(viewer.guild.id, userId, scope.sources),
    listCases(viewer.guild.id, { targetId: userId }, { pageSize: latest, scope }),
  ]);
  return { counts, cases: shown(viewer, scope, page.cases) };
}

/** The Moderator filter's menu: the people the viewer's cases name (only the viewer, when who acted is hidden). */
export async function getCaseModerators(viewer: GuildViewer): Promise<Array<{ id: string; name: string }>> {
  const scope = caseScopeFor(viewer);
  const moderators = await caseModerators(viewer.guild.id, scope.sources);
  return scope.moderatorsHidden ? moderators.filter((m) => m.id === viewer.self.userId) : moderators;
}
