// One bulk member job: what it does and to how many, progress and its controls (start, pause, resume after a reload,
// cancel), and each member's result (refusals explained), filtered and paged (?result=&page=). Read from the
// dashboard's tables on every visit, so a reload picks up where the last chunk left it.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { JobPageFrame } from "@/components/dashboard/jobs/job-page-frame";
import { JobResults } from "@/components/dashboard/jobs/job-results";
import { getMemberJob } from "@/lib/dashboard/jobs/member-actions/jobs";
import { describeMemberAction, DONE_WORDS } from "@/lib/dashboard/jobs/member-actions/types";
import { getJobResultsPage } from "@/lib/dashboard/jobs/result-pages";
import { parseJobResultsQuery } from "@/lib/dashboard/jobs/results";
import { getGuildViewer, refusal } from "@/lib/dashboard/data/viewer";
import { MemberJobRunner } from "./_components/member-job-runner";

export const metadata: Metadata = { title: "Bulk member action" };

export default async function MemberJobPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string; jobId: string }>;
  searchParams: Promise<{ result?: string | string[]; page?: string | string[] }>;
}) {
  const { guildId, jobId } = await params;
  const viewer = await getGuildViewer(guildId);
  const back = { href: `/guilds/${guildId}/members`, label: "Members", section: "Members" };
  const blocked = refusal(viewer, "Search Guild Members v2");
  if (blocked) return <JobPageFrame title="Bulk member action" back={back} blocked={blocked} />;
  const job = /^[a-z0-9]{1,40}$/.test(jobId) ? await getMemberJob(guildId, jobId) : null;
  if (!job) notFound();
  const { filter, page } = parseJobResultsQuery(await searchParams);
  const results = await getJobResultsPage(job.id, filter, page);

  return (
    <JobPageFrame
      title={`${describeMemberAction(job.kind, job.params)}: ${job.counts.total.toLocaleString("en-US")} members`}
      back={back}
      job={job}
    >
      <MemberJobRunner guildId={guildId} job={job} />
      <JobResults
        guildId={guildId}
        results={results}
        doneLabel={DONE_WORDS[job.kind]}
        filters={[
          { id: "all", label: "All" },
          { id: "done", label: DONE_WORDS[job.kind] },
          { id: "failed", label: "Failed" },
          { id: "skipped", label: "Skipped" },
          { id: "unsent", label: "Not sent" },
        ]}
      />
    </JobPageFrame>
  );
}
