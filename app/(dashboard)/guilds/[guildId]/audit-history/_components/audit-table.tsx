"use client";

// The audit history table (the generic DataTable) and one entry's details: request, before/after diff, outcome.
import { useMemo, useState } from "react";
import type { ColumnDef } from "@tanstack/react-table";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DataTable, type ServerPage } from "@/components/data-table/data-table";
import { diffSnapshots, type AuditEntryView } from "@/lib/dashboard/audit/format";

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

const show = (value: unknown) =>
  value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);

export function AuditTable({
  entries,
  pagination,
  filtered,
}: {
  entries: AuditEntryView[];
  pagination: ServerPage;
  filtered: boolean;
}) {
  const [open, setOpen] = useState<AuditEntryView | null>(null);
  const columns = useMemo<ColumnDef<AuditEntryView, unknown>[]>(
    () => [
      {
        id: "time",
        header: "Time (UTC)",
        cell: ({ row }) => (
          <time dateTime={row.original.createdAt} className="whitespace-nowrap text-ink-muted">
            {when.format(new Date(row.original.createdAt))}
          </time>
        ),
      },
      {
        id: "actor",
        header: "Actor",
        cell: ({ row }) => (
          <span className="font-medium" title={row.original.actorId}>
            {row.original.actorName}
          </span>
        ),
      },
      {
        id: "action",
        header: "Action",
        cell: ({ row }) => <span className="whitespace-nowrap">{row.original.action}</span>,
      },
      {
        id: "target",
        header: "Target",
        cell: ({ row }) => (
          <span className="flex flex-col">
            <span>{row.original.targetName ?? row.original.targetId ?? "—"}</span>
            {row.original.targetType && (
              <span className="text-xs text-ink-muted">
                {row.original.targetType}
                {row.original.targetId && row.original.targetName ? ` · ${row.original.targetId}` : ""}
              </span>
            )}
          </span>
        ),
      },
      {
        id: "reason",
        header: "Reason",
        cell: ({ row }) => <span className="line-clamp-2 max-w-56 text-ink-muted">{row.original.reason ?? "—"}</span>,
      },
      {
        id: "status",
        header: "Result",
        cell: ({ row }) =>
          row.original.status === "success" ? (
            <Badge tone="success">Succeeded</Badge>
          ) : (
            <Badge tone="danger" title={row.original.error ?? undefined}>
              Failed{row.original.httpStatus ? ` (${row.original.httpStatus})` : ""}
            </Badge>
          ),
      },
      {
        id: "details",
        header: () => <span className="sr-only">Details</span>,
        cell: ({ row }) => (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setOpen(row.original)}
            aria-label={`Details of ${row.original.action} on ${row.original.targetName ?? row.original.targetId ?? "target"}`}
          >
            Details
          </Button>
        ),
      },
    ],
    [],
  );
  return (
    <>
      <DataTable
        columns={columns}
        data={entries}
        getRowId={(e) => e.id}
        pagination={pagination}
        caption="Audit history, newest first"
        emptyTitle={filtered ? "Nothing matches these filters" : "No changes yet"}
        emptyText={filtered ? "Widen the dates or clear a filter." : "Changes made from the dashboard appear here."}
      />
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open ? `${open.action}` : ""}
        description={open ? `${open.actorName} · ${when.format(new Date(open.createdAt))} UTC` : undefined}
        size="lg"
      >
        {open && <EntryDetails entry={open} />}
      </Dialog>
    </>
  );
}

function EntryDetails({ entry }: { entry: AuditEntryView }) {
  const diff = diffSnapshots(entry.before, entry.after);
  return (
    <div className="flex flex-col gap-4 text-sm">
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1">
        <dt className="text-ink-muted">Target</dt>
        <dd>
          {entry.targetName ?? "—"}{" "}
          <span className="text-ink-muted">
            {entry.targetType} {entry.targetId}
          </span>
        </dd>
        <dt className="text-ink-muted">Reason</dt>
        <dd>{entry.reason ?? "—"}</dd>
        <dt className="text-ink-muted">Result</dt>
        <dd>
          {entry.status === "success"
            ? "Succeeded"
            : `Failed${entry.httpStatus ? ` (HTTP ${entry.httpStatus})` : ""}: ${entry.error ?? ""}`}
        </dd>
      </dl>
      <section aria-label="Before and after">
        <h3 className="mb-2 font-semibold">Before → after</h3>
        {diff.length === 0 ? (
          <p className="text-ink-muted">
            {entry.status === "success" ? "No recorded difference." : "Nothing changed."}
          </p>
        ) : (
          <table className="w-full table-fixed text-xs">
            <thead className="text-left text-ink-muted">
              <tr>
                <th scope="col" className="w-1/4 py-1">
                  Field
                </th>
                <th scope="col" className="py-1">
                  Before
                </th>
                <th scope="col" className="py-1">
                  After
                </th>
              </tr>
            </thead>
            <tbody className="font-mono">
              {diff.map((row) => (
                <tr key={row.field} className="border-t border-line align-top">
                  <td className="py-1.5 pr-2 font-sans font-medium">{row.field}</td>
                  <td className="break-words bg-danger/10 px-2 py-1.5">
                    <del className="no-underline">{show(row.before)}</del>
                  </td>
                  <td className="break-words bg-success/10 px-2 py-1.5">
                    <ins className="no-underline">{show(row.after)}</ins>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-label="Request">
        <h3 className="mb-2 font-semibold">Request</h3>
        <pre className="max-h-56 overflow-auto rounded-md bg-surface-sunken p-3 text-xs">
          {JSON.stringify(entry.request, null, 2) ?? "—"}
        </pre>
      </section>
    </div>
  );
}
