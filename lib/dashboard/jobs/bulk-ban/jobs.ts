// Bulk-ban jobs in the dashboard's own tables (BulkBanJob, BulkBanItem, kind "ban"): the preview's verdicts, which
// ids are out for banning, what the API answered for each, and what undo gave back. The job controls (transition,
// resume, pause) serve the members page's bulk actions too (jobs/member-actions), which share the tables. The browser drives a job one chunk
// at a time; everything it needs to resume after a reload is here. Every state change checks the state it
// expects, so two tabs cannot send the same ids twice. Every function takes the guild, and every query names it
// (jobScope, itemScope): a job id of another guild, or of the other family of jobs, matches nothing.
import { ActionRefusal } from "@/lib/dashboard/actions/action-client";
import { prisma } from "@/lib/dashboard/db";
import type { Prisma } from "@/lib/generated/prisma";
import { MEMBER_JOB_KINDS } from "@/lib/dashboard/jobs/member-actions/types";
import {
  countItems,
  type BulkBanJobSummary,
  type BulkBanJobView,
  type ItemState,
  type JobCounts,
  type JobItem,
  type JobStatus,
} from "./types";

export type { BulkBanJobSummary, BulkBanJobView, ItemState, JobCounts, JobItem, JobStatus };

/** A chunk whose request was sent this long ago without an answer recorded is checked against the API on resume. */
export const SENDING_STALE_MS = 60_000;
const SENDING_PREFIX = "sent at ";

/** Bulk bans, or the members page's jobs: they share the tables, and each family's controls reach only its own jobs. */
export type JobFamily = "ban" | "member";
const FAMILY_KINDS: Record<JobFamily, string[]> = { ban: ["ban"], member: [...MEMBER_JOB_KINDS] };

/**
 * One job, found by its id together with its guild and family: authorization inside the query, so a job id taken
 * from the browser that belongs to another guild (or is the other family's) matches nothing, whatever was checked
 * before.
 */
export const jobScope = (guildId: string, jobId: string, family: JobFamily = "ban") =>
  ({ id: jobId, guildId, kind: { in: FAMILY_KINDS[family] } }) satisfies Prisma.BulkBanJobWhereInput;

/** That job's items, reached through their job (so through its guild and family), never by the job id alone. */
export const itemScope = (guildId: string, jobId: string, family: JobFamily = "ban") =>
  ({ jobId, job: { guildId, kind: { in: FAMILY_KINDS[family] } } }) satisfies Prisma.BulkBanItemWhereInput;

const notFound = () => new ActionRefusal("This job does not exist in this server.", {}, 404);

const byId = (a: { userId: string }, b: { userId: string }) =>
  BigInt(a.userId) < BigInt(b.userId) ? -1 : BigInt(a.userId) > BigInt(b.userId) ? 1 : 0;

type JobRow = {
  id: string;
  guildId: string;
  actorId: string;
  actorName: string;
  reason: string | null;
  status: string;
  deleteMessageSeconds: number;
  invalid: string;
  createdAt: Date;
  updatedAt: Date;
};

function summary(job: JobRow, counts: JobCounts): BulkBanJobSummary {
  return {
    id: job.id,
    guildId: job.guildId,
    actorId: job.actorId,
    actorName: job.actorName,
    reason: job.reason,
    status: job.status as JobStatus,
    deleteMessageSeconds: job.deleteMessageSeconds,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    counts,
  };
}

export interface NewJob {
  guildId: string;
  actor: { id: string; name: string };
  reason: string | null;
  deleteMessageSeconds: number;
  /** A temporary ban's length for every ban of the job (issue #32), or null for permanent. */
  banDurationSeconds?: number | null;
  invalid: string[];
  items: JobItem[];
}

export async function createJob(job: NewJob): Promise<string> {
  const created = await prisma.bulkBanJob.create({
    data: {
      guildId: job.guildId,
      actorId: job.actor.id,
      actorName: job.actor.name,
      reason: job.reason,
      status: "ready",
      deleteMessageSeconds: job.deleteMessageSeconds,
      params: JSON.stringify(job.banDurationSeconds ? { banDurationSeconds: job.banDurationSeconds } : {}),
      invalid: JSON.stringify(job.invalid),
      items: {
        createMany: {
          data: job.items.map((item) => ({ userId: item.userId, state: item.state, detail: item.detail })),
        },
      },
    },
    select: { id: true },
  });
  return created.id;
}

export async function getJob(guildId: string, jobId: string): Promise<BulkBanJobView | null> {
  const job = await prisma.bulkBanJob.findFirst({
    where: jobScope(guildId, jobId),
    include: { items: { select: { userId: true, state: true, detail: true } } },
  });
  if (!job) return null;
  const items = (job.items as JobItem[]).sort(byId);
  return { ...summary(job, countItems(items)), invalid: JSON.parse(job.invalid) as string[], items };
}

/** The guild's latest jobs, newest first, with their counts. */
export async function listJobs(guildId: string, limit = 10): Promise<BulkBanJobSummary[]> {
  const jobs = await prisma.bulkBanJob.findMany({
    where: { guildId, kind: "ban" },
    orderBy: { createdAt: "desc" },
    take: limit,
  });
  if (jobs.length === 0) return [];
  const groups = await prisma.bulkBanItem.groupBy({
    by: ["jobId", "state"],
    where: { jobId: { in: jobs.map((j) => j.id) }, job: { guildId, kind: "ban" } },
    _count: { _all: true },
  });
  return jobs.map((job) => {
    const counts = countItems([]);
    for (const group of groups.filter((g) => g.jobId === job.id)) {
      counts[group.state as ItemState] += group._count._all;
      counts.total += group._count._all;
    }
    return summary(job, counts);
  });
}

export const STATUS_WORDS: Record<JobStatus, string> = {
  ready: "not started",
  running: "running",
  paused: "paused",
  cancelled: "cancelled",
  completed: "finished",
  undoing: "being undone",
  undone: "undone",
};

/**
 * Moves the job (of `family`: a bulk ban unless told) from one of `from` to `to`, or refuses: 404 when the guild has
 * no such job of that family, 409 saying what it is now.
 */
export async function transition(
  guildId: string,
  jobId: string,
  from: readonly JobStatus[],
  to: JobStatus,
  family: JobFamily = "ban",
): Promise<void> {
  const { count } = await prisma.bulkBanJob.updateMany({
    where: { ...jobScope(guildId, jobId, family), status: { in: [...from] } },
    data: { status: to },
  });
  if (count === 1) return;
  const job = await prisma.bulkBanJob.findFirst({ where: jobScope(guildId, jobId, family), select: { status: true } });
  if (!job) throw notFound();
  throw new ActionRefusal(`This job is ${STATUS_WORDS[job.status as JobStatus]}; reload to see where it stands.`);
}

/**
 * Claims ids for one Bulk Guild Ban request: the job must be running and every id pending. They become "sending"
 * with the time, so an interrupted request is recognized (and checked, never blindly resent) on resume.
 */
export async function claimChunk(
  guildId: string,
  jobId: string,
  userIds: readonly string[],
  now = Date.now(),
): Promise<{ reason: string | null; deleteMessageSeconds: number; banDurationSeconds: number | null }> {
  return prisma.$transaction(async (tx) => {
    const job = await tx.bulkBanJob.findFirst({ where: jobScope(guildId, jobId) });
    if (!job) throw new ActionRefusal("This bulk-ban job does not exist in this server.", {}, 404);
    if (job.status !== "running")
      throw new ActionRefusal(`This job is ${STATUS_WORDS[job.status as JobStatus]}; reload to see where it stands.`);
    const { count } = await tx.bulkBanItem.updateMany({
      where: { ...itemScope(guildId, jobId), userId: { in: [...userIds] }, state: "pending" },
      data: { state: "sending", detail: `${SENDING_PREFIX}${new Date(now).toISOString()}` },
    });
    if (count !== userIds.length)
      throw new ActionRefusal(
        "Some of these ids were already sent (is the job running in another tab?). Reload to see where it stands.",
      );
    const params = JSON.parse(job.params) as { banDurationSeconds?: number };
    return {
      reason: job.reason,
      deleteMessageSeconds: job.deleteMessageSeconds,
      banDurationSeconds: params.banDurationSeconds ?? null,
    };
  });
}

/** The request was refused outright (nothing banned): the ids go back to pending and the job pauses. */
export async function releaseChunk(guildId: string, jobId: string, userIds: readonly string[]): Promise<void> {
  await prisma.$transaction([
    prisma.bulkBanItem.updateMany({
      where: { ...itemScope(guildId, jobId), userId: { in: [...userIds] }, state: "sending" },
      data: { state: "pending", detail: null },
    }),
    prisma.bulkBanJob.updateMany({
      where: { ...jobScope(guildId, jobId), status: "running" },
      data: { status: "paused" },
    }),
  ]);
}

/** The request's outcome is unknown (no answer): the ids stay "sending" for resume to check, and the job pauses. */
export async function pauseUncertain(guildId: string, jobId: string): Promise<void> {
  await prisma.bulkBanJob.updateMany({
    where: { ...jobScope(guildId, jobId), status: "running" },
    data: { status: "paused" },
  });
}

/** One update per distinct detail instead of one per id. */
function groupByDetail<D extends string | null>(items: ReadonlyArray<{ userId: string; detail: D }>): Map<D, string[]> {
  const groups = new Map<D, string[]>();
  for (const item of items) groups.set(item.detail, [...(groups.get(item.detail) ?? []), item.userId]);
  return groups;
}

export interface ChunkOutcome {
  banned: string[];
  failed: Array<{ userId: string; detail: string }>;
}

/** Writes what the API answered for a chunk; the job is completed once nothing is left to send. */
export async function recordChunk(guildId: string, jobId: string, outcome: ChunkOutcome): Promise<JobStatus> {
  const items = itemScope(guildId, jobId);
  return prisma.$transaction(async (tx) => {
    if (outcome.banned.length)
      await tx.bulkBanItem.updateMany({
        where: { ...items, userId: { in: outcome.banned } },
        data: { state: "banned", detail: null },
      });
    for (const [detail, userIds] of groupByDetail(outcome.failed)) {
      await tx.bulkBanItem.updateMany({
        where: { ...items, userId: { in: userIds } },
        data: { state: "failed", detail },
      });
    }
    return completeIfDone(tx, guildId, jobId);
  });
}

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

/** A running or paused job with nothing left to send is completed; answers the job's status. */
export async function completeIfDone(
  tx: Tx,
  guildId: string,
  jobId: string,
  family: JobFamily = "ban",
): Promise<JobStatus> {
  const left = await tx.bulkBanItem.count({
    where: { ...itemScope(guildId, jobId, family), state: { in: ["pending", "sending"] } },
  });
  if (left === 0)
    await tx.bulkBanJob.updateMany({
      where: { ...jobScope(guildId, jobId, family), status: { in: ["running", "paused"] } },
      data: { status: "completed" },
    });
  const job = await tx.bulkBanJob.findFirst({ where: jobScope(guildId, jobId, family), select: { status: true } });
  if (!job) throw notFound();
  return job.status as JobStatus;
}

/** Ids left "sending" by an interrupted request, with when they were sent. */
export async function sendingItems(guildId: string, jobId: string): Promise<Array<{ userId: string; sentAt: number }>> {
  const items = await prisma.bulkBanItem.findMany({
    where: { ...itemScope(guildId, jobId), state: "sending" },
    select: { userId: true, detail: true },
  });
  return items.map((item) => ({
    userId: item.userId,
    sentAt: Date.parse(item.detail?.slice(SENDING_PREFIX.length) ?? "") || 0,
  }));
}

/** After checking the API: the banned ones count as banned by this job, the others go back to pending. */
export async function resolveSending(
  guildId: string,
  jobId: string,
  banned: readonly string[],
  notBanned: readonly string[],
): Promise<void> {
  const items = itemScope(guildId, jobId);
  await prisma.$transaction([
    prisma.bulkBanItem.updateMany({
      where: { ...items, state: "sending", userId: { in: [...banned] } },
      data: { state: "banned", detail: "confirmed after an interrupted request" },
    }),
    prisma.bulkBanItem.updateMany({
      where: { ...items, state: "sending", userId: { in: [...notBanned] } },
      data: { state: "pending", detail: null },
    }),
  ]);
}

/** Start or resume: running, or completed at once when the check above left nothing to send. */
export async function resume(guildId: string, jobId: string, family: JobFamily = "ban"): Promise<JobStatus> {
  await transition(guildId, jobId, ["ready", "paused", "running"], "running", family);
  return prisma.$transaction((tx) => completeIfDone(tx, guildId, jobId, family));
}

/** Undo may only give back ids this job banned, while the job is being undone. */
export async function assertUndoable(guildId: string, jobId: string, userIds: readonly string[]): Promise<void> {
  const job = await prisma.bulkBanJob.findFirst({ where: jobScope(guildId, jobId), select: { status: true } });
  if (!job) throw new ActionRefusal("This bulk-ban job does not exist in this server.", {}, 404);
  if (job.status !== "undoing")
    throw new ActionRefusal(`This job is ${STATUS_WORDS[job.status as JobStatus]}; reload to see where it stands.`);
  const count = await prisma.bulkBanItem.count({
    where: { ...itemScope(guildId, jobId), userId: { in: [...userIds] }, state: "banned" },
  });
  if (count !== userIds.length)
    throw new ActionRefusal(
      "Some of these ids were not banned by this job, or were given back already. Reload to see where it stands.",
    );
}

/** Marks ids unbanned; the job is undone once nothing it banned is left. */
export async function recordUndo(
  guildId: string,
  jobId: string,
  unbanned: ReadonlyArray<{ userId: string; detail: string | null }>,
): Promise<JobStatus> {
  const items = itemScope(guildId, jobId);
  return prisma.$transaction(async (tx) => {
    for (const [detail, userIds] of groupByDetail(unbanned)) {
      await tx.bulkBanItem.updateMany({
        where: { ...items, userId: { in: userIds } },
        data: { state: "unbanned", detail },
      });
    }
    const left = await tx.bulkBanItem.count({ where: { ...items, state: "banned" } });
    if (left === 0)
      await tx.bulkBanJob.updateMany({
        where: { ...jobScope(guildId, jobId), status: "undoing" },
        data: { status: "undone" },
      });
    const job = await tx.bulkBanJob.findFirst({ where: jobScope(guildId, jobId), select: { status: true } });
    if (!job) throw notFound();
    return job.status as JobStatus;
  });
}
