"use client";

// Drives a bulk member job from the browser: one server action per chunk (the server picks the next members), the
// next only after the last has answered. A rate limit the API client did not wait out by itself is waited out here
// before the next chunk. Pausing stops calling (the chunk in flight finishes); a reload resumes from the job as the
// server stored it. After each chunk the page is refreshed, so the results list below (the page's, server-paged)
// shows what the chunk did.
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { JobProgress } from "@/components/dashboard/job-progress";
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
import { JobStatusBadge } from "@/components/dashboard/jobs/job-status";

const CHUNK_ACTIONS: Record<MemberJobKind, typeof runBulkAddRoleChunkAction> = {
  add_role: runBulkAddRoleChunkAction,
  remove_role: runBulkRemoveRoleChunkAction,
  timeout: runBulkTimeoutChunkAction,
  remove_timeout: runBulkRemoveTimeoutChunkAction,
  kick: runBulkKickChunkAction,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function MemberJobRunner({ guildId, job: stored }: { guildId: string; job: MemberJobView }) {
  const router = useRouter();
  const toast = useToast();
  const [job, setJob] = useState(stored);
  const [seen, setSeen] = useState(stored);
  const [driving, setDriving] = useState(false);
  const [waiting, setWaiting] = useState<number | null>(null);
  const [confirm, setConfirm] = useState(false);
  const stop = useRef(false);
  // While driving, the runner's own copy is the truth; otherwise the server's latest render is.
  if (stored !== seen && !driving) {
    setSeen(stored);
    setJob(stored);
  }

  const start = useAction(startMemberJobAction, { quiet: true, failure: "Couldn't start the job" });
  const chunk = useAction(CHUNK_ACTIONS[job.kind], { quiet: true, failure: "A chunk was not sent; the job stopped" });
  const pause = useAction(pauseMemberJobAction, { failure: "Couldn't pause" });
  const cancel = useAction(cancelMemberJobAction, { failure: "Couldn't cancel" });
  const ids = { guildId, jobId: job.id };
  const reason = job.reason ?? undefined;

  async function run() {
    stop.current = false;
    setDriving(true);
    const started = await start.run(ids);
    if (started.ok) {
      let counts = started.data.counts;
      let status = started.data.status;
      setJob((j) => ({ ...j, counts, status }));
      while (!stop.current && status === "running" && counts.pending > 0) {
        const result = await chunk.run({ ...ids, reason });
        if (!result.ok) break;
        counts = result.data.counts;
        status = result.data.status;
        setJob((j) => ({ ...j, counts, status }));
        router.refresh();
        if (result.data.retryAfter) {
          // Rate limited for longer than the client waits by itself: wait, then carry on.
          setWaiting(result.data.retryAfter);
          await sleep(result.data.retryAfter * 1000);
          setWaiting(null);
        }
      }
      if (status === "completed")
        toast.success(
          "Bulk action finished",
          `${counts.done} done, ${counts.failed} failed, ${counts.skipped} skipped.`,
        );
    }
    setDriving(false);
    router.refresh();
  }

  async function onPause() {
    stop.current = true;
    const result = await pause.run(ids);
    if (result.ok) setJob((j) => ({ ...j, status: "paused" }));
  }

  async function onCancel() {
    stop.current = true;
    const result = await cancel.run(ids);
    if (result.ok) setJob((j) => ({ ...j, status: "cancelled" }));
  }

  const { counts, status } = job;
  const toSend = counts.total - counts.skipped;
  const processed = counts.done + counts.failed;
  const interrupted = status === "running" && !driving;
  const canStart =
    !driving &&
    (status === "ready" || status === "paused" || status === "running") &&
    counts.pending + counts.sending > 0;
  const canCancel = ["ready", "running", "paused"].includes(status);
  const action = describeMemberAction(job.kind, job.params);

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2">
            <JobStatusBadge status={status} label={interrupted ? "Interrupted" : undefined} />
            <span className="text-sm text-ink-muted" data-testid="job-summary">
              {counts.total.toLocaleString("en-US")} members: {toSend.toLocaleString("en-US")} to change,{" "}
              {counts.skipped.toLocaleString("en-US")} skipped
            </span>
          </div>
          <div className="flex flex-wrap gap-2">
            {canStart && (
              <Button
                variant={job.kind === "kick" ? "danger" : "primary"}
                onClick={() => (status === "ready" ? setConfirm(true) : void run())}
                pending={start.pending}
              >
                {status === "ready" ? `Start: ${counts.pending.toLocaleString("en-US")} members` : "Resume"}
              </Button>
            )}
            {(driving || interrupted) && (
              <Button variant="secondary" onClick={() => void onPause()} pending={pause.pending}>
                {driving ? "Pause" : "Mark paused"}
              </Button>
            )}
            {canCancel && (
              <Button variant="ghost" onClick={() => void onCancel()} pending={cancel.pending}>
                Cancel job
              </Button>
            )}
          </div>
        </div>

        <div className="mt-5">
          <JobProgress
            id="member-job-progress-label"
            label={waiting ? `Rate limited: waiting ${Math.ceil(waiting)} s…` : driving ? "Working…" : "Progress"}
            processed={processed}
            toSend={toSend}
            stats={[
              { label: DONE_WORDS[job.kind], value: counts.done, tone: "text-success" },
              { label: "Failed", value: counts.failed, tone: "text-danger" },
              { label: "Skipped", value: counts.skipped },
              { label: "Not sent", value: counts.pending + counts.sending },
            ]}
          />
        </div>
      </Card>

      <Dialog
        open={confirm}
        onClose={() => setConfirm(false)}
        size="sm"
        title={`${action}: ${counts.pending.toLocaleString("en-US")} members?`}
        description="One request per member. You can pause and resume."
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirm(false)}>
              Back
            </Button>
            <Button
              variant={job.kind === "kick" ? "danger" : "primary"}
              onClick={() => {
                setConfirm(false);
                void run();
              }}
            >
              Start
            </Button>
          </>
        }
      >
        <p className="text-sm">Reason sent with every request: {job.reason ?? "none"}.</p>
      </Dialog>
    </div>
  );
}
