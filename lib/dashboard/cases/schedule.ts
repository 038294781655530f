// Moderation the dashboard does later (issue #32): a temporary ban's unban when it ends, and a timeout longer than
// Discord's 28 days renewed a day before the cap runs out until its end. Rows in scheduled_moderations are written in
// the transaction that numbers their case (store.ts), claimed when due by one instance at a time, done once, and kept
// with their outcome:
//   - claiming: on PostgreSQL one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING, so instances
//     never wait on each other's rows; on SQLite (one writer) a compare-and-set per row. A claim holds CLAIM_MS: an
//     instance that dies mid-run leaves its rows to be claimed again (the unban and the renewal are idempotent);
//   - the call is made as the moderator who banned (their stored grant, user mode) or as the bot (bot mode), with the
//     reason "Temporary ban ended (case #N)", and filed in the audit history like the dashboard's own change, so the
//     guild's audit-log entry for it is its twin and the unban becomes a case of its own;
//   - an unban made earlier by hand (a moderator ending the ban early, on the Bans page or anywhere) cancels the row
//     when its case is read (store.ts), and one that finds no ban (10026 Unknown Ban) is done too.
import { randomUUID } from "node:crypto";
import { GuildApiError, type GuildApiClient } from "@/lib/api-client";
import { auditReason } from "@/lib/dashboard/actions/action-client";
import { recordAuditEntry } from "@/lib/dashboard/audit/history";
import { dashboardOnPostgresql, prisma } from "@/lib/dashboard/db";
import type { Prisma, ScheduledModeration } from "@/lib/generated/prisma";
import { timeoutStep } from "@/lib/moderation/durations";
import type { CaseDraft } from "./derive";
import { syncCases } from "./store";

/** How long a claim holds before another instance may take the row again. */
export const CLAIM_MS = 60_000;
/** Rows claimed per pass. */
const CLAIM_BATCH = 50;
/** Failed attempts before a row is left failed (with its error, on the Bans page). */
export const MAX_ATTEMPTS = 5;

/** This process, as a claimer. */
const INSTANCE = `${process.pid}-${randomUUID().slice(0, 8)}`;

type Tx = Prisma.TransactionClient;

/** The work a new case schedules: its unban at a temporary ban's end, its renewal for a timeout past the cap. */
export async function scheduleForCase(
  tx: Tx,
  guildId: string,
  caseId: string,
  draft: CaseDraft,
  now = Date.now(),
): Promise<void> {
  if (draft.source !== "dashboard" || !draft.endsAt) return;
  if (draft.type === "ban")
    await tx.scheduledModeration.create({
      data: { guildId, kind: "unban", userId: draft.targetId, caseId, actorId: draft.moderatorId, runAt: draft.endsAt },
    });
  if (draft.type === "timeout") {
    const { renewAt } = timeoutStep(draft.createdAt.getTime(), draft.endsAt.getTime());
    if (renewAt !== null)
      await tx.scheduledModeration.create({
        data: {
          guildId,
          kind: "renew_timeout",
          userId: draft.targetId,
          caseId,
          actorId: draft.moderatorId,
          runAt: new Date(Math.max(renewAt, now)),
        },
      });
  }
}

/**
 * A member unbanned or banned again, or their timeout removed or set again, at `at`: what was scheduled to end what
 * came before is not needed any more. Only rows of cases older than that: a guild audit-log entry imported late
 * (older than the temporary ban the dashboard made since) cancels nothing of it.
 */
export async function cancelScheduled(
  tx: Tx,
  guildId: string,
  userId: string,
  kind: "unban" | "renew_timeout",
  at: Date,
) {
  const rows = await tx.scheduledModeration.findMany({
    where: { guildId, userId, kind, status: { in: ["pending", "running"] } },
    select: { id: true, caseId: true },
  });
  if (rows.length === 0) return;
  const older = new Set(
    (
      await tx.moderationCase.findMany({
        where: { id: { in: rows.map((row) => row.caseId) }, createdAt: { lt: at } },
        select: { id: true },
      })
    ).map((c) => c.id),
  );
  await tx.scheduledModeration.updateMany({
    where: { id: { in: rows.filter((row) => older.has(row.caseId)).map((row) => row.id) } },
    data: { status: "cancelled", doneAt: new Date() },
  });
}

/** Due rows (pending and due, or claimed by an instance whose claim lapsed), claimed for this instance. */
export async function claimDue(now = new Date(), limit = CLAIM_BATCH): Promise<ScheduledModeration[]> {
  const until = new Date(now.getTime() + CLAIM_MS);
  if (dashboardOnPostgresql())
    // Prisma has no SKIP LOCKED: this one statement is the claim itself (as the member jobs' takePending).
    // eslint-disable-next-line no-restricted-syntax
    return prisma.$queryRaw<ScheduledModeration[]>`
      UPDATE scheduled_moderations
         SET status = 'running', "claimedBy" = ${INSTANCE}, "claimedUntil" = ${until}, attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM scheduled_moderations
          WHERE (status = 'pending' AND "runAt" <= ${now}) OR (status = 'running' AND "claimedUntil" < ${now})
          ORDER BY "runAt"
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING *`;
  const due = await prisma.scheduledModeration.findMany({
    where: {
      OR: [
        { status: "pending", runAt: { lte: now } },
        { status: "running", claimedUntil: { lt: now } },
      ],
    },
    orderBy: { runAt: "asc" },
    take: limit,
  });
  const claimed: ScheduledModeration[] = [];
  for (const row of due) {
    // Taken only if nobody took it since it was read: the row's status and claim are the compare.
    const { count } = await prisma.scheduledModeration.updateMany({
      where: { id: row.id, status: row.status, claimedUntil: row.claimedUntil },
      data: { status: "running", claimedBy: INSTANCE, claimedUntil: until, attempts: { increment: 1 } },
    });
    if (count === 1)
      claimed.push({ ...row, status: "running", claimedBy: INSTANCE, claimedUntil: until, attempts: row.attempts + 1 });
  }
  return claimed;
}

export interface ScheduleDependencies {
  /** The API client to act with for `actorId` in the guild (their stored grant, or the bot). */
  apiFor: (actorId: string) => Promise<GuildApiClient>;
  mode: () => "user" | "bot";
}

/** 10026 Unknown Ban, 10007 Unknown Member: the thing to end is gone already. */
const GONE = new Set([10026, 10007]);

/** The row's outcome, written only while this instance still holds its claim and nothing cancelled it meanwhile. */
async function finish(row: ScheduledModeration, data: Prisma.ScheduledModerationUpdateInput, tx: Tx = prisma) {
  const { count } = await tx.scheduledModeration.updateMany({
    where: { id: row.id, claimedBy: row.claimedBy, status: "running" },
    data,
  });
  return count === 1;
}

/** Whether the row is still this instance's to run: claimed by it, not cancelled (an unban by hand, a new ban). */
async function stillOurs(row: ScheduledModeration): Promise<boolean> {
  const now = await prisma.scheduledModeration.findUnique({
    where: { id: row.id },
    select: { status: true, claimedBy: true },
  });
  return now?.status === "running" && now.claimedBy === row.claimedBy;
}

/**
 * Makes the call; when what it would end is gone already (GONE: unbanned, left the server), the row is done with
 * `gone` as its note and false is returned. Other failures are thrown (retried by runScheduled).
 */
async function unlessGone(row: ScheduledModeration, now: number, gone: string, call: () => Promise<unknown>) {
  try {
    await call();
    return true;
  } catch (error) {
    if (!(error instanceof GuildApiError && GONE.has(error.code ?? 0))) throw error;
    await finish(row, { status: "done", doneAt: new Date(now), lastError: gone });
    return false;
  }
}

type FoundCase = NonNullable<Awaited<ReturnType<typeof prisma.moderationCase.findUnique>>>;

/** A temporary ban's end: the unban, then its history entry (the unban's case). */
async function endBan(
  row: ScheduledModeration,
  found: FoundCase,
  api: GuildApiClient,
  mode: "user" | "bot",
  now: number,
) {
  const actor = { id: found.moderatorId, name: found.moderatorName, image: null };
  const reason = `Temporary ban ended (case #${found.number})`;
  const unban = () => api.bans.unban(row.guildId, row.userId, { reason: auditReason(reason, actor, mode) });
  if (!(await unlessGone(row, now, "already unbanned", unban))) return;
  // Done before it is filed: the unban's case, made from the entry, must not find this row still running.
  await finish(row, { status: "done", doneAt: new Date(now), lastError: null });
  await recordAuditEntry({
    guildId: row.guildId,
    actor,
    action: "Remove Guild Ban",
    target: { type: "user", id: row.userId, name: found.targetName },
    reason,
    request: { scheduled_by_case: found.number },
    status: "success",
  });
}

/** A long timeout's renewal: Discord's cap again (or the end), its history entry, and the next renewal if needed. */
async function renewTimeout(
  row: ScheduledModeration,
  found: FoundCase,
  api: GuildApiClient,
  mode: "user" | "bot",
  now: number,
) {
  const actor = { id: found.moderatorId, name: found.moderatorName, image: null };
  const reason = `Timeout renewed (case #${found.number})`;
  const step = timeoutStep(now, found.endsAt?.getTime() ?? now);
  const until = new Date(step.until).toISOString();
  const renew = () =>
    api.members.edit(
      row.guildId,
      row.userId,
      { communication_disabled_until: until },
      { reason: auditReason(reason, actor, mode) },
    );
  if (!(await unlessGone(row, now, "no longer a member", renew))) return;
  // The next renewal with this one's outcome, in one transaction: only an instance still holding the claim schedules
  // it, so a renewal run twice (a lapsed claim) does not start a second chain.
  await prisma.$transaction(async (tx) => {
    const done = await finish(row, { status: "done", doneAt: new Date(now), lastError: null }, tx);
    if (done && step.renewAt !== null)
      await tx.scheduledModeration.create({
        data: {
          guildId: row.guildId,
          kind: "renew_timeout",
          userId: row.userId,
          caseId: row.caseId,
          actorId: row.actorId,
          runAt: new Date(step.renewAt),
        },
      });
  });
  await recordAuditEntry({
    guildId: row.guildId,
    actor,
    action: "Modify Guild Member",
    target: { type: "member", id: row.userId, name: found.targetName },
    reason,
    // renewal_of_case: a renewal is part of its case, not a new one (derive.ts).
    request: { communication_disabled_until: until, renewal_of_case: found.number },
    after: { communication_disabled_until: until },
    status: "success",
  });
}

/** Runs one claimed row: the unban or the renewal, its history entry, and its outcome. */
export async function runScheduled(row: ScheduledModeration, deps: ScheduleDependencies, now = Date.now()) {
  const found = await prisma.moderationCase.findUnique({ where: { id: row.caseId } });
  if (!found) {
    await finish(row, { status: "cancelled", doneAt: new Date(now), lastError: "its case is gone" });
    return;
  }
  try {
    const api = await deps.apiFor(row.actorId);
    // Read again just before the call: a ban made again or lifted by hand since the claim has cancelled it.
    if (!(await stillOurs(row))) return;
    if (row.kind === "unban") await endBan(row, found, api, deps.mode(), now);
    else await renewTimeout(row, found, api, deps.mode(), now);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const last = row.attempts >= MAX_ATTEMPTS;
    // Tried again after a growing wait: 1, 2, 4, 8 minutes (a row done or cancelled meanwhile stays so: finish).
    await finish(row, {
      status: last ? "failed" : "pending",
      lastError: message.slice(0, 500),
      runAt: last ? undefined : new Date(now + 60_000 * 2 ** (row.attempts - 1)),
      doneAt: last ? new Date(now) : undefined,
      claimedBy: null,
      claimedUntil: null,
    });
  }
}

/** Rows run at once within a batch: their API calls overlap, their writes take turns. */
const CONCURRENCY = 8;

/**
 * One pass: due rows claimed a batch at a time and run, CONCURRENCY at once, until none is due (10,000 bans ending
 * together do not wait for 200 ticks of the scheduler); after each batch the cases of what it did are made, once per
 * guild. Returns how many ran.
 */
export async function runDueSchedules(deps: ScheduleDependencies, now = new Date()): Promise<number> {
  let ran = 0;
  // The pass's clock runs on from `now` (a test's or the loop's): every claim holds CLAIM_MS from when it is taken, so
  // a pass longer than a claim never takes rows whose claim has already lapsed for other instances.
  const started = performance.now();
  const clock = () => now.getTime() + (performance.now() - started);
  for (;;) {
    const rows = await claimDue(new Date(clock()));
    let next = 0;
    const worker = async () => {
      while (next < rows.length) await runScheduled(rows[next++], deps, clock());
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
    for (const guildId of new Set(rows.map((row) => row.guildId))) await syncCases(guildId);
    ran += rows.length;
    if (rows.length < CLAIM_BATCH) return ran;
  }
}

/** When a temporary ban ends, as the Bans page shows it: the time, the case, and a failure to end it if there was one. */
export interface BanEnding {
  at: string;
  caseNumber: number | null;
  status: "pending" | "running" | "failed";
  error: string | null;
}

/** The scheduled ends of these users' bans in the guild (the latest per user), by user id. */
export async function banEndings(guildId: string, userIds: readonly string[]): Promise<Record<string, BanEnding>> {
  if (userIds.length === 0) return {};
  const rows = await prisma.scheduledModeration.findMany({
    where: { guildId, kind: "unban", userId: { in: [...userIds] }, status: { in: ["pending", "running", "failed"] } },
    orderBy: { createdAt: "asc" },
  });
  const numbers = new Map(
    (
      await prisma.moderationCase.findMany({
        where: { id: { in: rows.map((row) => row.caseId) } },
        select: { id: true, number: true },
      })
    ).map((c) => [c.id, c.number]),
  );
  return Object.fromEntries(
    rows.map((row) => [
      row.userId,
      {
        at: row.runAt.toISOString(),
        caseNumber: numbers.get(row.caseId) ?? null,
        status: row.status as BanEnding["status"],
        error: row.lastError,
      },
    ]),
  );
}
