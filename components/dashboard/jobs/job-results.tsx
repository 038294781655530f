"use client";

// The one per-member results table of every bulk job (bulk ban; the members page's role, timeout and kick jobs), on
// the dashboard's DataTable: who each one is (avatar, name, the id to copy), what happened and why (a column the
// moderator may hide), filtered by outcome and paged by the server, so every member of a 10,000-member job can be
// reached. The filter and page are links (URL state: ?result=&page=). No header sorts: the server lists a job's
// members in one order (by id), and the filters are how a moderator finds the failures. On a phone each member is a
// card.
import { useMemo } from "react";
import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { DataTable, type DataColumn } from "@/components/data-table/data-table";
import { useUrlState } from "@/components/data-table/url-state";
import { UserChip } from "@/components/dashboard/user-chip";
import { useUserRefs } from "@/components/dashboard/use-user-refs";
import type { JobResultFilter, JobResultRow, JobResultsPage } from "@/lib/dashboard/jobs/results";
import { placeholderUser } from "@/lib/dashboard/users/user-ref";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { plural } from "@/lib/dashboard/plural";

const STATE_LOOK: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: "Not sent", tone: "neutral" },
  sending: { label: "Sent, no answer", tone: "warning" },
  done: { label: "Done", tone: "success" },
  banned: { label: "Banned", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  skipped: { label: "Skipped", tone: "neutral" },
  unbanned: { label: "Unbanned", tone: "blurple" },
};

export function JobResults({
  guildId,
  results,
  filters,
  doneLabel,
  sendingDetail = "",
  title = "Results per member",
  hiddenColumns,
}: {
  guildId: string;
  results: JobResultsPage;
  /** The filters this kind of job offers, with their labels, in order ("done": "Banned", "Role added", …). */
  filters: ReadonlyArray<{ id: JobResultFilter; label: string }>;
  /** What "done" reads as for this kind of job. */
  doneLabel: string;
  /** What a "sent, no answer" row says about itself. */
  sendingDetail?: string;
  title?: string;
  /** The columns this moderator hid, as saved. */
  hiddenColumns: readonly string[];
}) {
  const { hrefWith, pending } = useUrlState();
  const locale = useLocale();
  const n = (value: number) => formatNumber(value, locale);
  const { rows, filter, page, pageCount, counts } = results;
  const people = useUserRefs(
    guildId,
    rows.map((row) => row.userId),
  );
  const pageHref = (to: number) => hrefWith({ page: to > 1 ? String(to) : null });

  const columns = useMemo<DataColumn<JobResultRow>[]>(
    () => [
      {
        id: "member",
        header: "Member",
        cell: ({ row }) => (
          <UserChip
            user={
              people[row.original.userId] ?? {
                ...placeholderUser(row.original.userId),
                displayName: row.original.name ?? row.original.userId,
              }
            }
            size={24}
          />
        ),
      },
      {
        id: "result",
        header: "Result",
        cell: ({ row }) => {
          const { state } = row.original;
          const look = STATE_LOOK[state] ?? { label: state, tone: "neutral" as const };
          return <Badge tone={look.tone}>{state === "done" || state === "banned" ? doneLabel : look.label}</Badge>;
        },
      },
      {
        id: "detail",
        header: "Why",
        cell: ({ row }) => {
          const why = row.original.state === "sending" ? sendingDetail : row.original.detail;
          return (
            <span className={cn("break-words", row.original.state === "failed" ? "text-danger" : "text-ink-muted")}>
              {why || "—"}
            </span>
          );
        },
      },
    ],
    [people, doneLabel, sendingDetail],
  );

  return (
    <Card>
      <CardHeader title={title} />
      <DataTable
        id="job-results"
        columns={columns}
        data={rows}
        getRowId={(row) => row.userId}
        rowProps={(row) => ({ "data-user-id": row.userId })}
        caption={title}
        emptyTitle="Nobody here"
        emptyText="No member of this job has this result."
        hiddenColumns={hiddenColumns}
        busy={pending}
        toolbar={
          <nav aria-label="Show results" className="flex flex-wrap gap-1.5">
            {filters.map((f) => (
              <Link
                prefetch={false}
                key={f.id}
                href={hrefWith({ result: f.id === "all" ? null : f.id, page: null })}
                scroll={false}
                aria-current={filter === f.id ? "page" : undefined}
                className={cn(
                  "rounded-full px-3 py-1 text-sm ring-1 ring-inset ring-line hover:bg-surface-sunken",
                  filter === f.id && "bg-blurple/15 text-blurple ring-blurple/40 dark:text-white",
                )}
              >
                {f.label} <span className="tabular-nums text-ink-muted">{n(counts[f.id])}</span>
              </Link>
            ))}
          </nav>
        }
        // One page needs no pager.
        pagination={
          pageCount > 1
            ? {
                page,
                previousHref: page > 1 ? pageHref(page - 1) : null,
                nextHref: page < pageCount ? pageHref(page + 1) : null,
                summary: `of ${n(pageCount)} (${plural(counts[filter], "member", { format: n })})`,
              }
            : undefined
        }
      />
    </Card>
  );
}
