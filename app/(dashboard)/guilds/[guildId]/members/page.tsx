// Members: a server-paged table over Search Guild Members v2 (sort, search by id or name substring, filters, keyset
// pages; all of it in the URL), bulk actions on a page or on every member matching the filter, and a side panel for
// one member: nickname, roles, timeout, voice, verification bypass, kick and ban.
import type { Metadata } from "next";
import { Suspense, use } from "react";
import { ChannelType } from "discord-api-types/v10";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader, Skeleton } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { getMemberDetail, getMemberPage } from "@/lib/dashboard/data/members";
import { getMemberCases } from "@/lib/dashboard/data/cases";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import {
  filterParams,
  isFiltered,
  parseMemberListState,
  type MemberListState,
} from "@/lib/dashboard/data/member-filters";
import { firstParam, listHref } from "@/lib/dashboard/list-params";
import { afterShell, isClientNavigation, settledForUse, settleWithin } from "@/lib/dashboard/streaming";
import { botRefusal, refusal, roleVerdict, type GuildViewer } from "@/lib/dashboard/data/viewer";
import { MemberFilters } from "./_components/member-filters";
import { type RoleChip } from "./_components/members-table";
import { MembersWorkspace, type BulkRefusals } from "./_components/members-workspace";
import { MemberPanel, type PanelPermissions } from "./_components/member-panel";
import { getRequestLocale } from "@/lib/dashboard/locale";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";

export const metadata: Metadata = { title: "Members" };

/** How long a click in the app waits for the rows before showing the table's skeleton (see streaming.ts). */
const NAVIGATION_WAIT_MS = 200;

type MemberPageRows = Awaited<ReturnType<typeof getMemberPage>>;

export default async function MembersPage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const [{ viewer, section, blocked: closed }, locale] = await Promise.all([
    getSectionViewer(guildId, "members"),
    getRequestLocale(),
  ]);
  const blocked = closed ?? refusal(viewer, "Search Guild Members v2");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;

  const roles: RoleChip[] = viewer.roles
    .filter((r) => r.id !== viewer.guild.id)
    .map((r) => {
      const verdict = roleVerdict(viewer, r);
      return {
        id: r.id,
        name: r.name,
        color: r.color,
        managed: r.managed,
        lockedReason: r.managed ? "managed by an integration" : verdict.ok ? null : verdict.reason,
      };
    });
  const state = parseMemberListState(query);
  const member = firstParam(query.member);
  const memberCount = viewer.guild.approximate_member_count;
  const tableKey = JSON.stringify([filterParams(state), state.after, state.before]);
  // A document sends its shell first and the rows after it; a click in the app waits a moment for the rows instead,
  // so they come with the page rather than after a skeleton (lib/dashboard/streaming.ts).
  const rows = settledForUse(afterShell().then(() => getMemberPage(viewer, state)));
  // After the shell too: a Prisma read costs the shell's first byte a query compile (perf notes: ~0.6 ms).
  const hiddenColumns = settledForUse(afterShell().then(() => getHiddenColumns(viewer.session.actor.id, "members")));
  if (isClientNavigation()) await settleWithin(NAVIGATION_WAIT_MS, [rows, hiddenColumns]);

  return (
    <>
      <PageHeader
        title="Members"
        description={
          memberCount
            ? `${new Intl.NumberFormat(locale).format(memberCount)} members. ${section.description}`
            : section.description
        }
        actions={
          <Link
            prefetch={false}
            href={`/guilds/${viewer.guild.id}/members/raid`}
            className={buttonClasses("secondary")}
          >
            Raid cleanup
          </Link>
        }
      />
      <MemberFilters roles={roles} />
      <Suspense key={tableKey} fallback={<TableSkeleton />}>
        <MemberTableSection
          viewer={viewer}
          state={state}
          rows={rows}
          hiddenColumns={hiddenColumns}
          locale={locale}
          roles={roles}
          selectedId={member ?? null}
        />
      </Suspense>
      {member && (
        <Suspense fallback={null}>
          <MemberPanelSection viewer={viewer} userId={member} roles={roles} />
        </Suspense>
      )}
    </>
  );
}

function MemberTableSection({
  viewer,
  state,
  rows,
  hiddenColumns,
  locale,
  roles,
  selectedId,
}: {
  viewer: GuildViewer;
  state: MemberListState;
  rows: Promise<MemberPageRows>;
  hiddenColumns: Promise<string[]>;
  locale: string;
  roles: RoleChip[];
  selectedId: string | null;
}) {
  const page = use(rows);
  const count = (n: number) => new Intl.NumberFormat(locale).format(n);
  const path = `/guilds/${viewer.guild.id}/members`;
  const keep = filterParams(state);
  const previousHref = page.previousCursor
    ? listHref(path, { ...keep, before: page.previousCursor, page: state.page > 2 ? state.page - 1 : null })
    : null;
  const nextHref = page.nextCursor ? listHref(path, { ...keep, after: page.nextCursor, page: state.page + 1 }) : null;
  const first = (state.page - 1) * state.limit + 1;
  const bulk: BulkRefusals = {
    add_role: refusal(viewer, "Add Guild Member Role"),
    remove_role: refusal(viewer, "Remove Guild Member Role"),
    timeout: refusal(viewer, "Modify Guild Member", ["communication_disabled_until"]),
    remove_timeout: refusal(viewer, "Modify Guild Member", ["communication_disabled_until"]),
    kick: refusal(viewer, "Remove Guild Member"),
    ban: refusal(viewer, "Bulk Guild Ban"),
  };
  return (
    <MembersWorkspace
      guildId={viewer.guild.id}
      rows={page.rows}
      total={page.total}
      filters={{
        q: state.q,
        sort: state.sort,
        roles: state.roles,
        roleMode: state.roleMode,
        joined: state.joined,
        created: state.created,
        flags: state.flags,
      }}
      roles={roles}
      selectedId={selectedId}
      bulk={bulk}
      pagination={{
        page: state.page,
        previousHref,
        nextHref,
        summary: page.rows.length
          ? `${count(first)}–${count(first + page.rows.length - 1)} of ${count(page.total)}${isFiltered(state) ? " matching" : ""}`
          : undefined,
      }}
      filtered={isFiltered(state)}
      hiddenColumns={use(hiddenColumns)}
    />
  );
}

async function MemberPanelSection({
  viewer,
  userId,
  roles,
}: {
  viewer: GuildViewer;
  userId: string;
  roles: RoleChip[];
}) {
  const casesBlocked = sectionDisabledReason(findSection("cases")!, viewer.permissions);
  const [detail, channels, memberCases] = await Promise.all([
    getMemberDetail(viewer, userId),
    getGuildChannels(viewer),
    casesBlocked ? null : getMemberCases(viewer, userId),
  ]);
  const voiceChannels = channels
    .filter((c) => c.type === ChannelType.GuildVoice || c.type === ChannelType.GuildStageVoice)
    .map((c) => ({ id: c.id, name: c.name }));
  const self = userId === viewer.session.actor.id;
  const targetIsOwner = userId === viewer.guild.owner_id;
  const hierarchy = detail?.row.blockedReason ?? null;
  const perms: PanelPermissions = {
    // Your own nickname: in bot mode the bot renames you, so it must outrank you.
    nick: refusal(viewer, "Modify Guild Member", ["nick"]) ?? (self ? botRefusal(viewer, viewer.self) : hierarchy),
    roles: refusal(viewer, "Modify Guild Member", ["roles"]) ?? (self && !viewer.isOwner ? null : hierarchy),
    timeout:
      refusal(viewer, "Modify Guild Member", ["communication_disabled_until"]) ??
      (self ? "you can't time yourself out" : targetIsOwner ? "nobody can time out the server owner" : hierarchy),
    mute: refusal(viewer, "Modify Guild Member", ["mute"]),
    deafen: refusal(viewer, "Modify Guild Member", ["deaf"]),
    move: refusal(viewer, "Modify Guild Member", ["channel_id"]),
    flags: refusal(viewer, "Modify Guild Member", ["flags"]),
    kick: refusal(viewer, "Remove Guild Member") ?? (self ? "you can't kick yourself" : hierarchy),
    ban: refusal(viewer, "Create Guild Ban") ?? (self ? "you can't ban yourself" : hierarchy),
    warn:
      refusal(viewer, "Modify Guild Member", ["communication_disabled_until"]) ??
      (self ? "you can't warn yourself" : targetIsOwner ? "nobody can warn the server owner" : hierarchy),
  };
  return (
    <MemberPanel
      guildId={viewer.guild.id}
      detail={detail}
      roles={roles}
      voiceChannels={voiceChannels}
      perms={perms}
      memberCases={memberCases}
    />
  );
}

function TableSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading members" className="flex flex-col gap-2">
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-12" />
      ))}
    </div>
  );
}
