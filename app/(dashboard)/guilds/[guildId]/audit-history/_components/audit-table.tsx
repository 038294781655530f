"use client";

// The audit history as a table on the dashboard's DataTable: when, who, what (the sentence's predicate, with the
// changed fields in words when there are more than the sentence names, and the entry's details in a dialog), on what,
// why, where it was done and whether it worked; the When header sorts newest or oldest first (the server's order, in
// the URL). On a phone each entry is a card headed by its time.
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { DataTable, type DataColumn, type ServerPage } from "@/components/data-table/data-table";
import { useUrlState } from "@/components/data-table/url-state";
import { UserChip } from "@/components/dashboard/user-chip";
import { changePhrase, type ChangeLine } from "@/lib/dashboard/audit/fields";
import { DEFAULT_TIME_ORDER, TIME_SORTS, type TimeOrder } from "@/lib/dashboard/list-params";
import type { AuditRow } from "@/lib/dashboard/data/audit-history";
import { useLocale } from "@/components/ui/locale";
import { formatExactTime } from "@/components/ui/relative-time";
import { dateTimeFormat } from "@/components/ui/intl-formats";
import { AUDIT_PAGING_KEYS } from "../filters";

function ChangeList({ changes }: { changes: ChangeLine[] }) {
  return (
    <ul className="mt-1 flex flex-col gap-0.5 text-xs text-ink-muted">
      {changes.map((line, i) => (
        <li key={`${line.field}-${i}`} className="break-words">
          <span className="font-medium text-ink">{line.field}</span>{" "}
          {line.summary !== undefined ? (
            line.summary
          ) : (
            <>
              {line.before !== undefined && <del className="decoration-danger/60">{line.before}</del>}
              {line.before !== undefined && line.after !== undefined && " → "}
              {line.after !== undefined && <ins className="no-underline">{line.after}</ins>}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export function AuditTable({
  rows,
  order,
  pagination,
  filtered,
  hiddenColumns,
}: {
  rows: AuditRow[];
  order: TimeOrder;
  pagination: ServerPage;
  filtered: boolean;
  hiddenColumns: readonly string[];
}) {
  const [open, setOpen] = useState<AuditRow | null>(null);
  const locale = useLocale();
  const { pending } = useUrlState();
  const columns = useMemo<DataColumn<AuditRow>[]>(
    () => [
      {
        id: "when",
        header: "When",
        sort: TIME_SORTS,
        // The day over the time (to the second, in UTC): two short lines keep the column narrow.
        cell: ({ row }) => {
          const at = Date.parse(row.original.entry.createdAt);
          return (
            <time
              dateTime={row.original.entry.createdAt}
              className="flex flex-wrap gap-x-1.5 whitespace-nowrap tabular-nums sm:flex-col"
            >
              <span>{dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(at)}</span>
              <span className="text-ink-muted">
                {dateTimeFormat(locale, { timeStyle: "medium", timeZone: "UTC" }).format(at)} UTC
              </span>
            </time>
          );
        },
      },
      {
        id: "who",
        header: "Who",
        cell: ({ row }) => <UserChip user={row.original.actor} size={22} showUsername={false} />,
      },
      {
        id: "what",
        header: "What",
        // The entry's details open from here (what changed, before and after), not from a column of their own: the
        // table then fits a 1280 px screen beside the sidebar.
        cell: ({ row }) => {
          const { sentence } = row.original;
          return (
            <span className="block min-w-44 max-w-md break-words">
              {sentence.predicate}{" "}
              <button
                type="button"
                onClick={() => setOpen(row.original)}
                aria-label={`Details: ${sentence.text}`}
                className="inline-flex whitespace-nowrap rounded px-1 py-0.5 text-xs font-medium text-blurple-ink hover:underline"
              >
                Details
              </button>
              {sentence.changes.length > 3 && <ChangeList changes={sentence.changes} />}
            </span>
          );
        },
      },
      {
        id: "target",
        header: "Target",
        // At most 10rem (a long name is cut, whole in the sentence and the details), so the row keeps to the screen.
        cell: ({ row }) =>
          row.original.target ? (
            <UserChip user={row.original.target} size={18} showUsername={false} className="sm:max-w-40" />
          ) : (
            <span className="block break-words sm:max-w-40">
              {row.original.targetLabel ?? <span className="text-ink-muted">—</span>}
            </span>
          ),
      },
      {
        id: "reason",
        header: "Reason",
        cell: ({ row }) =>
          row.original.entry.reason ? (
            <span className="block max-w-xs break-words">{row.original.entry.reason}</span>
          ) : (
            <span className="text-ink-muted">—</span>
          ),
      },
      {
        id: "source",
        header: "Where",
        // This dashboard, or the server's own audit log and who wrote there (a bot, by name, or another client).
        cell: ({ row }) =>
          row.original.entry.source === "guild-log" ? (
            <span className="flex flex-wrap gap-x-1.5 sm:flex-col">
              <span>Audit log</span>
              <span className="text-ink-muted">via {row.original.sentence.source}</span>
            </span>
          ) : (
            <span>This dashboard</span>
          ),
      },
      {
        id: "result",
        header: "Result",
        cell: ({ row }) => {
          const { entry } = row.original;
          return entry.status === "success" ? (
            <Badge tone="success">Succeeded</Badge>
          ) : (
            <Badge tone="danger" title={entry.error ?? undefined}>
              Failed{entry.httpStatus ? ` (${entry.httpStatus})` : ""}
            </Badge>
          );
        },
      },
    ],
    [locale],
  );
  return (
    <>
      <DataTable
        id="audit-history"
        columns={columns}
        data={rows}
        getRowId={(row) => row.entry.id}
        rowProps={(row) => ({ "data-entry-id": row.entry.id })}
        caption="Audit history"
        sorting={{ value: order, defaultValue: DEFAULT_TIME_ORDER, resets: AUDIT_PAGING_KEYS }}
        hiddenColumns={hiddenColumns}
        pagination={pagination}
        emptyTitle={filtered ? "Nothing matches these filters" : "No changes yet"}
        emptyText={filtered ? "Widen the dates or clear a filter." : "Changes to the server appear here."}
        busy={pending}
      />
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open ? open.sentence.text : ""}
        description={
          open
            ? `${formatExactTime(Date.parse(open.entry.createdAt), locale, { seconds: true })} · ${open.sentence.source}`
            : undefined
        }
        size="lg"
      >
        {open && <EntryDetails row={open} />}
      </Dialog>
    </>
  );
}

function EntryDetails({ row }: { row: AuditRow }) {
  const { entry, sentence } = row;
  return (
    <div className="flex flex-col gap-4 text-sm">
      <dl className="grid grid-cols-1 gap-x-3 gap-y-1 sm:grid-cols-[9rem_1fr]">
        <dt className="text-ink-muted">Who</dt>
        <dd>
          <UserChip user={row.actor} />
        </dd>
        {row.target && (
          <>
            <dt className="text-ink-muted">About</dt>
            <dd>
              <UserChip user={row.target} />
            </dd>
          </>
        )}
        {!row.target && entry.targetId && (
          <>
            <dt className="text-ink-muted">Target</dt>
            <dd className="break-words">
              {entry.targetName ?? "—"} <span className="font-mono text-xs text-ink-muted">{entry.targetId}</span>
            </dd>
          </>
        )}
        <dt className="text-ink-muted">Reason</dt>
        <dd className="break-words">{entry.reason ?? "—"}</dd>
        <dt className="text-ink-muted">Done in</dt>
        <dd>{sentence.source}</dd>
        <dt className="text-ink-muted">Result</dt>
        <dd className="break-words">
          {entry.status === "success"
            ? "Succeeded"
            : `Failed${entry.httpStatus ? ` (HTTP ${entry.httpStatus})` : ""}: ${entry.error ?? ""}`}
        </dd>
        {entry.auditLogId && (
          <>
            <dt className="text-ink-muted">Audit log entry</dt>
            <dd className="font-mono text-xs">{entry.auditLogId}</dd>
          </>
        )}
      </dl>
      <section aria-label="What changed">
        <h3 className="mb-2 font-semibold">What changed</h3>
        {sentence.changes.length === 0 ? (
          <p className="text-ink-muted">{entry.status === "success" ? "No fields changed." : "Nothing changed."}</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {sentence.changes.map((line, i) => (
              <li key={`${line.field}-${i}`} className="break-words">
                {changePhrase(line)}
              </li>
            ))}
          </ul>
        )}
      </section>
      {entry.request !== null && entry.request !== undefined && (
        <details>
          <summary className="cursor-pointer text-ink-muted">The request as sent</summary>
          <pre className="mt-2 max-h-56 overflow-auto rounded-md bg-surface-sunken p-3 text-xs">
            {JSON.stringify(entry.request, null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
}
