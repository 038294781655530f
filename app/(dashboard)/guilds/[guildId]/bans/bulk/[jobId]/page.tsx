// One bulk-ban job: the preview's verdicts, progress, per-id results, and its controls (start, pause, resume after
// a reload, cancel, undo). The job is read from the dashboard's tables on every visit, so a reload picks up where
// the last chunk left it.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { NoAccess } from "@/components/dashboard/no-access";
import { getJob } from "@/lib/dashboard/jobs/bulk-ban/jobs";
import { getGuildViewer, refusal } from "@/lib/dashboard/data/viewer";
import { JobRunner } from "./_components/job-runner";

export const metadata: Metadata = { title: "Bulk ban job" };

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default async function BulkBanJobPage({ params }: { params: Promise<{ guildId: string; jobId: string }> }) {
  const { guildId, jobId } = await params;
  const viewer = await getGuildViewer(guildId);
  const blocked = refusal(viewer, "Bulk Guild Ban");
  const back = (
    <Link href={`/guilds/${guildId}/bans/bulk`} className="inline-flex items-center gap-1 hover:underline">
      <Icons.arrowLeft className="size-3.5" /> Bulk ban
    </Link>
  );
  if (blocked)
    return (
      <>
        <PageHeader title="Bulk ban job" description={back} />
        <NoAccess section="Bulk ban" reason={blocked} />
      </>
    );
  const job = /^[a-z0-9]{1,40}$/.test(jobId) ? await getJob(guildId, jobId) : null;
  if (!job) notFound();

  return (
    <>
      <PageHeader
        title="Bulk ban job"
        description={
          <span className="flex flex-wrap gap-x-3 gap-y-1">
            {back}
            <span>
              Prepared by {job.actorName} on {when.format(new Date(job.createdAt))} UTC
            </span>
            <span>Reason: {job.reason ?? "none given"}</span>
          </span>
        }
      />
      <JobRunner guildId={guildId} job={job} />
    </>
  );
}
