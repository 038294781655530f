// One bulk member job: what it does and to how many, the preview's verdicts, progress, each member's result (refusals
// explained), and its controls (start, pause, resume after a reload, cancel). Read from the dashboard's tables on
// every visit, so a reload picks up where the last chunk left it.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { NoAccess } from "@/components/dashboard/no-access";
import { getMemberJob } from "@/lib/dashboard/jobs/member-actions/jobs";
import { describeMemberAction } from "@/lib/dashboard/jobs/member-actions/types";
import { getGuildViewer, refusal } from "@/lib/dashboard/data/viewer";
import { MemberJobRunner } from "./_components/member-job-runner";

export const metadata: Metadata = { title: "Bulk member action" };

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default async function MemberJobPage({ params }: { params: Promise<{ guildId: string; jobId: string }> }) {
  const { guildId, jobId } = await params;
  const viewer = await getGuildViewer(guildId);
  const back = (
    <Link href={`/guilds/${guildId}/members`} className="inline-flex items-center gap-1 hover:underline">
      <Icons.arrowLeft className="size-3.5" /> Members
    </Link>
  );
  const blocked = refusal(viewer, "Search Guild Members v2");
  if (blocked)
    return (
      <>
        <PageHeader title="Bulk member action" description={back} />
        <NoAccess section="Members" reason={blocked} />
      </>
    );
  const job = /^[a-z0-9]{1,40}$/.test(jobId) ? await getMemberJob(guildId, jobId) : null;
  if (!job) notFound();

  return (
    <>
      <PageHeader
        title={`${describeMemberAction(job.kind, job.params)}: ${job.counts.total.toLocaleString("en-US")} members`}
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
      <MemberJobRunner guildId={guildId} job={job} />
    </>
  );
}
