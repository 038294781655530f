// Bans: a server-paged list (Get Guild Bans between before/after cursors, page state in the URL) in either order of
// the banned users' ids (account age: the column header and the Sort by select), search by id (exact) or name (a scan
// of the list, said so on the page), unban with a reason, CSV export, and bulk ban.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense, use } from "react";
import { settledForUse, settleWithin } from "@/lib/dashboard/streaming";
import { DisabledReason, PageHeader, Skeleton } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { Icons } from "@/components/ui/icons";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { BAN_NAME_SCAN_MAX, BAN_PAGE_SIZE, getBanPage, type BanCursor } from "@/lib/dashboard/data/bans";
import { banOrderOf, DEFAULT_BAN_SORT, parseBanSort, type BanSortKey } from "@/lib/dashboard/data/ban-sorts";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";
import { banActorsHidden, getBanActors } from "@/lib/dashboard/data/ban-actors";
import { refusal, type GuildViewer } from "@/lib/dashboard/data/viewer";
import { cursorTrail, firstParam as one, listHref, pageNumber, trailPager } from "@/lib/dashboard/list-params";
import { BanById } from "./_components/ban-by-id";
import { BanSearch } from "./_components/ban-search";
import { BansTable } from "./_components/bans-table";
import { banEndings } from "@/lib/dashboard/cases/schedule";
import { getRequestLocale } from "@/lib/dashboard/locale";

export const metadata: Metadata = { title: "Bans" };

interface BanListState {
  q?: string;
  sort: BanSortKey;
  after?: string;
  before?: string;
  trail?: string;
  page: number;
}

/** How long the page waits for the table's reads before sending its skeleton (see streaming.ts). */
const READS_WAIT_MS = 200;

export default async function BansPage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "bans");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;

  const state: BanListState = {
    q: one(query.q)?.trim() || undefined,
    sort: parseBanSort(one(query.sort)),
    after: one(query.after) || undefined,
    before: one(query.before) || undefined,
    trail: one(query.trail) || undefined,
    page: pageNumber(query.page),
  };
  const base = `/guilds/${guildId}/bans`;
  // Bulk Guild Ban also needs Manage Server.
  const bulkBlocked = refusal(viewer, "Bulk Guild Ban");
  const banByIdBlocked = refusal(viewer, "Create Guild Ban");
  // The table's reads start now and the page waits a moment for them: ready, the table comes with the page instead
  // of after a skeleton (lib/dashboard/streaming.ts); still slow after that, it streams behind the skeleton.
  const table = settledForUse(readBanTable(viewer, state));
  await settleWithin(READS_WAIT_MS, [table]);

  return (
    <>
      <PageHeader
        title="Bans"
        description={section.description}
        actions={
          <>
            <a href={`${base}/export`} download className={buttonClasses("secondary")}>
              <Icons.download className="size-4" /> Export CSV
            </a>
            {banByIdBlocked ? (
              <span className="flex flex-col items-end gap-1">
                <span
                  aria-disabled="true"
                  className={buttonClasses("secondary", "md", "pointer-events-none opacity-50")}
                >
                  <Icons.ban className="size-4" /> Ban by id
                </span>
                <DisabledReason reason={`Ban by id ${banByIdBlocked}`} />
              </span>
            ) : (
              <BanById guildId={guildId} />
            )}
            {bulkBlocked ? (
              <span className="flex flex-col items-end gap-1">
                <span aria-disabled="true" className={buttonClasses("primary", "md", "pointer-events-none opacity-50")}>
                  <Icons.ban className="size-4" /> Bulk ban
                </span>
                <DisabledReason reason={`Bulk ban ${bulkBlocked}`} />
              </span>
            ) : (
              <Link prefetch={false} href={`${base}/bulk`} className={buttonClasses("primary")}>
                <Icons.ban className="size-4" /> Bulk ban
              </Link>
            )}
          </>
        }
      />
      <BanSearch scanMax={BAN_NAME_SCAN_MAX} sort={state.sort} />
      <Suspense key={`${state.q}|${state.sort}|${state.after}|${state.before}`} fallback={<TableSkeleton />}>
        <BanTableSection viewer={viewer} state={state} table={table} />
      </Suspense>
    </>
  );
}

/**
 * A page of bans, who banned each (the audit history, after a bounded wait for its import; only with View Audit Log),
 * the columns this moderator hid, and the locale.
 */
async function readBanTable(viewer: GuildViewer, state: BanListState) {
  const [result, locale, hiddenColumns] = await Promise.all([
    getBanPage(viewer, { ...state, order: banOrderOf(state.sort) }),
    getRequestLocale(),
    getHiddenColumns(viewer.session.actor.id, "bans"),
  ]);
  const ids = result.rows.map((row) => row.id);
  const [actors, endings] = await Promise.all([getBanActors(viewer, ids), banEndings(viewer.guild.id, ids)]);
  return { result, locale, actors, endings, hiddenColumns };
}

const cursorParams = (cursor: BanCursor): Record<string, string> =>
  "before" in cursor ? { before: cursor.before } : { after: cursor.after };

function BanTableSection({
  viewer,
  state,
  table,
}: {
  viewer: GuildViewer;
  state: BanListState;
  table: ReturnType<typeof readBanTable>;
}) {
  const { result, locale, actors, endings, hiddenColumns } = use(table);
  const base = `/guilds/${viewer.guild.id}/bans`;
  const sort = state.sort === DEFAULT_BAN_SORT ? null : state.sort;
  const href = (changes: Record<string, string | null>) => listHref(base, { q: state.q, sort, ...changes });
  const descending = banOrderOf(state.sort) === "descending";
  const order = descending ? "newest accounts first" : "oldest accounts first";

  let previousHref: string | null = null;
  let nextHref: string | null = null;
  let summary: string | undefined;
  if (result.mode === "name") {
    // A scan only moves forward (up from `after`, or down from `before` when newest accounts come first): earlier
    // pages are remembered in the URL (trail of cursors).
    const key = descending ? "before" : "after";
    const next = result.next && key in result.next ? (result.next as Record<typeof key, string>)[key] : null;
    const pager = trailPager(state[key], cursorTrail(state.trail), next);
    if (pager.previous)
      previousHref = href({ [key]: pager.previous.cursor, trail: pager.previous.trail, page: String(state.page - 1) });
    if (pager.next)
      nextHref = href({ [key]: pager.next.cursor, trail: pager.next.trail, page: String(state.page + 1) });
    summary = `${result.rows.length} matching by name in ${new Intl.NumberFormat(locale).format(result.scanned)} bans read, ${order}`;
  } else if (result.mode === "list") {
    if (result.previous)
      previousHref = href({ ...cursorParams(result.previous), page: state.page > 2 ? String(state.page - 1) : null });
    if (result.next) nextHref = href({ ...cursorParams(result.next), page: String(state.page + 1) });
    if (result.rows.length) {
      // Pages are BAN_PAGE_SIZE long, in the order of the banned users' ids.
      const first = (state.page - 1) * BAN_PAGE_SIZE + 1;
      const count = new Intl.NumberFormat(locale);
      summary = `Showing ${count.format(first)}–${count.format(first + result.rows.length - 1)}, ${order}`;
    }
  }

  return (
    <BansTable
      guildId={viewer.guild.id}
      rows={result.rows}
      sort={state.sort}
      hiddenColumns={hiddenColumns}
      actors={actors}
      endings={endings}
      actorsHidden={banActorsHidden(viewer)}
      now={viewer.readAt}
      pagination={{ page: state.page, previousHref, nextHref, summary }}
      emptyTitle={state.q ? "No bans match" : "No bans"}
      emptyText={
        state.q
          ? result.mode === "id"
            ? "That user is not banned in this server."
            : "No banned user's name contains that text in the bans read."
          : "Nobody is banned from this server."
      }
    />
  );
}

function TableSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading bans" className="flex flex-col gap-2">
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-12" />
      ))}
    </div>
  );
}
