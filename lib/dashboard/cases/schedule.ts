// Moderation the dashboard does later (issue #32): a temporary ban's unban when it ends, and a timeout longer than
// Discord's 28 days renewed a day before the cap runs out until its end. Rows in scheduled_moderations are written in
// the transaction that numbers their case (store.ts), claimed when due by one instance at a time, done once, and kept
// with their outcome:
//   - claiming: on PostgreSQL one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING, so instances
//     never wait on each other's rows; on SQLite (one writer) one conditional update. Each claim marks its rows with
//     its own mark and holds CLAIM_MS: an instance that dies mid-run leaves its rows to be claimed again (the unban
//     and the renewal are idempotent);
//   - the call is made as the moderator who banned (their stored grant, user mode) or as the bot (bot mode), with the
//     reason "Temporary ban ended (case #N)", and filed in the audit history like the dashboard's own change, so the
//     guild's audit-log entry for it is its twin and the unban becomes a case of its own;
//   - an unban made earlier by hand (a moderator ending the ban early, on the Bans page or anywhere) cancels the row
//     when its case is read (store.ts), and one that finds no ban (10026 Unknown Ban) is done too.
import { randomUUID } from "node:crypto";
import { GuildApiError, type GuildApiClient } from "@/lib/api-client";
import { auditReason } from "@/lib/dashboard/actions/audit-reason";
import { recordAuditSuccesses, type NewAuditEntry } from "@/lib/dashboard/audit/history";
import { dashboardOnPostgresql, prisma } from "@/lib/dashboard/db";
import type { ModerationCase, Prisma, ScheduledModeration } from "@/lib/generated/prisma";
import { timeoutStep } from "@/lib/moderation/durations";
import { nextTurn } from "@/lib/server/next-turn";
import type { CaseDraft } from "./derive";
import { syncCases } from "./store";

/** How long a claim holds before another instance may take the row again. */
export const CLAIM_MS = 60_000;
/** Rows claimed per pass. */
const CLAIM_BATCH = 50;
/** Failed attempts before a row is left failed (with its error, on the Bans page). */
export const MAX_ATTEMPTS = 5;

/** This process, as a claimer, and how many claims it has made (each claim's mark is the pair). */
const INSTANCE = `${process.pid}-${randomUUID().slice(0, 8)}`;
let claims = 0;

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

/** A member unbanned or banned again (`unban`), or their timeout removed or set again (`renew_timeout`), at `at`. */
export interface ScheduleEnd {
  userId: string;
  kind: "unban" | "renew_timeout";
  at: Date;
}

/**
 * What was scheduled to end what came before each of `ends` is not needed any more. Only rows of cases older than
 * that: a guild audit-log entry imported late (older than the temporary ban the dashboard made since) cancels
 * nothing of it. One read for all of them (a batch of 200 entries' cases).
 */
export async function cancelScheduled(tx: Tx, guildId: string, ends: readonly ScheduleEnd[]) {
  if (ends.length === 0) return;
  const latest = new Map<string, number>();
  for (const end of ends) {
    const key = `${end.kind}:${end.userId}`;
    latest.set(key, Math.max(latest.get(key) ?? 0, end.at.getTime()));
  }
  const rows = await tx.scheduledModeration.findMany({
    where: {
      guildId,
      kind: { in: [...new Set(ends.map((end) => end.kind))] },
      userId: { in: [...new Set(ends.map((end) => end.userId))] },
      status: { in: ["pending", "running"] },
    },
    select: { id: true, caseId: true, kind: true, userId: true },
  });
  if (rows.length === 0) return;
  const caseTimes = new Map(
    (
      await tx.moderationCase.findMany({
        where: { id: { in: rows.map((row) => row.caseId) } },
        select: { id: true, createdAt: true },
      })
    ).map((c) => [c.id, c.createdAt.getTime()]),
  );
  const older = rows.filter(
    (row) => (caseTimes.get(row.caseId) ?? Infinity) < (latest.get(`${row.kind}:${row.userId}`) ?? 0),
  );
  if (older.length)
    await tx.scheduledModeration.updateMany({
      // Still not run: one the scheduler finished since it was read (PostgreSQL reads others' commits) stays done.
      where: { id: { in: older.map((row) => row.id) }, status: { in: ["pending", "running"] } },
      data: { status: "cancelled", doneAt: new Date() },
    });
}

/** Due rows (pending and due, or claimed by an instance whose claim lapsed), claimed for this instance. */
export async function claimDue(now = new Date(), limit = CLAIM_BATCH): Promise<ScheduledModeration[]> {
  const until = new Date(now.getTime() + CLAIM_MS);
  // Each claim has its own mark (this instance's, numbered): the rows marked with it are the ones this claim took.
  const claim = `${INSTANCE}/${++claims}`;
  if (dashboardOnPostgresql())
    // Prisma has no SKIP LOCKED: this one statement is the claim itself (as the member jobs' takePending).
    // eslint-disable-next-line no-restricted-syntax
    return prisma.$queryRaw<ScheduledModeration[]>`
      UPDATE scheduled_moderations
         SET status = 'running', "claimedBy" = ${claim}, "claimedUntil" = ${until}, attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM scheduled_moderations
          WHERE (status = 'pending' AND "runAt" <= ${now}) OR (status = 'running' AND "claimedUntil" < ${now})
          ORDER BY "runAt"
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING *`;
  const due: Prisma.ScheduledModerationWhereInput = {
    OR: [
      { status: "pending", runAt: { lte: now } },
      { status: "running", claimedUntil: { lt: now } },
    ],
  };
  const ids = await prisma.scheduledModeration.findMany({
    where: due,
    orderBy: { runAt: "asc" },
    take: limit,
    select: { id: true },
  });
  if (ids.length === 0) return [];
  // Taken only if still due when written (another process may have claimed some since they were read).
  await prisma.scheduledModeration.updateMany({
    where: { AND: [{ id: { in: ids.map((row) => row.id) } }, due] },
    data: { status: "running", claimedBy: claim, claimedUntil: until, attempts: { increment: 1 } },
  });
  return prisma.scheduledModeration.findMany({
    where: { id: { in: ids.map((row) => row.id) }, claimedBy: claim },
    orderBy: { runAt: "asc" },
  });
}

export interface ScheduleDependencies {
  /** The API client to act with for `actorId` in the guild (their stored grant, or the bot). */
  apiFor: (actorId: string) => Promise<GuildApiClient>;
  mode: () => "user" | "bot";
  /** Whether to claim no further batch (a shutdown): the batch being run is finished and written first. */
  stopping?: () => boolean;
}

/** 10026 Unknown Ban, 10007 Unknown Member: the thing to end is gone already. */
const GONE = new Set([10026, 10007]);

/**
 * What running a claimed row came to, written with the rest of its batch (settle): done (with its history entry, or
 * with a note when what it would end was gone already), cancelled, to be tried again, or nothing when the row was
 * no longer this claim's by the time of the call.
 */
type Outcome =
  | { row: ScheduledModeration; kind: "done"; entry: NewAuditEntry; renewAt?: number | null }
  | { row: ScheduledModeration; kind: "ended"; status: "done" | "cancelled"; note: string }
  | { row: ScheduledModeration; kind: "retry"; error: string }
  | { row: ScheduledModeration; kind: "not ours" };

/**
 * Which of the rows are still this claim's to run, read just before their calls: claimed by it, not cancelled since
 * (an unban by hand, a new ban).
 */
async function stillOurs(rows: readonly ScheduledModeration[]): Promise<Set<string>> {
  const now = await prisma.scheduledModeration.findMany({
    where: { id: { in: rows.map((row) => row.id) }, status: "running" },
    select: { id: true, claimedBy: true },
  });
  const claimOf = new Map(rows.map((row) => [row.id, row.claimedBy]));
  return new Set(now.filter((row) => row.claimedBy === claimOf.get(row.id)).map((row) => row.id));
}

/** Makes the call; when what it would end is gone already (GONE: unbanned, left the server), says so with `gone`. */
async function unlessGone(row: ScheduledModeration, gone: string, call: () => Promise<unknown>) {
  try {
    await call();
    return null;
  } catch (error) {
    if (!(error instanceof GuildApiError && GONE.has(error.code ?? 0))) throw error;
    return { row, kind: "ended", status: "done", note: gone } satisfies Outcome;
  }
}

type FoundCase = Pick<ModerationCase, "number" | "moderatorId" | "moderatorName" | "targetName" | "endsAt">;

/** A temporary ban's end: the unban, and its history entry (the unban's case). */
async function endBan(row: ScheduledModeration, found: FoundCase, api: GuildApiClient, mode: "user" | "bot") {
  const actor = { id: found.moderatorId, name: found.moderatorName, image: null };
  const reason = `Temporary ban ended (case #${found.number})`;
  const unban = () => api.bans.unban(row.guildId, row.userId, { reason: auditReason(reason, actor, mode) });
  const gone = await unlessGone(row, "already unbanned", unban);
  if (gone) return gone;
  // Filed after the batch, dated now: a case made meanwhile (a ban again) keeps its place after this one.
  const entry: NewAuditEntry = {
    at: new Date(),
    guildId: row.guildId,
    actor,
    action: "Remove Guild Ban",
    target: { type: "user", id: row.userId, name: found.targetName },
    reason,
    request: { scheduled_by_case: found.number },
    status: "success",
  };
  return { row, kind: "done", entry } satisfies Outcome;
}

/** A long timeout's renewal: Discord's cap again (or the end), its history entry, and when the next one is due. */
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
  const gone = await unlessGone(row, "no longer a member", renew);
  if (gone) return gone;
  // Filed after the batch, dated now: a case made meanwhile (a ban again) keeps its place after this one.
  const entry: NewAuditEntry = {
    at: new Date(),
    guildId: row.guildId,
    actor,
    action: "Modify Guild Member",
    target: { type: "member", id: row.userId, name: found.targetName },
    reason,
    // renewal_of_case: a renewal is part of its case, not a new one (derive.ts).
    request: { communication_disabled_until: until, renewal_of_case: found.number },
    after: { communication_disabled_until: until },
    status: "success",
  };
  return { row, kind: "done", entry, renewAt: step.renewAt } satisfies Outcome;
}

/** Runs one claimed row's call: the unban or the renewal. Writes nothing: settle writes the batch's outcomes. */
async function attempt(
  row: ScheduledModeration,
  found: FoundCase | undefined,
  api: () => Promise<GuildApiClient>,
  mode: "user" | "bot",
  now: number,
): Promise<Outcome> {
  if (!found) return { row, kind: "ended", status: "cancelled", note: "its case is gone" };
  try {
    return row.kind === "unban"
      ? await endBan(row, found, await api(), mode)
      : await renewTimeout(row, found, await api(), mode, now);
  } catch (error) {
    return { row, kind: "retry", error: error instanceof Error ? error.message : String(error) };
  }
}

/** Rows still running under the claims that took them (one cancelled meanwhile is not). */
const underClaim = (rows: readonly ScheduledModeration[]): Prisma.ScheduledModerationWhereInput => ({
  id: { in: rows.map((row) => row.id) },
  claimedBy: { in: [...new Set(rows.map((row) => row.claimedBy!))] },
  status: "running",
});

type Done = Extract<Outcome, { kind: "done" }>;

/** Marks the rows done and schedules the next renewal of each renewal among those it marked. */
async function markDone(tx: Tx, done: readonly Done[], doneAt: Date): Promise<void> {
  if (done.length === 0) return;
  const rows = done.map((outcome) => outcome.row);
  await tx.scheduledModeration.updateMany({
    where: underClaim(rows),
    data: { status: "done", doneAt, lastError: null },
  });
  const renewals = done.filter((outcome) => outcome.renewAt != null);
  if (renewals.length === 0) return;
  // Only a renewal this transaction marked (done under its claim's mark, not cancelled meanwhile) goes on.
  const marked = new Set(
    (
      await tx.scheduledModeration.findMany({
        where: { ...underClaim(renewals.map((outcome) => outcome.row)), status: "done" },
        select: { id: true },
      })
    ).map((row) => row.id),
  );
  const next = renewals.filter((outcome) => marked.has(outcome.row.id));
  if (next.length)
    await tx.scheduledModeration.createMany({
      data: next.map(({ row, renewAt }) => ({
        guildId: row.guildId,
        kind: "renew_timeout",
        userId: row.userId,
        caseId: row.caseId,
        actorId: row.actorId,
        runAt: new Date(renewAt!),
      })),
    });
}

/**
 * Writes a batch's outcomes in one transaction, each only while its row is still running under this claim (one
 * cancelled meanwhile stays cancelled), then files the history entries of the calls made: after the rows are marked,
 * so the cases made from the entries do not find their rows still running. A call made while its row was cancelled
 * (a moderator unbanning by hand at that moment) is filed too: it happened. A renewal done schedules the next one in
 * the same transaction: only the claim holder does, so a renewal run twice (a lapsed claim) does not start a second
 * chain.
 */
async function settle(outcomes: readonly Outcome[], now: number) {
  const doneAt = new Date(now);
  const done = outcomes.filter((outcome): outcome is Done => outcome.kind === "done");
  await prisma.$transaction(async (tx) => {
    await markDone(tx, done, doneAt);
    for (const outcome of outcomes) {
      if (outcome.kind === "ended")
        await tx.scheduledModeration.updateMany({
          where: underClaim([outcome.row]),
          data: { status: outcome.status, doneAt, lastError: outcome.note },
        });
      if (outcome.kind === "retry") {
        const last = outcome.row.attempts >= MAX_ATTEMPTS;
        // Tried again after a growing wait: 1, 2, 4, 8 minutes.
        await tx.scheduledModeration.updateMany({
          where: underClaim([outcome.row]),
          data: {
            status: last ? "failed" : "pending",
            lastError: outcome.error.slice(0, 500),
            runAt: last ? undefined : new Date(now + 60_000 * 2 ** (outcome.row.attempts - 1)),
            doneAt: last ? doneAt : undefined,
            claimedBy: null,
            claimedUntil: null,
          },
        });
      }
    }
  });
  await nextTurn();
  await recordAuditSuccesses(done.map((outcome) => outcome.entry));
}

/**
 * One pass: due rows claimed a batch at a time and run until none is due (10,000 bans ending together do not wait
 * for 200 ticks of the scheduler); each batch's outcomes and history entries are written together, then the cases of
 * what it did are made, once per guild.
 *
 * The calls go one at a time. The API answering them is usually this process's own, on the server's thread, and a
 * request that reaches it meanwhile (a bot's, a page's) waits behind the calls already sent: behind one unban at most,
 * not four (bench:cases's probe, docs/benchmarks.md). So that the server's thread does not sit idle between the calls
 * either, each row's re-read (stillOurs) is made while the call before it is out: a read, it holds up no writer, and
it is one call old at most when its own call is made (a moderator who bans the user again meanwhile cancels the row).
 * The batch's writes are made between its calls, not beside them: in the scheduler's worker thread
 * (scheduler-thread.ts) the pass has a connection of its own, and the server's thread writing an unban while the pass
 * holds SQLite's write lock would wait for it, asleep in SQLite's busy handler, holding up every request behind it.
 *
 * Between its steps the pass waits a turn of the event loop (lib/server/next-turn.ts): when the scheduler runs in the
 * server's own thread (scheduler.ts, when its worker cannot start), the API it calls and the pages share that thread.
 * Returns how many ran.
 */
export async function runDueSchedules(deps: ScheduleDependencies, now = new Date()): Promise<number> {
  let ran = 0;
  // The pass's clock runs on from `now` (a test's or the loop's): every claim holds CLAIM_MS from when it is taken, so
  // a pass longer than a claim never takes rows whose claim has already lapsed for other instances.
  const started = performance.now();
  const clock = () => now.getTime() + (performance.now() - started);
  for (;;) {
    const rows = await claimDue(new Date(clock()));
    const cases = new Map(
      (
        await prisma.moderationCase.findMany({
          where: { id: { in: rows.map((row) => row.caseId) } },
          select: { id: true, number: true, moderatorId: true, moderatorName: true, targetName: true, endsAt: true },
        })
      ).map((found) => [found.id, found]),
    );
    await nextTurn();
    // One client per moderator for the batch (in user mode, reading their grant once).
    const clients = new Map<string, Promise<GuildApiClient>>();
    const apiFor = (actorId: string) => () => {
      if (!clients.has(actorId)) clients.set(actorId, deps.apiFor(actorId));
      return clients.get(actorId)!;
    };
    const mode = deps.mode();
    const outcomes: Outcome[] = [];
    let reread = rows.length > 0 ? stillOurs([rows[0]]) : null;
    for (const [at, row] of rows.entries()) {
      const ours = await reread!;
      reread = at + 1 < rows.length ? stillOurs([rows[at + 1]]) : null;
      // Awaited with the next row; a failure meanwhile is not an unhandled rejection.
      reread?.catch(() => undefined);
      outcomes.push(
        ours.has(row.id)
          ? await attempt(row, cases.get(row.caseId), apiFor(row.actorId), mode, clock())
          : { row, kind: "not ours" },
      );
    }
    await nextTurn();
    await settle(outcomes, clock());
    for (const guildId of new Set(rows.map((row) => row.guildId))) {
      await nextTurn();
      await syncCases(guildId);
    }
    ran += rows.length;
    if (rows.length < CLAIM_BATCH || deps.stopping?.()) return ran;
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
