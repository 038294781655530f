"use client";

// Who can access: every role (as a member holding only that role would) and a searchable page of members, with
// whether they can view the channel and manage it, and why, from the one permission engine; two DataTables without
// paging or sorts (the roles in the server's order, the members as the search found them), cards on a phone.
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Button } from "@/components/ui/button";
import type { CapabilityAnswer } from "@/lib/dashboard/permission-explorer";
import { DataTable, type DataColumn } from "@/components/data-table/data-table";

export interface AccessRow {
  id: string;
  name: string;
  /** Where "View as" opens for this role or member. */
  explorerHref: string;
  view: CapabilityAnswer;
  manage: CapabilityAnswer;
}

function Verdict({ answer, label }: { answer: CapabilityAnswer; label: string }) {
  return (
    <span className="flex min-w-0 max-w-72 flex-col">
      <span>
        {answer.granted ? (
          <Badge tone="success">{label}</Badge>
        ) : (
          <Badge tone="neutral">can&apos;t {label.toLowerCase()}</Badge>
        )}
      </span>
      {/* One line in the table, the whole reason on a phone's card (a line cut short there would widen the card). */}
      <span className="break-words text-xs text-ink-muted sm:truncate" title={answer.because}>
        {answer.because}
      </span>
    </span>
  );
}

const ACCESS_COLUMNS: DataColumn<AccessRow>[] = [
  {
    id: "name",
    header: "Name",
    cell: ({ row }) => (
      <Link prefetch={false} href={row.original.explorerHref} className="font-medium hover:underline">
        {row.original.name}
      </Link>
    ),
  },
  { id: "view", header: "View", cell: ({ row }) => <Verdict answer={row.original.view} label="View" /> },
  { id: "manage", header: "Manage", cell: ({ row }) => <Verdict answer={row.original.manage} label="Manage" /> },
];

function AccessTable({ caption, rows }: { caption: string; rows: AccessRow[] }) {
  return (
    <DataTable
      id="channel-access"
      columns={ACCESS_COLUMNS}
      data={rows}
      getRowId={(row) => row.id}
      rowProps={(row) => ({ "data-access-id": row.id })}
      caption={caption}
      emptyTitle="Nobody matches"
      emptyText="Search for another name or id."
    />
  );
}

export function WhoCanAccess({
  roles,
  members,
  query,
  action,
  viewers,
}: {
  roles: AccessRow[];
  members: AccessRow[];
  query: string;
  /** This tab's URL, where the search form submits. */
  action: string;
  /** How many of the listed members can view the channel. */
  viewers: number;
}) {
  return (
    <Card>
      <CardHeader
        id="who-can-access"
        title="Who can access"
        description="Worked out as Discord does: each role as a member holding only that role, and each member as they are."
      />
      <h3 className="mb-1 text-sm font-semibold">Roles</h3>
      <AccessTable caption="Roles that can view or manage this channel" rows={roles} />
      <div className="mt-5 flex flex-wrap items-end justify-between gap-2">
        <h3 className="text-sm font-semibold">
          Members{" "}
          <span className="font-normal text-ink-muted">
            ({viewers} of {members.length} shown can view)
          </span>
        </h3>
        <form
          action={action}
          className="flex w-full gap-2 sm:w-auto"
          role="search"
          aria-label="Search members who can access"
        >
          <input type="hidden" name="tab" value="permissions" />
          <Input
            type="search"
            name="q"
            defaultValue={query}
            aria-label="Search members by name or id"
            placeholder="Search members"
            className="h-9 min-w-0 flex-1 sm:w-56 sm:flex-none"
          />
          <Button type="submit" size="sm" variant="secondary">
            Search
          </Button>
        </form>
      </div>
      <AccessTable caption="Members who can view or manage this channel" rows={members} />
    </Card>
  );
}
