// Cases (issue #32): every moderation action as a numbered case (#1, #2, … per server), made in this dashboard or,
// read off the server's audit log, by bots and Discord's client; warnings and private notes from the member panel.
// Newest first, filterable by type, moderator, member and dates, searchable by number and words, each reason editable
// with its edits kept, and the filtered list as CSV. Without View Audit Log a moderator sees the dashboard's cases
// only, and the page says so (data/cases.ts).
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { Icons } from "@/components/ui/icons";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { getCaseModerators, getCasesPage } from "@/lib/dashboard/data/cases";
import { cursorTrail, firstParam, trailPager, type TrailLink } from "@/lib/dashboard/list-params";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";
import { CaseFilters } from "./_components/case-filters";
import { CasesTable } from "./_components/cases-table";
import { caseFilterFrom, caseFilterParams } from "./filters";

export const metadata: Metadata = { title: "Cases" };

const CASE_NUMBER = /^\d{1,9}$/;

export default async function CasesPage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "cases");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;

  const filter = caseFilterFrom(query);
  const before = firstParam(query.before);
  const cursor = before && CASE_NUMBER.test(before) ? before : undefined;
  const trail = cursorTrail(firstParam(query.trail), CASE_NUMBER);
  const [{ cases, next, sync }, hiddenColumns] = await Promise.all([
    getCasesPage(viewer, filter, cursor ? Number(cursor) : null),
    getHiddenColumns(viewer.session.actor.id, "cases"),
  ]);
  const moderators = await getCaseModerators(viewer);
  const filterParams = caseFilterParams(filter);
  const pager = trailPager(cursor, trail, next === null ? null : String(next));
  const href = (link: TrailLink | null) => {
    if (!link) return null;
    const params = new URLSearchParams(filterParams);
    if (link.cursor) params.set("before", link.cursor);
    if (link.trail) params.set("trail", link.trail);
    const text = params.toString();
    return `/guilds/${guildId}/cases${text ? `?${text}` : ""}`;
  };
  const exportHref = `/guilds/${guildId}/cases/export${filterParams.size ? `?${filterParams}` : ""}`;

  return (
    <>
      <PageHeader
        title="Cases"
        description={section.description}
        actions={
          <>
            <Link prefetch={false} href={`/guilds/${guildId}/cases/escalation`} className={buttonClasses("secondary")}>
              Escalation
            </Link>
            <a href={exportHref} className={buttonClasses("secondary")} download>
              <Icons.download className="size-4" /> Export CSV
            </a>
          </>
        }
      />
      {!sync.ok && (
        <p role="note" className="mb-4 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
          Showing cases made in this dashboard only. {sync.reason}
        </p>
      )}
      <CaseFilters moderators={moderators} />
      <CasesTable
        guildId={guildId}
        cases={cases}
        filtered={filterParams.size > 0}
        hiddenColumns={hiddenColumns}
        pagination={{ page: trail.length + 1, previousHref: href(pager.previous), nextHref: href(pager.next) }}
      />
    </>
  );
}
