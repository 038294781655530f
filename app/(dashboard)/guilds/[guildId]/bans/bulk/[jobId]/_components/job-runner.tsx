"use client";

// A bulk-ban job in the one job runner (components/dashboard/jobs/job-runner.tsx): each chunk is one Bulk Guild Ban
// of at most 200 ids, picked here from the job's pending ids; undo gives back exactly the ids this job banned, 50 per
// call.
import { JobRunner, type JobMode } from "@/components/dashboard/jobs/job-runner";
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
import { formatNumber, useLocale } from "@/components/ui/locale";
import { plural } from "@/lib/dashboard/plural";

function withItems(
  job: BulkBanJobView,
  changes: ReadonlyArray<{ userId: string; state: ItemState; detail: string | null }>,
): BulkBanJobView {
  const byId = new Map(changes.map((c) => [c.userId, c]));
  const items: JobItem[] = job.items.map((item) => byId.get(item.userId) ?? item);
  return { ...job, items, counts: countItems(items) };
}

const idsIn = (job: BulkBanJobView, state: ItemState, max: number) =>
  job.items
    .filter((item) => item.state === state)
    .slice(0, max)
    .map((item) => item.userId);

export function BulkBanJobRunner({ guildId, job }: { guildId: string; job: BulkBanJobView }) {
  const locale = useLocale();
  const n = (value: number) => formatNumber(value, locale);
  const users = (count: number) => plural(count, "user", { format: n });
  const start = useAction(startBulkBanJobAction, { quiet: true, failure: "Couldn't start the job" });
  const chunk = useAction(runBulkBanChunkAction, { quiet: true, failure: "A chunk was not sent; the job is paused" });
  const pause = useAction(pauseBulkBanJobAction, { failure: "Couldn't pause" });
  const cancel = useAction(cancelBulkBanJobAction, { failure: "Couldn't cancel" });
  const beginUndo = useAction(beginUndoBulkBanAction, { quiet: true, failure: "Couldn't undo" });
  const undoChunk = useAction(undoBulkBanChunkAction, { quiet: true, failure: "Undo stopped" });
  const ids = { guildId, jobId: job.id };

  const ban: JobMode<BulkBanJobView> = {
    id: "ban",
    available: (j) => ["ready", "paused", "running"].includes(j.status) && j.counts.pending + j.counts.sending > 0,
    button: (j) => (j.status === "ready" ? `Ban ${users(j.counts.pending)}` : "Resume"),
    variant: "danger",
    confirm: (j) =>
      j.status === "ready"
        ? {
            title: `Ban ${users(j.counts.pending)}?`,
            description: `Sent ${BULK_BAN_MAX} at a time. You can pause, and undo afterwards.`,
            button: "Start banning",
          }
        : null,
    working: "Banning…",
    begin: async () => {
      const started = await start.run(ids);
      return started.ok ? started.data.job : null;
    },
    step: async (j) => {
      const result = await chunk.run({
        ...ids,
        reason: j.reason ?? undefined,
        userIds: idsIn(j, "pending", BULK_BAN_MAX),
      });
      if (!result.ok) return null;
      const next = withItems(j, [
        ...result.data.banned.map((userId) => ({ userId, state: "banned" as const, detail: null })),
        ...result.data.failed.map((f) => ({ userId: f.userId, state: "failed" as const, detail: f.detail })),
      ]);
      return { job: { ...next, status: result.data.status } };
    },
    more: (j) => j.status === "running" && j.counts.pending > 0,
    finished: (j) =>
      j.status === "completed"
        ? {
            title: "Bulk ban finished",
            text: `${j.counts.banned} banned, ${j.counts.failed} failed, ${j.counts.skipped} skipped.`,
          }
        : null,
  };

  const undo: JobMode<BulkBanJobView> = {
    id: "undo",
    available: (j) => ["completed", "cancelled", "paused", "undoing"].includes(j.status) && j.counts.banned > 0,
    button: (j) => (j.status === "undoing" ? "Continue undo" : "Undo"),
    variant: "secondary",
    confirm: (j) => ({
      title: `Unban ${users(j.counts.banned)}?`,
      description: "Only the users this job banned are unbanned.",
      button: "Unban them",
    }),
    working: "Undoing…",
    begin: async (j) => ((await beginUndo.run(ids)).ok ? { ...j, status: "undoing" } : null),
    step: async (j) => {
      const result = await undoChunk.run({
        ...ids,
        reason: j.reason ? `Undo bulk ban: ${j.reason}` : "Undo bulk ban",
        userIds: idsIn(j, "banned", UNDO_CHUNK_SIZE),
      });
      if (!result.ok) return null;
      const next = withItems(
        j,
        result.data.unbanned.map((userId) => ({ userId, state: "unbanned" as const, detail: null })),
      );
      return { job: { ...next, status: result.data.status } };
    },
    more: (j) => j.status === "undoing" && j.counts.banned > 0,
    finished: (j) =>
      j.status === "undone" ? { title: "Undone", text: `${users(j.counts.unbanned)} unbanned.` } : null,
  };

  return (
    <>
      <JobRunner
        job={job}
        modes={[ban, undo]}
        pause={() => pause.run(ids)}
        cancel={() => cancel.run(ids)}
        pausePending={pause.pending}
        cancelPending={cancel.pending}
        progressId="bulk-progress-label"
        summary={(j) =>
          `${plural(j.counts.total, "id", { format: n })}: ${n(j.counts.total - j.counts.skipped)} to send, ${n(j.counts.skipped)} skipped` +
          (j.invalid.length > 0
            ? `, ${plural(j.invalid.length, "entry", { many: "entries", format: n })} ${j.invalid.length === 1 ? "wasn't a user id" : "weren't user ids"}`
            : "")
        }
        progress={(j) => ({
          processed: j.counts.banned + j.counts.failed + j.counts.unbanned,
          toSend: j.counts.total - j.counts.skipped,
          stats: [
            { label: "Banned", value: j.counts.banned, tone: "text-success" },
            { label: "Failed", value: j.counts.failed, tone: "text-danger" },
            { label: "Skipped", value: j.counts.skipped },
            { label: "Not sent", value: j.counts.pending + j.counts.sending },
            { label: "Unbanned (undo)", value: j.counts.unbanned },
          ],
        })}
      >
        {(j, driving) =>
          j.counts.sending > 0 &&
          !driving && (
            <p className="mt-3 text-sm text-warning" role="note">
              {plural(j.counts.sending, "id", { format: n })} {j.counts.sending === 1 ? "was" : "were"} sent without an
              answer recorded. Resume checks each with the API before sending anything again.
            </p>
          )
        }
      </JobRunner>
      {job.invalid.length > 0 && <InvalidTokens tokens={job.invalid} />}
    </>
  );
}
