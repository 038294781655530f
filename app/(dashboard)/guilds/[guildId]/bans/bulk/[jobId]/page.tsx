// One bulk-ban job: the preview's verdicts, progress and its controls (start, pause, resume after a reload, cancel,
// undo), and each id's result, filtered and paged (?result=&page=). The job is read from the dashboard's tables on
// every visit, so a reload picks up where the last chunk left it.
import type { Metadata } from "next";
import { JobPageFrame } from "@/components/dashboard/jobs/job-page-frame";
import { JobResults } from "@/components/dashboard/jobs/job-results";
import { getJob } from "@/lib/dashboard/jobs/bulk-ban/jobs";
import { loadJobPage, type JobPageProps } from "@/lib/dashboard/jobs/job-page";
import { BulkBanJobRunner } from "./_components/job-runner";

export const metadata: Metadata = { title: "Bulk ban job" };

export default async function BulkBanJobPage(props: JobPageProps) {
  const loaded = await loadJobPage(props, "Bulk Guild Ban", getJob);
  const back = { href: `/guilds/${loaded.guildId}/bans/bulk`, label: "Bulk ban", section: "Bulk ban" };
  if (loaded.blocked !== null) return <JobPageFrame title="Bulk ban job" back={back} blocked={loaded.blocked} />;
  const { guildId, job, results, hiddenColumns } = loaded;

  return (
    <JobPageFrame title="Bulk ban job" back={back} job={job}>
      <BulkBanJobRunner guildId={guildId} job={job} />
      <JobResults
        guildId={guildId}
        results={results}
        hiddenColumns={hiddenColumns}
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
