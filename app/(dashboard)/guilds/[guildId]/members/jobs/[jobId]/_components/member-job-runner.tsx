"use client";

// A bulk member job in the one job runner (components/dashboard/jobs/job-runner.tsx): each chunk is one server action
// for which the server picks the next pending members, and answers the counts, the status and, when the API's rate
// limit outlasted what the client waits by itself, how long to wait before the next.
import { JobRunner, type JobMode } from "@/components/dashboard/jobs/job-runner";
import { useAction } from "@/components/dashboard/use-action";
import {
  cancelMemberJobAction,
  pauseMemberJobAction,
  runBulkAddRoleChunkAction,
  runBulkKickChunkAction,
  runBulkRemoveRoleChunkAction,
  runBulkRemoveTimeoutChunkAction,
  runBulkTimeoutChunkAction,
  startMemberJobAction,
} from "@/lib/dashboard/actions/member-jobs";
import {
  describeMemberAction,
  DONE_WORDS,
  type MemberJobKind,
  type MemberJobView,
} from "@/lib/dashboard/jobs/member-actions/types";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { plural } from "@/lib/dashboard/plural";

const CHUNK_ACTIONS: Record<MemberJobKind, typeof runBulkAddRoleChunkAction> = {
  add_role: runBulkAddRoleChunkAction,
  remove_role: runBulkRemoveRoleChunkAction,
  timeout: runBulkTimeoutChunkAction,
  remove_timeout: runBulkRemoveTimeoutChunkAction,
  kick: runBulkKickChunkAction,
};

export function MemberJobRunner({ guildId, job }: { guildId: string; job: MemberJobView }) {
  const locale = useLocale();
  const n = (value: number) => formatNumber(value, locale);
  const start = useAction(startMemberJobAction, { quiet: true, failure: "Couldn't start the job" });
  const chunk = useAction(CHUNK_ACTIONS[job.kind], { quiet: true, failure: "A chunk was not sent; the job stopped" });
  const pause = useAction(pauseMemberJobAction, { failure: "Couldn't pause" });
  const cancel = useAction(cancelMemberJobAction, { failure: "Couldn't cancel" });
  const ids = { guildId, jobId: job.id };
  const action = describeMemberAction(job.kind, job.params);

  const send: JobMode<MemberJobView> = {
    id: "send",
    available: (j) => ["ready", "paused", "running"].includes(j.status) && j.counts.pending + j.counts.sending > 0,
    button: (j) => (j.status === "ready" ? `Start: ${plural(j.counts.pending, "member", { format: n })}` : "Resume"),
    variant: job.kind === "kick" ? "danger" : "primary",
    confirm: (j) =>
      j.status === "ready"
        ? {
            title: `${action}: ${plural(j.counts.pending, "member", { format: n })}?`,
            description: "One request per member. You can pause and resume.",
            button: "Start",
          }
        : null,
    working: "Working…",
    begin: async (j) => {
      const started = await start.run(ids);
      return started.ok ? { ...j, status: started.data.status, counts: started.data.counts } : null;
    },
    step: async (j) => {
      const result = await chunk.run({ ...ids, reason: j.reason ?? undefined });
      if (!result.ok) return null;
      return {
        job: { ...j, status: result.data.status, counts: result.data.counts },
        retryAfter: result.data.retryAfter,
      };
    },
    more: (j) => j.status === "running" && j.counts.pending > 0,
    finished: (j) =>
      j.status === "completed"
        ? {
            title: "Bulk action finished",
            text: `${j.counts.done} done, ${j.counts.failed} failed, ${j.counts.skipped} skipped.`,
          }
        : null,
  };

  return (
    <JobRunner
      job={job}
      modes={[send]}
      pause={() => pause.run(ids)}
      cancel={() => cancel.run(ids)}
      pausePending={pause.pending}
      cancelPending={cancel.pending}
      progressId="member-job-progress-label"
      summary={(j) =>
        `${plural(j.counts.total, "member", { format: n })}: ${n(j.counts.total - j.counts.skipped)} to change, ${n(j.counts.skipped)} skipped`
      }
      progress={(j) => ({
        processed: j.counts.done + j.counts.failed,
        toSend: j.counts.total - j.counts.skipped,
        stats: [
          { label: DONE_WORDS[j.kind], value: j.counts.done, tone: "text-success" },
          { label: "Failed", value: j.counts.failed, tone: "text-danger" },
          { label: "Skipped", value: j.counts.skipped },
          { label: "Not sent", value: j.counts.pending + j.counts.sending },
        ],
      })}
    />
  );
}
