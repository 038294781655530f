"use client";

// The one per-member results list of every bulk job (bulk ban; the members page's role, timeout and kick jobs): who
// each one is (avatar, name, the id to copy), what happened and why, filtered by outcome and paged by the server, so
// every member of a 10,000-member job can be reached. The filter and page are links (URL state: ?result=&page=).
import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { useUrlState } from "@/components/data-table/url-state";
import { UserChip } from "@/components/dashboard/user-chip";
import { useUserRefs } from "@/components/dashboard/use-user-refs";
import type { JobResultFilter, JobResultsPage } from "@/lib/dashboard/jobs/results";
import { placeholderUser } from "@/lib/dashboard/users/user-ref";
import { TableHead } from "@/components/ui/table-head";
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
}) {
  const { hrefWith } = useUrlState();
  const locale = useLocale();
  const n = (value: number) => formatNumber(value, locale);
  const { rows, filter, page, pageCount, counts } = results;
  const people = useUserRefs(
    guildId,
    rows.map((row) => row.userId),
  );
  const pageHref = (to: number) => hrefWith({ page: to > 1 ? String(to) : null });

  return (
    <Card>
      <CardHeader title={title} />
      <nav aria-label="Show results" className="mb-3 flex flex-wrap gap-1.5">
        {filters.map((f) => (
          <Link
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
      <div className="overflow-x-auto rounded-lg ring-1 ring-line">
        <table className="w-full min-w-[32rem] text-sm" aria-label={title} data-testid="job-results">
          <TableHead columns={[{ label: "Member" }, { label: "Result" }, { label: "Why" }]} />
          <tbody>
            {rows.map((row) => {
              const look = STATE_LOOK[row.state] ?? { label: row.state, tone: "neutral" as const };
              const user = people[row.userId] ?? {
                ...placeholderUser(row.userId),
                displayName: row.name ?? row.userId,
              };
              return (
                <tr key={row.userId} data-user-id={row.userId} className="border-b border-line last:border-0">
                  <td className="px-3 py-1.5">
                    <UserChip user={user} size={24} />
                  </td>
                  <td className="px-3 py-1.5">
                    <Badge tone={look.tone}>
                      {row.state === "done" || row.state === "banned" ? doneLabel : look.label}
                    </Badge>
                  </td>
                  <td className={cn("px-3 py-1.5", row.state === "failed" ? "text-danger" : "text-ink-muted")}>
                    {row.state === "sending" ? sendingDetail : (row.detail ?? "")}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 && <p className="p-4 text-center text-sm text-ink-muted">Nobody here.</p>}
      </div>
      {pageCount > 1 && (
        <nav aria-label="Result pages" className="mt-3 flex items-center justify-between gap-2 text-sm">
          <span className="text-ink-muted">
            Page {n(page)} of {n(pageCount)} ({plural(counts[filter], "member", { format: n })})
          </span>
          <span className="flex gap-2">
            {page > 1 && (
              <Link href={pageHref(page - 1)} scroll={false} className="rounded-md px-3 py-1 ring-1 ring-line">
                Previous
              </Link>
            )}
            {page < pageCount && (
              <Link href={pageHref(page + 1)} scroll={false} className="rounded-md px-3 py-1 ring-1 ring-line">
                Next
              </Link>
            )}
          </span>
        </nav>
      )}
    </Card>
  );
}
