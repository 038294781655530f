// Invite target users: Get Target Users (CSV), Update Target Users (CSV upload, validated line by line, then written by
// an asynchronous job), Get Target Users Job Status, and the job itself.
//
// The job never blocks the server: it writes TARGET_USERS_CHUNK ids per transaction, records its progress in
// invite_target_users_jobs (status PROCESSING, processed_users growing) in the same transaction, and leaves the
// connection to other work between chunks for as long as the chunk took, so requests are served while a 100,000-line
// file is written. The ids still to write stay in the job row (pending_user_ids) until it finishes. One instance works on a job at a time: it
// holds the job's lease (lease_owner, lease_until) and renews it in every chunk's transaction; a chunk whose lease was
// taken over writes nothing. A job whose instance died (a restart, kill -9) is taken over once its lease runs out, by
// the sweep every instance runs (startTargetUsersJobSweeper), or lazily when its status is read. Since each chunk and
// its progress commit together, the instance that takes over starts after the last recorded chunk: nothing is written
// twice and nothing is skipped.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { RESTJSONErrorCodes } from "discord-api-types/v10";
import { TARGET_USERS_ERRORS_SHOWN, TARGET_USERS_MAX_IDS, TARGET_USERS_MAX_LINES } from "@/lib/discord/limits";
import { isSnowflake } from "@/lib/discord/snowflake";
import type { Identity } from "../auth";
import { ApiError, Errors } from "../errors";
import { guildAccessFor, Permission } from "../guards";
import { outsideTransaction, transaction } from "../store/db";
import {
  completeTargetUsersJob,
  failTargetUsersJob,
  findTargetUsersJob,
  insertTargetUsers,
  deleteTargetUsers,
  isTargetUser,
  claimTargetUsersJob,
  listPendingTargetUserIds,
  listUnleasedTargetUsersJobs,
  releaseTargetUsersJobLeases,
  renewTargetUsersJobLease,
  listTargetUserIds,
  replaceTargetUsersJob,
  setTargetUsersJobProgress,
} from "../store/invite-target-users";
import { findValidInvite, type InviteRow } from "../store/invites";
import { existingUserIds } from "../store/users";
import { componentLogger } from "@/lib/server/logger";
import { startSweeper, type Sweeper } from "../sweeper";

const log = componentLogger("guild-api");

/** Ids written per transaction; small enough that one chunk takes a few milliseconds. */
const TARGET_USERS_CHUNK = 2_000;
/** Lines read, or users looked up, between two yields to the event loop: each slice stays well under 50 ms. */
const VALIDATION_CHUNK = 5_000;

export const TargetUsersJobStatus = { Unspecified: 0, Processing: 1, Completed: 2, Failed: 3 } as const;

/**
 * 400 for a file that can't be used. The spec gives this error its own body: `{"target_users_file": ["line 3: …", …]}`,
 * one string per offending line; Discord's `code`, `message` and `errors` tree are sent beside it so every client
 * reads it as the invalid form body it is. At most TARGET_USERS_ERRORS_SHOWN lines are named, then one string says
 * how many more there are, so a file of garbage gets a small answer.
 */
export class TargetUsersFileError extends ApiError {
  constructor(readonly lines: readonly string[]) {
    super(400, RESTJSONErrorCodes.InvalidFormBodyOrContentType, "Invalid Form Body", {
      target_users_file: { _errors: lines.map((message) => ({ code: "TARGET_USERS_FILE_INVALID", message })) },
    });
  }

  override toBody() {
    return { ...super.toBody(), target_users_file: [...this.lines] };
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The problems of a file: the first TARGET_USERS_ERRORS_SHOWN kept in line order, the rest only counted. */
class ProblemList {
  private readonly shown: Array<[number, string]> = [];
  count = 0;

  add(line: number, message: string): void {
    this.count++;
    this.shown.push([line, message]);
    if (this.shown.length > 2 * TARGET_USERS_ERRORS_SHOWN) this.trim();
  }

  private trim(): void {
    this.shown.sort((a, b) => a[0] - b[0]);
    this.shown.length = Math.min(this.shown.length, TARGET_USERS_ERRORS_SHOWN);
  }

  messages(): string[] {
    this.trim();
    const messages = this.shown.map(([, message]) => message);
    const more = this.count - messages.length;
    if (more > 0) messages.push(`… and ${more} more ${more === 1 ? "line" : "lines"} with problems`);
    return messages;
  }
}

/**
 * The user ids of a target-users CSV: one column, an optional `user_id` header on line 1, blank lines ignored, each
 * other line the id of an existing user (duplicates count once). Every line is checked; any bad line throws
 * TargetUsersFileError naming them (the first 100), so nothing changes. A file with more than
 * TARGET_USERS_MAX_LINES lines or TARGET_USERS_MAX_IDS distinct ids is refused for that alone. The text is read in
 * slices of VALIDATION_CHUNK lines with a yield between them, so a large file never holds the event loop.
 */
export async function parseTargetUsersFile(text: string): Promise<bigint[]> {
  const problems = new ProblemList();
  const candidates: Array<{ line: number; id: bigint }> = [];
  const distinct = new Set<bigint>();
  let lineNumber = 0;
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (position <= text.length) {
    if (lineNumber > 0 && lineNumber % VALIDATION_CHUNK === 0) await yieldToEventLoop();
    const newline = text.indexOf("\n", position);
    const end = newline === -1 ? text.length : newline;
    const raw = text.slice(position, end).trim();
    position = end + 1;
    lineNumber++;
    // Past a cap the file is refused for that alone: its other lines are not worth looking up.
    if (lineNumber > TARGET_USERS_MAX_LINES) {
      if (raw === "" && position > text.length) break;
      throw new TargetUsersFileError([`line ${lineNumber}: the file has more than ${TARGET_USERS_MAX_LINES} lines`]);
    }
    let value = raw;
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).trim();
    if (value === "") continue;
    if (lineNumber === 1 && value.toLowerCase() === "user_id") continue;
    if (!isSnowflake(value) || value === "0") {
      problems.add(lineNumber, `line ${lineNumber}: ${JSON.stringify(raw.slice(0, 40))} is not a valid user id`);
      continue;
    }
    const id = BigInt(value);
    if (!distinct.has(id)) {
      if (distinct.size >= TARGET_USERS_MAX_IDS)
        throw new TargetUsersFileError([`line ${lineNumber}: the file has more than ${TARGET_USERS_MAX_IDS} user ids`]);
      distinct.add(id);
    }
    candidates.push({ line: lineNumber, id });
  }

  const seen = new Set<bigint>();
  const ids: bigint[] = [];
  for (let start = 0; start < candidates.length; start += VALIDATION_CHUNK) {
    await yieldToEventLoop();
    const chunk = candidates.slice(start, start + VALIDATION_CHUNK);
    const known = new Set(await existingUserIds(chunk.map((c) => c.id)));
    for (const { line, id } of chunk) {
      if (!known.has(id)) problems.add(line, `line ${line}: user ${id} does not exist`);
      else if (!seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
  }
  if (problems.count > 0) throw new TargetUsersFileError(problems.messages());
  return ids;
}

// ---------------------------------------------------------------------------------------------------------------
// The job

const findJob = findTargetUsersJob;

/** The job each invite is running in this process, by its generation (created_at): a newer upload supersedes it. */
const running = new Map<string, bigint>();
/** Chunks being written now, for a shutdown to wait for. */
const chunksInFlight = new Set<Promise<void>>();

/** This process, as the owner of the leases it takes. */
const LEASE_OWNER = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
/** How long a lease lasts without renewal; a chunk renews it, so only a dead (or stalled) instance lets one run out. */
export const TARGET_USERS_LEASE_MS = 15_000;
/** How often an instance looks for jobs whose lease has run out. */
const SWEEP_INTERVAL_MS = 5_000;
const leaseUntil = () => BigInt(Date.now() + TARGET_USERS_LEASE_MS);

/**
 * Replaces the invite's target users with `ids`: clears the old list and records a PROCESSING job holding the ids
 * (leased to this process), in the caller's transaction; the job starts once the current request is done. An empty
 * list completes at once.
 */
export async function startTargetUsersJob(code: string, ids: readonly bigint[], now = Date.now()): Promise<void> {
  const previous = await findJob(code);
  // created_at doubles as the job's generation, so two uploads within one millisecond still differ.
  const createdAt = previous && previous.created_at >= BigInt(now) ? previous.created_at + 1n : BigInt(now);
  const empty = ids.length === 0;
  await deleteTargetUsers(code);
  await replaceTargetUsersJob({
    code,
    status: empty ? TargetUsersJobStatus.Completed : TargetUsersJobStatus.Processing,
    totalUsers: ids.length,
    pendingUserIds: ids,
    createdAt,
    completedAt: empty ? createdAt : null,
  });
  if (empty) {
    running.delete(code);
    return;
  }
  await claimTargetUsersJob(code, TargetUsersJobStatus.Processing, LEASE_OWNER, leaseUntil(), BigInt(now));
  runJob(code, ids, createdAt);
}

/** Forgets the job of a deleted invite (its rows are deleted by the caller). */
export function stopTargetUsersJob(code: string): void {
  running.delete(code);
}

function runJob(code: string, ids: readonly bigint[], generation: bigint): void {
  running.set(code, generation);
  const step = async () => {
    if (running.get(code) !== generation) return;
    const started = performance.now();
    try {
      const finished = await transaction(async () => {
        const job = await findJob(code);
        // Deleted with its invite, or replaced by a newer upload: stop without touching anything.
        if (!job || job.created_at !== generation || Number(job.status) !== TargetUsersJobStatus.Processing)
          return true;
        // Taken over by another instance (this one stalled past its lease): that one goes on from the last chunk.
        if (!(await renewTargetUsersJobLease(code, LEASE_OWNER, leaseUntil()))) return true;
        const offset = Number(job.processed_users);
        const chunk = ids.slice(offset, offset + TARGET_USERS_CHUNK);
        if (chunk.length > 0) await insertTargetUsers(code, chunk);
        const processed = offset + chunk.length;
        if (processed >= ids.length) {
          await completeTargetUsersJob(code, TargetUsersJobStatus.Completed, processed, BigInt(Date.now()));
          return true;
        }
        await setTargetUsersJobProgress(code, processed);
        return false;
      });
      if (!finished) {
        // The connection is the job's for as long as it took, then other work's for as long again. Yielding one
        // turn of the event loop is not enough where statements travel to a server (PostgreSQL): a request's next
        // statement arrives after the job has taken the connection again, and would wait one chunk per statement.
        const spent = performance.now() - started;
        setTimeout(() => track(step()), spent);
        return;
      }
    } catch (error) {
      log.error({ err: error, invite_code: code }, "a target users job failed");
      try {
        await failTargetUsersJob(
          code,
          TargetUsersJobStatus.Failed,
          "The target users could not be saved; upload the file again.",
          generation,
        );
      } catch (secondError) {
        // The database itself is gone (shutdown): the job stays PROCESSING and is taken over once its lease runs out.
        log.error({ err: secondError, invite_code: code }, "a target users job could not record its failure");
      }
    }
    if (running.get(code) === generation) running.delete(code);
  };
  // Scheduled from the upload's transaction body: the job is none of that transaction's work. Inherited, its context
  // would make the first chunk's transaction a savepoint of the upload's while the upload's COMMIT is still on its
  // way (PostgreSQL answers it asynchronously), so the savepoint would land after the commit, outside any transaction.
  setImmediate(() => outsideTransaction(() => track(step())));
}

function track(chunk: Promise<void>): void {
  chunksInFlight.add(chunk);
  void chunk.finally(() => chunksInFlight.delete(chunk));
}

/**
 * On shutdown: this process's jobs take no further chunk, the chunk being written finishes, and every lease this
 * process holds is given up, so another instance (or this one, restarted) takes the jobs over at once from their last
 * chunk instead of once the leases run out.
 */
export async function releaseTargetUserJobs(): Promise<void> {
  running.clear();
  await Promise.allSettled([...chunksInFlight]);
  await releaseTargetUsersJobLeases(LEASE_OWNER);
}

/** Takes over a PROCESSING job this process is not running, if its lease is free or has run out, from its progress. */
async function resumeJob(code: string): Promise<boolean> {
  if (running.has(code)) return false;
  const job = await findJob(code);
  if (!job || Number(job.status) !== TargetUsersJobStatus.Processing) return false;
  const claimed = await claimTargetUsersJob(
    code,
    TargetUsersJobStatus.Processing,
    LEASE_OWNER,
    leaseUntil(),
    BigInt(Date.now()),
  );
  if (!claimed) return false;
  const ids = await listPendingTargetUserIds(code);
  if (ids.length !== Number(job.total_users)) {
    await failTargetUsersJob(
      code,
      TargetUsersJobStatus.Failed,
      "The job's pending user list was lost; upload the file again.",
    );
    return false;
  }
  runJob(code, ids, job.created_at);
  return true;
}

/**
 * Takes over every unfinished job whose lease is free or has run out, until `stopped()` (a shutdown, which releases
 * this process's jobs: one claimed after that would wait out its lease). Returns how many this process took.
 */
export async function resumeTargetUserJobs(stopped = () => false): Promise<number> {
  const codes = await listUnleasedTargetUsersJobs(TargetUsersJobStatus.Processing, BigInt(Date.now()));
  let taken = 0;
  for (const code of codes) {
    if (stopped()) break;
    if (await resumeJob(code)) taken++;
  }
  return taken;
}

/**
 * Takes over jobs whose instance died, every few seconds, for as long as this server runs: a job is finished within
 * about TARGET_USERS_LEASE_MS + SWEEP_INTERVAL_MS of its instance's death, by whichever instance looks first.
 */
export function startTargetUsersJobSweeper(): Sweeper {
  return startSweeper(
    SWEEP_INTERVAL_MS,
    (stopped) => resumeTargetUserJobs(stopped),
    (error) => log.error({ err: error }, "looking for target users jobs to take over failed"),
  );
}

/**
 * Whether `userId` may accept the invite: anyone when it has no target users; otherwise only the users written so
 * far (while a job is PROCESSING, users not yet written are refused until it reaches them).
 */
export async function isTargetUserAllowed(code: string, userId: bigint): Promise<boolean> {
  const job = await findJob(code);
  if (!job || Number(job.total_users) === 0) return true;
  return await isTargetUser(code, userId);
}

// ---------------------------------------------------------------------------------------------------------------
// The operations

type InviteOwnerRow = Pick<InviteRow, "code" | "guild_id" | "inviter_id">;

async function findInviteOrThrow(code: string, now = Date.now()): Promise<InviteOwnerRow> {
  const invite = await findValidInvite(code, now);
  if (!invite) throw Errors.unknownInvite();
  return invite;
}

/** The inviter may always; anyone else needs one of `flags` in the invite's guild (403 50001 for non-members). */
async function authorize(caller: Identity, invite: InviteOwnerRow, ...flags: bigint[]): Promise<void> {
  if (invite.inviter_id !== null && invite.inviter_id === caller.userId) return;
  (await guildAccessFor(caller, invite.guild_id)).requireAny(...flags);
}

/** Get Target Users: a CSV with the header user_id and one id per line (the inviter, MANAGE_GUILD or VIEW_AUDIT_LOG). */
export async function getInviteTargetUsers(caller: Identity, code: string): Promise<string> {
  const invite = await findInviteOrThrow(code);
  await authorize(caller, invite, Permission.ManageGuild, Permission.ViewAuditLog);
  return `user_id\n${(await listTargetUserIds(code)).map((userId) => `${userId}\n`).join("")}`;
}

/** Whether the caller may Update Target Users (the inviter or MANAGE_GUILD); 404 for an unknown invite. */
export async function authorizeUpdateInviteTargetUsers(caller: Identity, code: string): Promise<void> {
  await authorize(caller, await findInviteOrThrow(code), Permission.ManageGuild);
}

/**
 * Update Target Users with the ids of a file already checked line by line (parseTargetUsersFile, 400 naming each bad
 * line, nothing changed): the caller is judged again here, in the transaction that replaces the list through a job
 * that runs after the response (204), since the file was checked while others could change the caller's roles.
 */
export async function updateInviteTargetUsers(caller: Identity, code: string, ids: readonly bigint[]): Promise<void> {
  await transaction(async () => {
    await authorizeUpdateInviteTargetUsers(caller, code);
    await startTargetUsersJob(code, ids);
  });
}

const iso = (ms: bigint | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** Get Target Users Job Status (the inviter, MANAGE_GUILD or VIEW_AUDIT_LOG); UNSPECIFIED with zeros when no file was given. */
export async function getInviteTargetUsersJobStatus(caller: Identity, code: string) {
  const invite = await findInviteOrThrow(code);
  await authorize(caller, invite, Permission.ManageGuild, Permission.ViewAuditLog);
  let job = await findJob(code);
  if (job && Number(job.status) === TargetUsersJobStatus.Processing && !running.has(code)) {
    await resumeJob(code);
    job = await findJob(code);
  }
  if (!job)
    return {
      status: TargetUsersJobStatus.Unspecified,
      total_users: 0,
      processed_users: 0,
      created_at: null,
      completed_at: null,
      error_message: null,
    };
  return {
    status: Number(job.status),
    total_users: Number(job.total_users),
    processed_users: Number(job.processed_users),
    created_at: iso(job.created_at),
    completed_at: iso(job.completed_at),
    error_message: job.error_message,
  };
}
