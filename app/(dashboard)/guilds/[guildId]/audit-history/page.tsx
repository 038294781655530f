// Audit history: every change to the server, made from this dashboard or (imported from the guild's own audit log)
// by bots and other clients, a table row each (when, who, what, on what, why, where, whether it worked); newest or
// oldest first by the When header, filterable by moderator, action, target, date, source and reason, with the changes
// in words per entry and CSV export of the filtered list. A viewer without View Audit Log (Manage
// Server opens the section) sees the dashboard's own entries only, and the page says so (data/audit-history.ts).
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { Icons } from "@/components/ui/icons";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { getAuditFacets, getAuditHistoryPage, guildLogHidden } from "@/lib/dashboard/data/audit-history";
import { AuditFilters } from "./_components/audit-filters";
import { AuditTable } from "./_components/audit-table";
import {
  cursorTrail,
  DEFAULT_TIME_ORDER,
  firstParam,
  listHref,
  trailPager,
  type TrailLink,
} from "@/lib/dashboard/list-params";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";
import { auditFilterFrom, auditFilterQuery, auditOrderFrom } from "./filters";

export const metadata: Metadata = { title: "Audit history" };

const PAGE_SIZE = 50;
// The dashboard's own audit rows have cuid ids.
const AUDIT_CURSOR = /^[a-z0-9]+$/;

export default async function AuditHistoryPage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "audit-history");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;

  const filter = auditFilterFrom(query);
  const order = auditOrderFrom(query);
  // The cursor is the last entry of the page before, in this order: a new order starts again at the first page (the
  // table clears the cursor and trail with the sort).
  const cursor = firstParam(query.cursor) || undefined;
  const trail = cursorTrail(firstParam(query.trail), AUDIT_CURSOR);
  const [{ rows, nextCursor, sync }, hiddenColumns] = await Promise.all([
    getAuditHistoryPage(viewer, filter, { limit: PAGE_SIZE, cursor, order }),
    getHiddenColumns(viewer.session.actor.id, "audit-history"),
  ]);
  // After the page, which imports the guild's log first: the menus offer the people and actions just imported.
  const facets = await getAuditFacets(viewer);
  const filterQuery = auditFilterQuery(filter);
  const pager = trailPager(cursor, trail, nextCursor);
  const sort = order === DEFAULT_TIME_ORDER ? null : order;
  const href = (link: TrailLink | null) =>
    link && listHref(`/guilds/${guildId}/audit-history`, { ...filter, sort, ...link });
  const exportHref = `/guilds/${guildId}/audit-history/export${filterQuery ? `?${filterQuery}` : ""}`;

  return (
    <>
      <PageHeader
        title="Audit history"
        description={section.description}
        actions={
          <a href={exportHref} className={buttonClasses("secondary")} download>
            <Icons.download className="size-4" /> Export CSV
          </a>
        }
      />
      {sync.ok && sync.pending && (
        <p role="note" className="mb-4 rounded-md border border-line bg-surface-sunken/60 p-3 text-sm">
          Still importing the server&apos;s audit log (newest first): older entries appear as it goes. Reload to see
          them.
        </p>
      )}
      {!sync.ok && (
        <p role="note" className="mb-4 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
          Showing changes made in this dashboard only. {sync.reason}
        </p>
      )}
      <AuditFilters actors={facets.actors} actions={facets.actions} guildLog={!guildLogHidden(viewer)} />
      <AuditTable
        rows={rows}
        order={order}
        filtered={Boolean(filterQuery)}
        hiddenColumns={hiddenColumns}
        pagination={{
          page: trail.length + 1,
          previousHref: href(pager.previous),
          nextHref: href(pager.next),
        }}
      />
    </>
  );
}
