// The job queues' backlog, read at scrape time for guildhall_job_queue_depth and guildhall_job_queue_oldest_age_seconds
// (lib/server/metrics.ts): one COUNT and MIN per queue, each on its own, so a queue that cannot be read (its table not
// migrated yet, the database away) leaves the others' values. The dashboard's queues are its Prisma tables, loaded on
// the first scrape (the API-only server never loads them otherwise); the target-user jobs are the API store's.
import { TargetUsersJobStatus } from "@/lib/guild-api/services/target-users";
import { targetUsersJobBacklog } from "@/lib/guild-api/store/invite-target-users";

export type JobQueue = "bulk_bans" | "member_jobs" | "target_users" | "prunes" | "scheduled_actions";

export type JobQueueReading =
  { queue: JobQueue; depth: number; oldestAgeSeconds: number } | { queue: JobQueue; error: unknown };

/** How many jobs are unfinished, and since when the oldest has waited (ms since the epoch; null when none). */
interface Backlog {
  count: number;
  since: number | null;
}

/** A bulk-ban or members-page job is finished once completed, cancelled or undone; ready and paused ones still wait. */
const FINISHED_JOB_STATUSES = ["completed", "cancelled", "undone"];

const dashboard = () => import("@/lib/dashboard/db").then(({ prisma }) => prisma);

async function bulkJobs(kind: "ban" | "member"): Promise<Backlog> {
  const prisma = await dashboard();
  const { _count, _min } = await prisma.bulkBanJob.aggregate({
    where: { kind: kind === "ban" ? "ban" : { not: "ban" }, status: { notIn: FINISHED_JOB_STATUSES } },
    _count: { _all: true },
    _min: { createdAt: true },
  });
  return { count: _count._all, since: _min.createdAt?.getTime() ?? null };
}

/** A prune is a job from the moment its preview is claimed for the run until its outcome is stored. */
async function prunes(): Promise<Backlog> {
  const prisma = await dashboard();
  const { _count, _min } = await prisma.prunePreview.aggregate({
    where: { runStatus: "running" },
    _count: { _all: true },
    _min: { createdAt: true },
  });
  return { count: _count._all, since: _min.createdAt?.getTime() ?? null };
}

/**
 * Temporary bans' unbans and long timeouts' renewals, pending or running. Their age counts from when they were due,
 * not from when they were written: a 30-day ban's unban is not late while it waits for its day.
 */
async function scheduledActions(): Promise<Backlog> {
  const prisma = await dashboard();
  const { _count, _min } = await prisma.scheduledModeration.aggregate({
    where: { status: { in: ["pending", "running"] } },
    _count: { _all: true },
    _min: { runAt: true },
  });
  return { count: _count._all, since: _min.runAt?.getTime() ?? null };
}

async function targetUsers(): Promise<Backlog> {
  const { count, oldestCreatedAt } = await targetUsersJobBacklog(TargetUsersJobStatus.Processing);
  return { count, since: oldestCreatedAt };
}

const READERS: Record<JobQueue, () => Promise<Backlog>> = {
  bulk_bans: () => bulkJobs("ban"),
  member_jobs: () => bulkJobs("member"),
  target_users: targetUsers,
  prunes,
  scheduled_actions: scheduledActions,
};

/** Every queue's backlog now, or why it could not be read. */
export async function readJobQueues(now = Date.now()): Promise<JobQueueReading[]> {
  const queues = Object.keys(READERS) as JobQueue[];
  const settled = await Promise.allSettled(queues.map((queue) => READERS[queue]()));
  return settled.map((result, i): JobQueueReading => {
    const queue = queues[i];
    if (result.status === "rejected") return { queue, error: result.reason };
    const { count, since } = result.value;
    return { queue, depth: count, oldestAgeSeconds: since === null ? 0 : Math.max(0, now - since) / 1000 };
  });
}
