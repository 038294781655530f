// Bulk member jobs in the bulk-ban job tables (BulkBanJob with kind ≠ "ban", BulkBanItem with state "done" for
// members the action reached): the preview's verdicts, which members are out in a chunk, what the API answered for
// each. The controls shared with bulk ban (transition, resume, pause) are in jobs/bulk-ban/jobs.ts. The browser drives
// a job one chunk at a time; the server picks the chunk (the next pending members), so two tabs never send the same
// member twice and the browser needs no list of ids. Every function takes the guild, and every query names it with
// the member family's kinds (jobScope, itemScope): a bulk ban's id, or another guild's job id, matches nothing.
import { ActionRefusal } from "@/lib/dashboard/actions/action-client";
import { dashboardOnPostgresql, prisma } from "@/lib/dashboard/db";
import type { Prisma } from "@/lib/generated/prisma";
import {
  completeIfDone,
  itemScope as anyItemScope,
  jobScope as anyJobScope,
  STATUS_WORDS,
} from "@/lib/dashboard/jobs/bulk-ban/jobs";
import {
  MEMBER_JOB_KINDS,
  type JobStatus,
  type MemberItemState,
  type MemberJobCounts,
  type MemberJobItem,
  type MemberJobKind,
  type MemberJobParams,
  type MemberJobView,
} from "./types";

/** Members claimed this long ago without an answer recorded are sent again on resume (every action is idempotent). */
export const MEMBER_SENDING_STALE_MS = 60_000;
const SENDING_PREFIX = "sent at ";
const jobScope = (guildId: string, jobId: string) => anyJobScope(guildId, jobId, "member");
const itemScope = (guildId: string, jobId: string) => anyItemScope(guildId, jobId, "member");

export interface NewMemberJob {
  guildId: string;
  kind: MemberJobKind;
  params: MemberJobParams;
  actor: { id: string; name: string };
  reason: string | null;
  items: MemberJobItem[];
}

/** Members per createMany: Prisma compiles one query per call, and one of 10,000 rows compiled slower than ten of 1,000. */
const CREATE_BATCH = 1_000;

export async function createMemberJob(job: NewMemberJob): Promise<string> {
  return prisma.$transaction(
    async (tx) => {
      const created = await tx.bulkBanJob.create({
        data: {
          guildId: job.guildId,
          kind: job.kind,
          params: JSON.stringify(job.params),
          actorId: job.actor.id,
          actorName: job.actor.name,
          reason: job.reason,
          status: "ready",
        },
        select: { id: true },
      });
      for (let i = 0; i < job.items.length; i += CREATE_BATCH)
        await tx.bulkBanItem.createMany({
          data: job.items.slice(i, i + CREATE_BATCH).map((item) => ({
            jobId: created.id,
            userId: item.userId,
            name: item.name,
            state: item.state,
            detail: item.detail,
          })),
        });
      return created.id;
    },
    // Prisma ends an interactive transaction after 5 s by default; 25,000 members on a busy machine can take longer.
    { timeout: 60_000 },
  );
}

async function countsOf(guildId: string, jobId: string): Promise<MemberJobCounts> {
  const groups = await prisma.bulkBanItem.groupBy({
    by: ["state"],
    where: itemScope(guildId, jobId),
    _count: { _all: true },
  });
  const counts: MemberJobCounts = { total: 0, pending: 0, sending: 0, done: 0, failed: 0, skipped: 0 };
  for (const group of groups) {
    counts[group.state as MemberItemState] += group._count._all;
    counts.total += group._count._all;
  }
  return counts;
}

export async function getMemberJob(guildId: string, jobId: string): Promise<MemberJobView | null> {
  const job = await prisma.bulkBanJob.findFirst({ where: jobScope(guildId, jobId) });
  if (!job) return null;
  const counts = await countsOf(guildId, jobId);
  return {
    id: job.id,
    guildId: job.guildId,
    kind: job.kind as MemberJobKind,
    params: JSON.parse(job.params) as MemberJobParams,
    actorId: job.actorId,
    actorName: job.actorName,
    reason: job.reason,
    status: job.status as JobStatus,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    counts,
  };
}

export interface MemberJobSummary {
  id: string;
  kind: MemberJobKind;
  params: MemberJobParams;
  status: JobStatus;
  actorName: string;
  createdAt: string;
}

/** The guild's latest member jobs, newest first. */
export async function listMemberJobs(guildId: string, limit = 5): Promise<MemberJobSummary[]> {
  const jobs = await prisma.bulkBanJob.findMany({
    where: { guildId, kind: { in: [...MEMBER_JOB_KINDS] } },
    orderBy: { createdAt: "desc" },
    take: limit,
  });
  return jobs.map((job) => ({
    id: job.id,
    kind: job.kind as MemberJobKind,
    params: JSON.parse(job.params) as MemberJobParams,
    status: job.status as JobStatus,
    actorName: job.actorName,
    createdAt: job.createdAt.toISOString(),
  }));
}

export interface ClaimedChunk {
  kind: MemberJobKind;
  params: MemberJobParams;
  reason: string | null;
  userIds: string[];
  /** The claim's "sent at" detail: with the first and last id, it names this chunk's members in one range query. */
  stamp: string;
}

/**
 * Claims the next `size` pending members of a running job: they become "sending" with the time, in one transaction
 * that checks the job is running, so a paused or cancelled job sends nothing more.
 */
export async function claimNextChunk(
  guildId: string,
  jobId: string,
  size: number,
  now = Date.now(),
): Promise<ClaimedChunk> {
  return prisma.$transaction(async (tx) => {
    const job = await tx.bulkBanJob.findFirst({ where: jobScope(guildId, jobId) });
    if (!job) throw new ActionRefusal("This job does not exist in this server.", {}, 404);
    if (job.status !== "running")
      throw new ActionRefusal(`This job is ${STATUS_WORDS[job.status as JobStatus]}; reload to see where it stands.`);
    const stamp = `${SENDING_PREFIX}${new Date(now).toISOString()}`;
    const userIds = await takePending(tx, guildId, jobId, size, stamp);
    return {
      kind: job.kind as MemberJobKind,
      params: JSON.parse(job.params) as MemberJobParams,
      reason: job.reason,
      userIds,
      stamp,
    };
  });
}

/**
 * The job's next `size` pending members, in id order, made "sending" with `stamp`. On PostgreSQL one statement takes
 * them FOR UPDATE SKIP LOCKED: under READ COMMITTED, two instances (or tabs) claiming at once would otherwise read the
 * same first pending rows, and the second, whose UPDATE waited for the first and then found them taken, would still
 * send them. A SQLite database runs one writing transaction at a time, so there reading then updating is one step.
 */
async function takePending(tx: Prisma.TransactionClient, guildId: string, jobId: string, size: number, stamp: string) {
  if (dashboardOnPostgresql()) {
    const taken = await tx.$queryRaw<Array<{ userId: string }>>`
      WITH next AS (
        SELECT "userId" FROM bulk_ban_items WHERE "jobId" = ${jobId} AND state = 'pending'
          AND EXISTS (SELECT 1 FROM bulk_ban_jobs WHERE id = ${jobId} AND "guildId" = ${guildId} AND kind <> 'ban')
        ORDER BY "userId" LIMIT ${size} FOR UPDATE SKIP LOCKED)
      UPDATE bulk_ban_items AS item SET state = 'sending', detail = ${stamp}
      FROM next WHERE item."jobId" = ${jobId} AND item."userId" = next."userId"
      RETURNING item."userId"`;
    // Snowflakes are digits, which every collation orders as their code points do.
    return taken.map((row) => row.userId).sort();
  }
  const next = await tx.bulkBanItem.findMany({
    where: { ...itemScope(guildId, jobId), state: "pending" },
    select: { userId: true },
    orderBy: { userId: "asc" },
    take: size,
  });
  const userIds = next.map((item) => item.userId);
  // They are the first pending ids in id order, so the pending ids from the first to the last are exactly these:
  // a range, where a list of 500 ids cost Prisma about 20 ms more a query.
  if (userIds.length)
    await tx.bulkBanItem.updateMany({
      where: { ...itemScope(guildId, jobId), state: "pending", userId: { gte: userIds[0], lte: userIds.at(-1) } },
      data: { state: "sending", detail: stamp },
    });
  return userIds;
}

export interface MemberChunkOutcome {
  done: string[];
  failed: Array<{ userId: string; detail: string }>;
  /** Not sent (a rate limit stopped the chunk): back to pending. */
  unsent: string[];
}

/**
 * Writes a chunk's answers; the job is completed once nothing is left to send. Answers the job's status. Every member
 * of the chunk is done, failed or unsent: the failed and unsent ones (few) are written by id, then those of the chunk
 * still "sending" (its range and stamp) are the done ones.
 */
export async function recordMemberChunk(
  guildId: string,
  jobId: string,
  chunk: Pick<ClaimedChunk, "userIds" | "stamp">,
  outcome: MemberChunkOutcome,
): Promise<JobStatus> {
  const items = itemScope(guildId, jobId);
  return prisma.$transaction(async (tx) => {
    if (outcome.unsent.length)
      await tx.bulkBanItem.updateMany({
        where: { ...items, userId: { in: outcome.unsent } },
        data: { state: "pending", detail: null },
      });
    const byDetail = new Map<string, string[]>();
    for (const f of outcome.failed) byDetail.set(f.detail, [...(byDetail.get(f.detail) ?? []), f.userId]);
    for (const [detail, userIds] of byDetail)
      await tx.bulkBanItem.updateMany({
        where: { ...items, userId: { in: userIds } },
        data: { state: "failed", detail },
      });
    if (outcome.done.length)
      await tx.bulkBanItem.updateMany({
        where: {
          ...items,
          state: "sending",
          detail: chunk.stamp,
          userId: { gte: chunk.userIds[0], lte: chunk.userIds.at(-1) },
        },
        data: { state: "done", detail: null },
      });
    return completeIfDone(tx, guildId, jobId, "member");
  });
}

/**
 * Before resuming: members left "sending" by an interrupted chunk go back to pending (each action is idempotent:
 * adding a role twice, or timing out to the same time, changes nothing), unless the chunk may still be in flight.
 */
export async function releaseStaleSending(guildId: string, jobId: string, now = Date.now()): Promise<number> {
  const sending = await prisma.bulkBanItem.findMany({
    where: { ...itemScope(guildId, jobId), state: "sending" },
    select: { userId: true, detail: true },
  });
  const sentAt = (detail: string | null) => Date.parse(detail?.slice(SENDING_PREFIX.length) ?? "") || 0;
  if (sending.some((item) => now - sentAt(item.detail) < MEMBER_SENDING_STALE_MS))
    throw new ActionRefusal(
      "A chunk sent less than a minute ago has no answer yet. Try again in a minute; it will be sent again then.",
    );
  if (sending.length)
    await prisma.bulkBanItem.updateMany({
      where: { ...itemScope(guildId, jobId), state: "sending" },
      data: { state: "pending", detail: null },
    });
  return sending.length;
}

export { countsOf as memberJobCounts };
