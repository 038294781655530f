// Members: a server-paged table (List Guild Members after a cursor, page state in the URL), prefix search, a role
// filter, and a side panel for one member: nickname, roles, timeout, voice, verification bypass, kick and ban.
import type { Metadata } from "next";
import { Suspense } from "react";
import { ChannelType } from "discord-api-types/v10";
import { PageHeader, Skeleton } from "@/components/ui/card";
import { NoAccess } from "@/components/dashboard/no-access";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { MEMBER_PAGE_SIZES, getMemberDetail, getMemberPage } from "@/lib/dashboard/data/members";
import { getGuildViewer, refusal, roleVerdict, type GuildViewer } from "@/lib/dashboard/data/viewer";
import { MemberFilters } from "./_components/member-filters";
import { MembersTable, type RoleChip } from "./_components/members-table";
import { MemberPanel, type PanelPermissions } from "./_components/member-panel";

export const metadata: Metadata = { title: "Members" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function MembersPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string }>;
  searchParams: SearchParams;
}) {
  const { guildId } = await params;
  const query = await searchParams;
  const viewer = await getGuildViewer(guildId);
  const section = findSection("members")!;
  const blocked = sectionDisabledReason(section, viewer.permissions);
  if (blocked)
    return (
      <>
        <PageHeader title="Members" description={section.description} />
        <NoAccess section="Members" reason={blocked} />
      </>
    );

  const roles: RoleChip[] = viewer.roles
    .filter((r) => r.id !== viewer.guild.id)
    .map((r) => ({
      id: r.id,
      name: r.name,
      color: r.color,
      managed: r.managed,
      lockedReason: r.managed
        ? "managed by an integration"
        : roleVerdict(viewer, r).ok
          ? null
          : (roleVerdict(viewer, r) as { reason: string }).reason,
    }));
  const limitParam = Number(one(query.limit));
  const state = {
    q: one(query.q)?.trim() || undefined,
    role: one(query.role) || undefined,
    after: one(query.after) || undefined,
    trail: one(query.trail) || undefined,
    limit: (MEMBER_PAGE_SIZES as readonly number[]).includes(limitParam) ? limitParam : 50,
    member: one(query.member) || undefined,
  };
  const memberCount = viewer.guild.approximate_member_count;

  return (
    <>
      <PageHeader
        title="Members"
        description={
          memberCount ? `${memberCount.toLocaleString("en-US")} members. ${section.description}` : section.description
        }
      />
      <MemberFilters roles={roles} />
      <Suspense key={`${state.q}|${state.role}|${state.after}|${state.limit}`} fallback={<TableSkeleton />}>
        <MemberTableSection viewer={viewer} state={state} roles={roles} />
      </Suspense>
      {state.member && (
        <Suspense fallback={null}>
          <MemberPanelSection viewer={viewer} userId={state.member} roles={roles} />
        </Suspense>
      )}
    </>
  );
}

async function MemberTableSection({
  viewer,
  state,
  roles,
}: {
  viewer: GuildViewer;
  state: { q?: string; role?: string; after?: string; trail?: string; limit: number; member?: string };
  roles: RoleChip[];
}) {
  const page = await getMemberPage(viewer, state);
  const trail = state.trail ? state.trail.split(",").filter((c) => /^\d+$/.test(c)) : [];
  const base = new URLSearchParams();
  if (state.q) base.set("q", state.q);
  if (state.role) base.set("role", state.role);
  if (state.limit !== 50) base.set("limit", String(state.limit));
  const href = (after: string | null, nextTrail: string[]) => {
    const p = new URLSearchParams(base);
    if (after && after !== "0") p.set("after", after);
    if (nextTrail.length) p.set("trail", nextTrail.join(","));
    const s = p.toString();
    return `/guilds/${viewer.guild.id}/members${s ? `?${s}` : ""}`;
  };
  const previousHref = state.after ? href(trail.at(-1) ?? null, trail.slice(0, -1)) : null;
  const nextHref = page.nextAfter ? href(page.nextAfter, [...trail, state.after ?? "0"]) : null;
  const first = trail.length * state.limit + 1;
  return (
    <MembersTable
      guildId={viewer.guild.id}
      rows={page.rows}
      roles={roles}
      selectedId={state.member ?? null}
      pagination={{
        page: trail.length + 1,
        previousHref,
        nextHref,
        summary: page.rows.length
          ? `${first}–${first + page.rows.length - 1}${state.role ? ` (${page.scanned} read to filter by role)` : ""}`
          : undefined,
      }}
      filtered={Boolean(state.q || state.role)}
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
  const [detail, channels] = await Promise.all([getMemberDetail(viewer, userId), getGuildChannels(viewer)]);
  const voiceChannels = channels
    .filter((c) => c.type === ChannelType.GuildVoice || c.type === ChannelType.GuildStageVoice)
    .map((c) => ({ id: c.id, name: c.name }));
  const self = userId === viewer.session.actor.id;
  const targetIsOwner = userId === viewer.guild.owner_id;
  const hierarchy = detail?.row.blockedReason ?? null;
  const perms: PanelPermissions = {
    nick: refusal(viewer, "Modify Guild Member", ["nick"]) ?? (self ? null : hierarchy),
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
  };
  return (
    <MemberPanel guildId={viewer.guild.id} detail={detail} roles={roles} voiceChannels={voiceChannels} perms={perms} />
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
