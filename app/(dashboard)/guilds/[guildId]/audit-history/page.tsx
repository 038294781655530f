// Audit history: every change to the server, made from this dashboard or (imported from the guild's own audit log)
// by bots and other clients, each as a sentence; filterable by moderator, action, target, date, source and reason,
// with the changes in words per entry and CSV export of the filtered list.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { Icons } from "@/components/ui/icons";
import { NoAccess } from "@/components/dashboard/no-access";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { auditFacets } from "@/lib/dashboard/audit/history";
import { getAuditHistoryPage } from "@/lib/dashboard/data/audit-history";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";
import { AuditFilters } from "./_components/audit-filters";
import { AuditList } from "./_components/audit-list";
import { auditFilterFrom, auditFilterQuery } from "./filters";

export const metadata: Metadata = { title: "Audit history" };

const PAGE_SIZE = 50;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AuditHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string }>;
  searchParams: SearchParams;
}) {
  const { guildId } = await params;
  const query = await searchParams;
  const viewer = await getGuildViewer(guildId);
  const section = findSection("audit-history")!;
  const blocked = sectionDisabledReason(section, viewer.permissions);
  if (blocked)
    return (
      <>
        <PageHeader title="Audit history" description={section.description} />
        <NoAccess section="Audit history" reason={blocked} />
      </>
    );

  const filter = auditFilterFrom(query);
  const cursor = typeof query.cursor === "string" && query.cursor ? query.cursor : undefined;
  const trail = typeof query.trail === "string" && query.trail ? query.trail.split(",") : [];
  const { rows, nextCursor, sync } = await getAuditHistoryPage(viewer, filter, { limit: PAGE_SIZE, cursor });
  const facets = await auditFacets(guildId);
  const filterQuery = auditFilterQuery(filter);
  const href = (nextCursorValue: string | null, nextTrail: string[]) => {
    const p = new URLSearchParams(filterQuery);
    if (nextCursorValue) p.set("cursor", nextCursorValue);
    if (nextTrail.length) p.set("trail", nextTrail.join(","));
    const s = p.toString();
    return `/guilds/${guildId}/audit-history${s ? `?${s}` : ""}`;
  };
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
      {!sync.ok && (
        <p role="note" className="mb-4 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
          Showing changes made in this dashboard only. {sync.reason}
        </p>
      )}
      <AuditFilters actors={facets.actors} actions={facets.actions} />
      <AuditList
        rows={rows}
        filtered={Boolean(filterQuery)}
        pager={{
          page: trail.length + 1,
          previousHref: cursor
            ? href(trail.at(-1) && trail.at(-1) !== "-" ? trail.at(-1)! : null, trail.slice(0, -1))
            : null,
          nextHref: nextCursor ? href(nextCursor, [...trail, cursor ?? "-"]) : null,
        }}
      />
    </>
  );
}
