"use client";

// The members table: column definitions over the generic server-paged DataTable (which adds the selection column for
// bulk actions); the member, joined and account-created headers sort as the "Sort by" select does. Each member's link
// carries data-member-link so focus can return to it when their panel closes.
import Link from "next/link";
import { useMemo } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import {
  DataTable,
  type ColumnSort,
  type DataColumn,
  type RowSelection,
  type ServerPage,
} from "@/components/data-table/data-table";
import { DEFAULT_MEMBER_SORT, PAGING_KEYS, type MemberSortKey } from "@/lib/dashboard/data/member-filters";
import { useUrlState } from "@/components/data-table/url-state";
import { colorToHex } from "@/lib/dashboard/actions/schemas/roles";
import type { MemberRow } from "@/lib/dashboard/data/members";
import { GuildMemberFlags, hasMemberFlag } from "@/lib/discord/member-flags";
import { DateOnly } from "@/components/ui/relative-time";

export interface RoleChip {
  id: string;
  name: string;
  color: number;
  managed: boolean;
  /** Why the moderator cannot assign or remove it. */
  lockedReason: string | null;
}

/** Header sorts: what each sortable column asks Search Guild Members v2 for (the "Sort by" select's keys). */
const SORTS: Record<string, ColumnSort> = {
  member: { ascending: "name-asc", descending: "name-desc" },
  joined: { ascending: "joined-asc", descending: "joined-desc", descendingFirst: true },
  created: { ascending: "created-asc", descending: "created-desc", descendingFirst: true },
};

export function MembersTable({
  rows,
  roles,
  selectedId,
  pagination,
  filtered,
  selection,
  sort,
  hiddenColumns,
}: {
  rows: MemberRow[];
  roles: RoleChip[];
  selectedId: string | null;
  pagination: ServerPage;
  filtered: boolean;
  selection: RowSelection<MemberRow>;
  sort: MemberSortKey;
  hiddenColumns: readonly string[];
}) {
  const { hrefWith, pending } = useUrlState();
  const roleById = useMemo(() => new Map(roles.map((r) => [r.id, r])), [roles]);
  const columns = useMemo<DataColumn<MemberRow>[]>(
    () => [
      {
        id: "member",
        header: "Member",
        sort: SORTS.member,
        cell: ({ row }) => {
          const m = row.original;
          return (
            <Link
              href={hrefWith({ member: m.id })}
              scroll={false}
              // No prefetch per row: each would be a server render of the page with the member's panel.
              prefetch={false}
              className="flex items-center gap-3 rounded-md focus-visible:outline-offset-4"
              data-member-link={m.id}
            >
              {/* "Open ada_fox …": the visible name is part of the link's name (WCAG 2.5.3). */}
              <span className="sr-only">Open </span>
              <Avatar src={m.avatarUrl} name={m.displayName} id={m.id} size={32} />
              <span className="min-w-0">
                <span className="flex items-center gap-1.5 font-medium">
                  <span className="truncate">{m.displayName}</span>
                  {m.bot && <Badge tone="blurple">Bot</Badge>}
                  {m.pending && <Badge tone="warning">Pending</Badge>}
                </span>
                <span className="block truncate text-xs text-ink-muted">@{m.username}</span>
              </span>
            </Link>
          );
        },
      },
      {
        id: "roles",
        header: "Roles",
        cell: ({ row }) => {
          const chips = row.original.roles.map((id) => roleById.get(id)).filter((r): r is RoleChip => Boolean(r));
          if (chips.length === 0) return <span className="text-xs text-ink-muted">No roles</span>;
          return (
            <span className="flex flex-wrap gap-1">
              {chips.slice(0, 3).map((r) => (
                <span
                  key={r.id}
                  className="inline-flex items-center gap-1 rounded-full bg-surface-sunken px-2 py-0.5 text-xs ring-1 ring-line"
                >
                  <span
                    aria-hidden
                    className="size-2 rounded-full"
                    style={{ background: r.color ? colorToHex(r.color) : "#99aab5" }}
                  />
                  {r.name}
                </span>
              ))}
              {chips.length > 3 && <span className="text-xs text-ink-muted">+{chips.length - 3}</span>}
            </span>
          );
        },
      },
      {
        id: "joined",
        header: "Joined",
        sort: SORTS.joined,
        cell: ({ row }) => (
          <span className="whitespace-nowrap text-ink-muted">
            {row.original.joinedAt ? <DateOnly iso={row.original.joinedAt} /> : "—"}
          </span>
        ),
      },
      {
        id: "created",
        header: "Account created",
        sort: SORTS.created,
        cell: ({ row }) => (
          <span className="whitespace-nowrap text-ink-muted">
            <DateOnly iso={row.original.createdAt} />
          </span>
        ),
      },
      {
        id: "status",
        header: "Status",
        cell: ({ row }) => {
          const m = row.original;
          const bypasses = hasMemberFlag(m.flags, GuildMemberFlags.BypassesVerification);
          const quarantined = hasMemberFlag(m.flags, GuildMemberFlags.AutomodQuarantinedUsernameOrGuildNickname);
          return (
            <span className="flex flex-wrap gap-1">
              {m.timeoutUntil && (
                <Badge tone="danger" title={`Until ${new Date(m.timeoutUntil).toUTCString()}`}>
                  Timed out
                </Badge>
              )}
              {m.mute && <Badge>Server muted</Badge>}
              {m.deaf && <Badge>Server deafened</Badge>}
              {bypasses && <Badge tone="success">Bypasses verification</Badge>}
              {quarantined && (
                <Badge tone="warning" title="Their name matched a member-profile rule">
                  Blocked by AutoMod
                </Badge>
              )}
              {!m.timeoutUntil && !m.mute && !m.deaf && !bypasses && !quarantined && (
                <span className="text-xs text-ink-muted">—</span>
              )}
            </span>
          );
        },
      },
      {
        id: "actions",
        header: "Actions",
        headerHidden: true,
        cell: ({ row }) => (
          <Link
            href={hrefWith({ member: row.original.id })}
            scroll={false}
            prefetch={false}
            className="text-sm font-medium text-blurple-ink hover:underline"
            tabIndex={-1}
            aria-hidden
          >
            Manage
          </Link>
        ),
      },
    ],
    [hrefWith, roleById],
  );
  return (
    <DataTable
      id="members"
      columns={columns}
      sorting={{ value: sort, defaultValue: DEFAULT_MEMBER_SORT, resets: PAGING_KEYS }}
      selection={selection}
      hiddenColumns={hiddenColumns}
      data={rows}
      getRowId={(row) => row.id}
      pagination={pagination}
      caption="Members"
      emptyTitle={filtered ? "No members match" : "No members"}
      emptyText={filtered ? "Try another search or fewer filters." : undefined}
      selectedId={selectedId}
      busy={pending}
    />
  );
}
