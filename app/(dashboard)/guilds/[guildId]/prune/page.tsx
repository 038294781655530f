// Prune: preview how many inactive members a prune would remove (Get Guild Prune Count, kept with who and when),
// then run it on that fresh preview with the count typed back and a reason (Begin Guild Prune). Earlier previews
// and their outcomes are listed below, 20 a page, newest or oldest first (?sort=oldest&cursor=&trail=).
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { listPrunePreviewPage } from "@/lib/dashboard/audit/prune-previews";
import { pruneRelevantChanges, stalenessReasons } from "@/lib/dashboard/audit/prune-staleness";
import { managementApi } from "@/lib/dashboard/data/api";
import { syncAuditLog } from "@/lib/dashboard/data/audit-log";
import { LARGE_GUILD_MEMBERS } from "@/lib/dashboard/actions/schemas/prune";
import { roleVerdict } from "@/lib/dashboard/data/viewer";
import { PruneWorkbench, type PruneRole } from "./_components/prune-workbench";
import { getRequestLocale } from "@/lib/dashboard/locale";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";
import {
  cursorTrail,
  DEFAULT_TIME_ORDER,
  firstParam,
  listHref,
  timeOrderOf,
  trailPager,
  type TrailLink,
} from "@/lib/dashboard/list-params";

export const metadata: Metadata = { title: "Prune" };

const HISTORY_PAGE_SIZE = 20;
// Previews have cuid ids.
const PREVIEW_CURSOR = /^[a-z0-9]+$/;

export default async function PrunePage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "prune");
  const header = (
    <PageHeader
      title="Prune"
      description="Remove members who have not been active for a number of days. By default only members without roles are removed; include roles to also remove inactive members who hold nothing but those roles."
    />
  );
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const order = timeOrderOf(query.sort);
  const cursor = firstParam(query.cursor) || undefined;
  const trail = cursorTrail(firstParam(query.trail), PREVIEW_CURSOR);
  const [{ previews, nextCursor }, hiddenColumns] = await Promise.all([
    listPrunePreviewPage(guildId, { limit: HISTORY_PAGE_SIZE, cursor, order }),
    getHiddenColumns(viewer.session.actor.id, "prune-history"),
  ]);
  const pager = trailPager(cursor, trail, nextCursor);
  const sort = order === DEFAULT_TIME_ORDER ? null : order;
  const href = (link: TrailLink | null) => link && listHref(`/guilds/${guildId}/prune`, { sort, ...link });
  // Which unused previews no longer describe the server (seen in the history and the member count).
  const unused = previews.filter((p) => p.runStatus === null);
  const staleness: Record<string, string[]> = {};
  let memberCountNow: number | null = viewer.guild.approximate_member_count ?? null;
  if (unused.length) {
    // Imports the guild's log only for a viewer who may read it (View Audit Log); others count what is there.
    await syncAuditLog(viewer);
    const oldest = unused.reduce((m, p) => (p.createdAt < m ? p.createdAt : m), unused[0].createdAt);
    const [changes, counted, locale] = await Promise.all([
      pruneRelevantChanges(guildId, new Date(oldest)),
      managementApi(viewer.session).then((api) => api.guilds.get(guildId, { with_counts: true })),
      getRequestLocale(),
    ]);
    memberCountNow = counted.approximate_member_count ?? memberCountNow;
    for (const p of unused) staleness[p.id] = stalenessReasons(p, changes, memberCountNow, locale);
  }
  const roles: PruneRole[] = viewer.roles
    .filter((role) => role.id !== viewer.guild.id)
    .map((role) => {
      const verdict = roleVerdict(viewer, role);
      return {
        id: role.id,
        name: role.name,
        color: role.color,
        managed: role.managed,
        lockedReason: verdict.ok ? null : verdict.reason,
      };
    });
  const memberCount = memberCountNow;
  return (
    <>
      {header}
      <PruneWorkbench
        guildId={guildId}
        roles={roles}
        history={{
          previews,
          order,
          // A preview made on this page belongs at the top of the first page, newest first.
          showsNewest: order === DEFAULT_TIME_ORDER && !cursor,
          hiddenColumns,
          pagination: {
            page: trail.length + 1,
            previousHref: href(pager.previous),
            nextHref: href(pager.next),
          },
        }}
        staleness={staleness}
        serverNow={viewer.readAt}
        memberCount={memberCount}
        largeGuild={memberCount !== null && memberCount >= LARGE_GUILD_MEMBERS}
      />
    </>
  );
}
