import { InviteTargetUsersJobStatus as JobStatus } from "discord-api-types/v10";
import { Badge } from "@/components/ui/badge";
import { Num } from "@/components/ui/locale";
import type { TargetUsersJob } from "@/lib/dashboard/actions/schemas/invites";

const plural = (n: number) => (
  <>
    <Num value={n} /> target user{n === 1 ? "" : "s"}
  </>
);

/** Whether an invite is limited to a list of users, and the state of the job saving that list. */
export function TargetUsersBadge({ job }: { job: TargetUsersJob | null }) {
  if (!job) return <Badge title="The target-users status could not be read">Target users unknown</Badge>;
  if (job.status === JobStatus.Processing) return <Badge tone="warning">Saving {plural(job.total)}</Badge>;
  if (job.status === JobStatus.Failed)
    return (
      <Badge tone="danger" title={job.errorMessage ?? undefined}>
        Target users failed
      </Badge>
    );
  if (job.total > 0)
    return (
      <Badge tone="blurple" title="Only these users can accept the invite">
        {plural(job.total)}
      </Badge>
    );
  return null;
}
