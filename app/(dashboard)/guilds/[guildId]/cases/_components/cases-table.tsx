"use client";

// The cases as a table on the dashboard's DataTable, newest first: the case's number, when, what (the type, and for a
// role change the roles added and removed), the member, the moderator, the reason (editable, "edited" when it was),
// the length and end of a temporary ban or a timeout, and where it was done (this dashboard, or the server's audit
// log, with a link to its entry's id). On a phone each case is a card headed by its number.
import { useMemo, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type DataColumn, type ServerPage } from "@/components/data-table/data-table";
import { useUrlState } from "@/components/data-table/url-state";
import { useLocale } from "@/components/ui/locale";
import { dateTimeFormat } from "@/components/ui/intl-formats";
import { CASE_TYPE_LABELS, type CaseType } from "@/lib/dashboard/cases/derive";
import type { ListedCase } from "@/lib/dashboard/cases/store";
import { formatDuration } from "@/lib/moderation/durations";
import { CaseReasonDialog } from "./case-reason-dialog";

const TYPE_TONES: Record<CaseType, BadgeTone> = {
  ban: "danger",
  unban: "success",
  kick: "warning",
  timeout: "warning",
  timeout_removed: "success",
  role_change: "neutral",
  warning: "warning",
  note: "neutral",
  appeal: "blurple",
};

function Person({ name, id, bot }: { name: string; id: string; bot?: boolean }) {
  // No id: who acted is the audit log's to tell, and the viewer may not read it (data/cases.ts).
  if (!id) return <span title="Who acted needs View Audit Log">{name}</span>;
  return (
    <span className="flex min-w-0 flex-col">
      <span className="break-words">
        {name}
        {bot && (
          <Badge tone="neutral" className="ml-1">
            Bot
          </Badge>
        )}
      </span>
      <span className="font-mono text-xs text-ink-muted">{id}</span>
    </span>
  );
}

/** "edited": the reason's earlier versions, who replaced each and when, oldest first. */
function ReasonEdits({ edits, locale }: { edits: ListedCase["edits"]; locale: string }) {
  const time = dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return (
    <details className="text-xs text-ink-muted">
      <summary className="cursor-pointer">edited</summary>
      <ol aria-label="Earlier reasons" className="mt-1 flex flex-col gap-1">
        {edits.map((edit) => (
          <li key={edit.at}>
            <q>{edit.previous ?? "No reason"}</q> until {time.format(Date.parse(edit.at))} UTC, changed by{" "}
            {edit.editorName}
          </li>
        ))}
      </ol>
    </details>
  );
}

export function CasesTable({
  guildId,
  cases,
  pagination,
  filtered,
  hiddenColumns,
}: {
  guildId: string;
  cases: ListedCase[];
  pagination: ServerPage;
  filtered: boolean;
  hiddenColumns: readonly string[];
}) {
  const [editing, setEditing] = useState<ListedCase | null>(null);
  const locale = useLocale();
  const { pending } = useUrlState();
  const columns = useMemo<DataColumn<ListedCase>[]>(
    () => [
      {
        id: "case",
        header: "Case",
        cell: ({ row }) => <span className="font-semibold tabular-nums">#{row.original.number}</span>,
      },
      {
        id: "when",
        header: "When",
        cell: ({ row }) => {
          const at = Date.parse(row.original.createdAt);
          return (
            <time dateTime={row.original.createdAt} className="flex flex-wrap gap-x-1.5 whitespace-nowrap sm:flex-col">
              <span>{dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(at)}</span>
              <span className="text-ink-muted">
                {dateTimeFormat(locale, { timeStyle: "short", timeZone: "UTC" }).format(at)} UTC
              </span>
            </time>
          );
        },
      },
      {
        id: "type",
        header: "Type",
        cell: ({ row }) => {
          const { type, details } = row.original;
          return (
            <span className="flex flex-col gap-1">
              <Badge tone={TYPE_TONES[type]}>{CASE_TYPE_LABELS[type]}</Badge>
              {details && (
                <span className="text-xs text-ink-muted">
                  {[
                    ...details.added.map((r) => `+${r.name ?? r.id}`),
                    ...details.removed.map((r) => `−${r.name ?? r.id}`),
                  ].join(", ")}
                </span>
              )}
            </span>
          );
        },
      },
      {
        id: "member",
        header: "Member",
        cell: ({ row }) => <Person name={row.original.targetName} id={row.original.targetId} />,
      },
      {
        id: "moderator",
        header: "Moderator",
        cell: ({ row }) => (
          <Person name={row.original.moderatorName} id={row.original.moderatorId} bot={row.original.moderatorBot} />
        ),
      },
      {
        id: "reason",
        header: "Reason",
        cell: ({ row }) => (
          <span className="flex max-w-xs flex-col items-start gap-1">
            <span className="break-words">
              {row.original.reason ?? <span className="text-ink-muted">No reason given</span>}
            </span>
            <span className="flex items-center gap-2">
              {row.original.edits.length > 0 && <ReasonEdits edits={row.original.edits} locale={locale} />}
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setEditing(row.original)}
                aria-label={`Edit the reason of case #${row.original.number}`}
              >
                Edit
              </Button>
            </span>
          </span>
        ),
      },
      {
        id: "length",
        header: "Length",
        cell: ({ row }) => {
          const { durationSeconds, endsAt, type } = row.original;
          if (durationSeconds === null)
            return <span className="text-ink-muted">{type === "ban" ? "Permanent" : "—"}</span>;
          return (
            <span className="flex flex-col">
              <span>{formatDuration(durationSeconds * 1000)}</span>
              {endsAt && (
                <span className="text-xs text-ink-muted">
                  until{" "}
                  {dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
                    Date.parse(endsAt),
                  )}{" "}
                  UTC
                </span>
              )}
            </span>
          );
        },
      },
      {
        id: "source",
        header: "Where",
        cell: ({ row }) => {
          const { source, auditLogId, historyId } = row.original;
          return (
            <span className="flex flex-col">
              <span>{source === "guild-log" ? "Audit log" : "This dashboard"}</span>
              <a
                href={`/guilds/${guildId}/audit-history?entry=${historyId}`}
                className="text-xs font-medium text-blurple hover:underline"
              >
                {auditLogId ? `entry ${auditLogId}` : "history entry"}
              </a>
            </span>
          );
        },
      },
    ],
    [locale, guildId],
  );
  return (
    <>
      <DataTable
        id="cases"
        columns={columns}
        data={cases}
        getRowId={(row) => row.id}
        rowProps={(row) => ({ "data-case-number": String(row.number) })}
        caption="Cases"
        hiddenColumns={hiddenColumns}
        pagination={pagination}
        emptyTitle={filtered ? "No case matches these filters" : "No cases yet"}
        emptyText={
          filtered
            ? "Widen the dates or clear a filter."
            : "Bans, kicks, timeouts, role changes, warnings and notes appear here as they happen."
        }
        busy={pending}
      />
      <CaseReasonDialog guildId={guildId} caseView={editing} onClose={() => setEditing(null)} />
    </>
  );
}
