// One bulk member job: what it does and to how many, progress and its controls (start, pause, resume after a reload,
// cancel), and each member's result (refusals explained), filtered and paged (?result=&page=). Read from the
// dashboard's tables on every visit, so a reload picks up where the last chunk left it.
import type { Metadata } from "next";
import { JobPageFrame } from "@/components/dashboard/jobs/job-page-frame";
import { JobResults } from "@/components/dashboard/jobs/job-results";
import { getMemberJob } from "@/lib/dashboard/jobs/member-actions/jobs";
import { describeMemberAction, DONE_WORDS } from "@/lib/dashboard/jobs/member-actions/types";
import { loadJobPage, type JobPageProps } from "@/lib/dashboard/jobs/job-page";
import { MemberJobRunner } from "./_components/member-job-runner";
import { getRequestLocale } from "@/lib/dashboard/locale";
import { plural } from "@/lib/dashboard/plural";

export const metadata: Metadata = { title: "Bulk member action" };

export default async function MemberJobPage(props: JobPageProps) {
  const loaded = await loadJobPage(props, "Search Guild Members v2", getMemberJob);
  const back = { href: `/guilds/${loaded.guildId}/members`, label: "Members", section: "Members" };
  if (loaded.blocked !== null) return <JobPageFrame title="Bulk member action" back={back} blocked={loaded.blocked} />;
  const { guildId, job, results, hiddenColumns } = loaded;
  const count = new Intl.NumberFormat(await getRequestLocale());
  const total = plural(job.counts.total, "member", { format: (n) => count.format(n) });

  return (
    <JobPageFrame title={`${describeMemberAction(job.kind, job.params)}: ${total}`} back={back} job={job}>
      <MemberJobRunner guildId={guildId} job={job} />
      <JobResults
        guildId={guildId}
        results={results}
        hiddenColumns={hiddenColumns}
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
