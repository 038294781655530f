// Bulk ban: a new job (paste or import ids, then a preview) and the server's recent jobs, any of which can be
// opened to resume, cancel or undo.
import type { Metadata } from "next";
import Link from "next/link";
import { Card, CardHeader, PageHeader } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { NoAccess } from "@/components/dashboard/no-access";
import { listJobs } from "@/lib/dashboard/jobs/bulk-ban/jobs";
import { getGuildViewer, refusal } from "@/lib/dashboard/data/viewer";
import { BulkBanForm } from "./_components/bulk-ban-form";
import { JobStatusBadge } from "@/components/dashboard/jobs/job-status";
import { getRequestLocale } from "@/lib/dashboard/locale";
import { plural } from "@/lib/dashboard/plural";

export const metadata: Metadata = { title: "Bulk ban" };

export default async function BulkBanPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const [viewer, locale] = await Promise.all([getGuildViewer(guildId), getRequestLocale()]);
  // The reader's locale, in UTC as every date the dashboard prints.
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const count = new Intl.NumberFormat(locale);
  const header = (
    <PageHeader
      title="Bulk ban"
      description={
        <Link
          prefetch={false}
          href={`/guilds/${guildId}/bans`}
          className="inline-flex items-center gap-1 hover:underline"
        >
          <Icons.arrowLeft className="size-3.5" /> Bans
        </Link>
      }
    />
  );
  const blocked = refusal(viewer, "Bulk Guild Ban");
  if (blocked)
    return (
      <>
        {header}
        <NoAccess section="Bulk ban" reason={blocked} />
      </>
    );
  const jobs = await listJobs(guildId);

  return (
    <>
      {header}
      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader
            title="New bulk ban"
            description="Bans go out 200 at a time; you can pause, resume after a reload, cancel, and undo."
          />
          <BulkBanForm guildId={guildId} />
        </Card>
        <Card>
          <CardHeader title="Recent jobs" />
          {jobs.length === 0 ? (
            <p className="text-sm text-ink-muted">No bulk bans yet.</p>
          ) : (
            <ul aria-label="Recent bulk-ban jobs" className="flex flex-col divide-y divide-line">
              {jobs.map((job) => (
                <li key={job.id}>
                  <Link
                    prefetch={false}
                    href={`/guilds/${guildId}/bans/bulk/${job.id}`}
                    className="flex flex-wrap items-center justify-between gap-2 rounded-md px-1 py-2.5 hover:bg-surface-sunken"
                  >
                    <span className="min-w-0">
                      <span className="block text-sm font-medium">
                        {plural(job.counts.total, "id", { format: (n) => count.format(n) })} by {job.actorName}
                      </span>
                      <span className="block text-xs text-ink-muted">
                        {when.format(new Date(job.createdAt))} UTC ·{" "}
                        {count.format(job.counts.banned + job.counts.unbanned)} banned,{" "}
                        {count.format(job.counts.failed)} failed, {count.format(job.counts.skipped)} skipped
                      </span>
                    </span>
                    <JobStatusBadge status={job.status} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}
