"use client";

// The invites table: column definitions over the generic DataTable (sorted and paged by the server, order and page in
// the URL: the Created, Uses and Expires headers and the Sort by select), with each row's target-users and delete
// dialogs, and rows selected (shift-click for a range, the header's box for the page, then every invite on every page)
// for "Revoke selected".
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { DataTable, type ColumnSort, type DataColumn, type RowSelection } from "@/components/data-table/data-table";
import { SortSelect } from "@/components/data-table/sort-select";
import { useUrlState } from "@/components/data-table/url-state";
import type { InviteRow } from "@/lib/dashboard/data/invites";
import {
  DEFAULT_INVITE_SORT,
  INVITE_PAGING_KEYS,
  inviteSortsFor,
  type InviteSortKey,
} from "@/lib/dashboard/data/invite-sorts";
import { DeleteInviteDialog } from "./delete-invite";
import { CopyInviteLink } from "./copy-invite-link";
import { TargetUsersBadge } from "./target-users-badge";
import { TargetUsersDialog } from "./target-users-dialog";
import { RevokeBar, RevokeInvitesDialog } from "./revoke-invites";

export interface InvitePermissions {
  selfId: string;
  manageGuild: boolean;
  /** Why the moderator cannot delete invites at all, or null (the API still judges each channel). */
  deleteBlocked: string | null;
}

type Open = { kind: "target-users" | "delete"; code: string } | null;

/** Header sorts: the values of the Sort by select. Counts and dates start with the most (newest, most used) first. */
const SORTS = {
  created: { ascending: "oldest", descending: "newest", descendingFirst: true },
  uses: { ascending: "uses-asc", descending: "uses-desc", descendingFirst: true },
  expires: { ascending: "expires-asc", descending: "expires-desc" },
} as const satisfies Record<string, ColumnSort & Record<"ascending" | "descending", InviteSortKey>>;

export function InvitesTable({
  guildId,
  rows,
  codes,
  sort,
  hiddenColumns,
  permissions,
  now,
  pagination,
  linkBase,
}: {
  guildId: string;
  rows: InviteRow[];
  /** Every invite's code on every page, in the order shown. */
  codes: string[];
  sort: InviteSortKey;
  /** The columns this moderator hid, as saved. */
  hiddenColumns: readonly string[];
  permissions: InvitePermissions;
  now: number;
  /** Invite links are `${linkBase}/${code}`. */
  linkBase: string;
  pagination: { page: number; pageCount: number; summary?: string };
}) {
  const { hrefWith, pending } = useUrlState();
  const [open, setOpen] = useState<Open>(null);
  const openRow = open ? rows.find((r) => r.code === open.code) : undefined;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [allSelected, setAllSelected] = useState(false);
  const [revoking, setRevoking] = useState<string[] | null>(null);
  const selection: RowSelection<InviteRow> | undefined = permissions.deleteBlocked
    ? undefined
    : {
        selected,
        onChange: (next) => {
          setAllSelected(false);
          setSelected(next);
        },
        rowLabel: (invite) => invite.code,
        noun: "invite",
      };
  const clearSelection = () => {
    setAllSelected(false);
    setSelected(new Set());
  };
  const count = allSelected ? codes.length : selected.size;
  const sorts = inviteSortsFor(permissions.manageGuild);

  const columns = useMemo<DataColumn<InviteRow>[]>(
    () => [
      {
        id: "invite",
        header: "Invite",
        cell: ({ row }) => (
          <span className="block min-w-0">
            <span className="block font-mono font-semibold">{row.original.code}</span>
            <span className="block truncate text-xs text-ink-muted">
              {row.original.channel ? `#${row.original.channel.name}` : "Unknown channel"}
            </span>
          </span>
        ),
      },
      {
        id: "inviter",
        header: "Inviter",
        cell: ({ row }) => {
          const inviter = row.original.inviter;
          if (!inviter) return <span className="text-ink-muted">—</span>;
          return (
            <span className="block min-w-0">
              <span className="block truncate">{inviter.displayName}</span>
              <span className="block truncate text-xs text-ink-muted">@{inviter.username}</span>
            </span>
          );
        },
      },
      {
        id: "uses",
        header: "Uses",
        // Without Manage Server the list carries no uses to sort by.
        sort: permissions.manageGuild ? SORTS.uses : undefined,
        cell: ({ row }) => {
          const { uses, maxUses } = row.original;
          if (uses === null)
            return (
              <span className="text-ink-muted" title="Needs Manage Server">
                —
              </span>
            );
          return (
            <span className="whitespace-nowrap tabular-nums">
              {uses} / {maxUses ? maxUses : "∞"}
            </span>
          );
        },
      },
      {
        id: "created",
        header: "Created",
        sort: SORTS.created,
        cell: ({ row }) =>
          row.original.createdAt ? (
            <RelativeTime iso={row.original.createdAt} now={now} className="whitespace-nowrap" />
          ) : (
            <span className="text-ink-muted">—</span>
          ),
      },
      {
        id: "expires",
        header: "Expires",
        sort: SORTS.expires,
        cell: ({ row }) =>
          row.original.expiresAt ? (
            <RelativeTime iso={row.original.expiresAt} now={now} className="whitespace-nowrap" />
          ) : (
            <span className="text-ink-muted">Never</span>
          ),
      },
      {
        id: "details",
        header: "Details",
        cell: ({ row }) => (
          <span className="flex flex-wrap gap-1">
            {row.original.temporary && (
              <Badge tone="warning" title="Members leave when they disconnect, unless given a role">
                Temporary
              </Badge>
            )}
            <TargetUsersBadge job={row.original.targetUsers} />
          </span>
        ),
      },
      {
        id: "actions",
        header: "Actions",
        headerHidden: true,
        cell: ({ row }) => (
          // On a phone's card the three buttons wrap rather than run past its edge.
          <span className="flex flex-wrap justify-end gap-2 max-sm:justify-start">
            <CopyInviteLink compact url={`${linkBase}/${row.original.code}`} />
            <Button
              size="sm"
              variant="secondary"
              aria-label={`Target users of ${row.original.code}`}
              onClick={() => setOpen({ kind: "target-users", code: row.original.code })}
            >
              Target users
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-danger"
              aria-label={`Delete ${row.original.code}`}
              disabled={Boolean(permissions.deleteBlocked)}
              title={permissions.deleteBlocked ?? undefined}
              onClick={() => setOpen({ kind: "delete", code: row.original.code })}
            >
              Delete
            </Button>
          </span>
        ),
      },
    ],
    [now, permissions.deleteBlocked, permissions.manageGuild, linkBase],
  );

  return (
    <>
      {permissions.deleteBlocked && (
        <DisabledReason reason={`Deleting invites ${permissions.deleteBlocked}.`} className="mb-2" />
      )}
      {count > 0 && (
        <div className="mb-3">
          <RevokeBar
            count={count}
            total={codes.length}
            allSelected={allSelected}
            pageFullySelected={rows.length > 0 && rows.every((row) => selected.has(row.code))}
            onSelectAll={() => setAllSelected(true)}
            onClear={clearSelection}
            onRevoke={() => setRevoking(allSelected ? codes : [...selected])}
          />
        </div>
      )}
      <DataTable
        id="invites"
        columns={columns}
        data={rows}
        getRowId={(row) => row.code}
        rowProps={(row) => ({ "data-invite-code": row.code })}
        sorting={{ value: sort, defaultValue: DEFAULT_INVITE_SORT, resets: INVITE_PAGING_KEYS }}
        selection={selection}
        hiddenColumns={hiddenColumns}
        toolbar={
          <SortSelect
            id="invite-sort-by"
            value={sort}
            options={sorts}
            defaultValue={DEFAULT_INVITE_SORT}
            resets={INVITE_PAGING_KEYS}
          />
        }
        caption="Invites"
        emptyTitle="No active invites"
        emptyText="Create an invite to let people join this server."
        busy={pending}
        selectedId={open?.code ?? null}
        pagination={{
          page: pagination.page,
          summary: pagination.summary,
          previousHref:
            pagination.page > 1 ? hrefWith({ page: pagination.page === 2 ? null : String(pagination.page - 1) }) : null,
          nextHref: pagination.page < pagination.pageCount ? hrefWith({ page: String(pagination.page + 1) }) : null,
        }}
      />
      {openRow && open?.kind === "target-users" && (
        <TargetUsersDialog
          guildId={guildId}
          invite={openRow}
          uploadBlocked={
            permissions.manageGuild || openRow.inviter?.id === permissions.selfId
              ? null
              : "needs Manage Server (or to be the invite's creator)"
          }
          onClose={() => setOpen(null)}
        />
      )}
      {openRow && open?.kind === "delete" && (
        <DeleteInviteDialog guildId={guildId} invite={openRow} onClose={() => setOpen(null)} />
      )}
      {revoking && (
        <RevokeInvitesDialog
          guildId={guildId}
          codes={revoking}
          onRevoked={clearSelection}
          onClose={() => setRevoking(null)}
        />
      )}
    </>
  );
}
