// One bulk-ban job: the preview's verdicts, progress and its controls (start, pause, resume after a reload, cancel,
// undo), and each id's result, filtered and paged (?result=&page=). The job is read from the dashboard's tables on
// every visit, so a reload picks up where the last chunk left it.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { JobPageFrame } from "@/components/dashboard/jobs/job-page-frame";
import { JobResults } from "@/components/dashboard/jobs/job-results";
import { getJob } from "@/lib/dashboard/jobs/bulk-ban/jobs";
import { getJobResultsPage } from "@/lib/dashboard/jobs/result-pages";
import { parseJobResultsQuery } from "@/lib/dashboard/jobs/results";
import { getGuildViewer, refusal } from "@/lib/dashboard/data/viewer";
import { JobRunner } from "./_components/job-runner";

export const metadata: Metadata = { title: "Bulk ban job" };

export default async function BulkBanJobPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string; jobId: string }>;
  searchParams: Promise<{ result?: string | string[]; page?: string | string[] }>;
}) {
  const { guildId, jobId } = await params;
  const viewer = await getGuildViewer(guildId);
  const back = { href: `/guilds/${guildId}/bans/bulk`, label: "Bulk ban", section: "Bulk ban" };
  const blocked = refusal(viewer, "Bulk Guild Ban");
  if (blocked) return <JobPageFrame title="Bulk ban job" back={back} blocked={blocked} />;
  const job = /^[a-z0-9]{1,40}$/.test(jobId) ? await getJob(guildId, jobId) : null;
  if (!job) notFound();
  const { filter, page } = parseJobResultsQuery(await searchParams);
  const results = await getJobResultsPage(job.id, filter, page);

  return (
    <JobPageFrame title="Bulk ban job" back={back} job={job}>
      <JobRunner guildId={guildId} job={job} />
      <JobResults
        guildId={guildId}
        results={results}
        title="Results per id"
        doneLabel="Banned"
        sendingDetail="checked with the API on resume"
        filters={[
          { id: "all", label: "All" },
          { id: "done", label: "Banned" },
          { id: "failed", label: "Failed" },
          { id: "skipped", label: "Skipped" },
          { id: "unsent", label: "Not sent" },
          { id: "unbanned", label: "Unbanned" },
        ]}
      />
    </JobPageFrame>
  );
}
