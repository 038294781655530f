"use client";

// Drives a bulk-ban job from the browser: one server action per chunk of at most 200 ids, the next only after the
// last has answered. Pausing stops calling (the chunk in flight finishes); a reload resumes from the job as the
// server stored it. Undo gives back exactly the ids this job banned, 50 per call. After each chunk the page is
// refreshed, so the results list below (the page's, server-paged) shows what the chunk did.
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { JobProgress } from "@/components/dashboard/job-progress";
import { useAction } from "@/components/dashboard/use-action";
import {
  beginUndoBulkBanAction,
  cancelBulkBanJobAction,
  pauseBulkBanJobAction,
  runBulkBanChunkAction,
  startBulkBanJobAction,
  undoBulkBanChunkAction,
} from "@/lib/dashboard/actions/bans";
import { UNDO_CHUNK_SIZE } from "@/lib/dashboard/actions/schemas/bans";
import { countItems, type BulkBanJobView, type ItemState, type JobItem } from "@/lib/dashboard/jobs/bulk-ban/types";
import { BULK_BAN_MAX } from "@/lib/discord/limits";
import { InvalidTokens } from "../../_components/invalid-tokens";
import { JobStatusBadge } from "@/components/dashboard/jobs/job-status";

type Mode = "ban" | "undo";

function withItems(
  job: BulkBanJobView,
  changes: ReadonlyArray<{ userId: string; state: ItemState; detail: string | null }>,
): BulkBanJobView {
  const byId = new Map(changes.map((c) => [c.userId, c]));
  const items: JobItem[] = job.items.map((item) => byId.get(item.userId) ?? item);
  return { ...job, items, counts: countItems(items) };
}

export function JobRunner({ guildId, job: stored }: { guildId: string; job: BulkBanJobView }) {
  const router = useRouter();
  const toast = useToast();
  const [job, setJob] = useState(stored);
  const [seen, setSeen] = useState(stored);
  const [driving, setDriving] = useState<Mode | null>(null);
  const [confirm, setConfirm] = useState<Mode | null>(null);
  const stop = useRef(false);
  // While driving, the runner's own copy is the truth; otherwise the server's latest render is.
  if (stored !== seen && !driving) {
    setSeen(stored);
    setJob(stored);
  }

  const start = useAction(startBulkBanJobAction, { quiet: true, failure: "Couldn't start the job" });
  const chunk = useAction(runBulkBanChunkAction, { quiet: true, failure: "A chunk was not sent; the job is paused" });
  const pause = useAction(pauseBulkBanJobAction, { failure: "Couldn't pause" });
  const cancel = useAction(cancelBulkBanJobAction, { failure: "Couldn't cancel" });
  const beginUndo = useAction(beginUndoBulkBanAction, { quiet: true, failure: "Couldn't undo" });
  const undoChunk = useAction(undoBulkBanChunkAction, { quiet: true, failure: "Undo stopped" });
  const ids = { guildId, jobId: job.id };
  const reason = job.reason ?? undefined;

  async function runBans() {
    stop.current = false;
    setDriving("ban");
    const started = await start.run(ids);
    if (started.ok) {
      let current: BulkBanJobView = started.data.job;
      setJob(current);
      while (!stop.current) {
        const next = current.items
          .filter((item) => item.state === "pending")
          .slice(0, BULK_BAN_MAX)
          .map((item) => item.userId);
        if (next.length === 0) break;
        const result = await chunk.run({ ...ids, reason, userIds: next });
        if (!result.ok) break;
        current = withItems(current, [
          ...result.data.banned.map((userId) => ({ userId, state: "banned" as const, detail: null })),
          ...result.data.failed.map((f) => ({ userId: f.userId, state: "failed" as const, detail: f.detail })),
        ]);
        current = { ...current, status: result.data.status };
        setJob(current);
        router.refresh();
      }
      if (current.status === "completed")
        toast.success(
          "Bulk ban finished",
          `${current.counts.banned} banned, ${current.counts.failed} failed, ${current.counts.skipped} skipped.`,
        );
    }
    setDriving(null);
    router.refresh();
  }

  async function runUndo() {
    stop.current = false;
    setDriving("undo");
    const begun = await beginUndo.run(ids);
    if (begun.ok) {
      let current: BulkBanJobView = { ...job, status: "undoing" };
      setJob(current);
      while (!stop.current) {
        const next = current.items
          .filter((item) => item.state === "banned")
          .slice(0, UNDO_CHUNK_SIZE)
          .map((item) => item.userId);
        if (next.length === 0) break;
        const result = await undoChunk.run({
          ...ids,
          reason: reason ? `Undo bulk ban: ${reason}` : "Undo bulk ban",
          userIds: next,
        });
        if (!result.ok) break;
        current = {
          ...withItems(
            current,
            result.data.unbanned.map((userId) => ({ userId, state: "unbanned" as const, detail: null })),
          ),
          status: result.data.status,
        };
        setJob(current);
        router.refresh();
      }
      if (current.status === "undone") toast.success("Undone", `${current.counts.unbanned} users unbanned.`);
    }
    setDriving(null);
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
  const processed = counts.banned + counts.failed + counts.unbanned;
  const interrupted = status === "running" && !driving;
  const canStart =
    !driving &&
    (status === "ready" || status === "paused" || status === "running") &&
    counts.pending + counts.sending > 0;
  const canUndo = !driving && ["completed", "cancelled", "paused", "undoing"].includes(status) && counts.banned > 0;
  const canCancel = ["ready", "running", "paused"].includes(status);

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2">
            <JobStatusBadge status={status} label={interrupted ? "Interrupted" : undefined} />
            <span className="text-sm text-ink-muted" data-testid="job-summary">
              {counts.total.toLocaleString("en-US")} ids: {toSend.toLocaleString("en-US")} to send,{" "}
              {counts.skipped.toLocaleString("en-US")} skipped
              {job.invalid.length > 0 && `, ${job.invalid.length.toLocaleString("en-US")} tokens were not ids`}
            </span>
          </div>
          <div className="flex flex-wrap gap-2">
            {canStart && (
              <Button
                variant="danger"
                onClick={() => (status === "ready" ? setConfirm("ban") : void runBans())}
                pending={start.pending}
              >
                {status === "ready" ? `Ban ${counts.pending.toLocaleString("en-US")} users` : "Resume"}
              </Button>
            )}
            {driving === "ban" && (
              <Button variant="secondary" onClick={() => void onPause()} pending={pause.pending}>
                Pause
              </Button>
            )}
            {interrupted && (
              <Button variant="secondary" onClick={() => void onPause()} pending={pause.pending}>
                Mark paused
              </Button>
            )}
            {canCancel && (
              <Button variant="ghost" onClick={() => void onCancel()} pending={cancel.pending}>
                Cancel job
              </Button>
            )}
            {canUndo && (
              <Button variant="secondary" onClick={() => setConfirm("undo")}>
                {status === "undoing" ? "Continue undo" : "Undo"}
              </Button>
            )}
          </div>
        </div>

        <div className="mt-5">
          <JobProgress
            id="bulk-progress-label"
            label={driving === "ban" ? "Banning…" : driving === "undo" ? "Undoing…" : "Progress"}
            processed={processed}
            toSend={toSend}
            stats={[
              { label: "Banned", value: counts.banned, tone: "text-success" },
              { label: "Failed", value: counts.failed, tone: "text-danger" },
              { label: "Skipped", value: counts.skipped },
              { label: "Not sent", value: counts.pending + counts.sending },
              { label: "Unbanned (undo)", value: counts.unbanned },
            ]}
          />
          {counts.sending > 0 && !driving && (
            <p className="mt-3 text-sm text-warning" role="note">
              {counts.sending} ids were sent without an answer recorded. Resume checks each with the API before sending
              anything again.
            </p>
          )}
        </div>
      </Card>

      {job.invalid.length > 0 && <InvalidTokens tokens={job.invalid} />}

      <Dialog
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        size="sm"
        title={
          confirm === "undo"
            ? `Unban ${counts.banned.toLocaleString("en-US")} users?`
            : `Ban ${counts.pending.toLocaleString("en-US")} users?`
        }
        description={
          confirm === "undo"
            ? "Only the users this job banned are unbanned."
            : `Sent ${BULK_BAN_MAX} at a time. You can pause, and undo afterwards.`
        }
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirm(null)}>
              Back
            </Button>
            <Button
              variant={confirm === "undo" ? "primary" : "danger"}
              onClick={() => {
                const mode = confirm;
                setConfirm(null);
                void (mode === "undo" ? runUndo() : runBans());
              }}
            >
              {confirm === "undo" ? "Unban them" : "Start banning"}
            </Button>
          </>
        }
      >
        <p className="text-sm">Reason sent with every request: {job.reason ?? "none"}.</p>
      </Dialog>
    </div>
  );
}
