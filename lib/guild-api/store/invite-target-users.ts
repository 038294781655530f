// The invite_target_users table (who may accept an invite that has a target-users list) and
// invite_target_users_jobs (the upload's progress: a job writes the list in chunks after the request).
import { sql } from "./db";
import { dialect } from "./dialect";
import { idListJson } from "./users";

export interface TargetUsersJobRow {
  invite_code: string;
  status: bigint;
  total_users: bigint;
  processed_users: bigint;
  error_message: string | null;
  created_at: bigint;
  completed_at: bigint | null;
}

export async function findTargetUsersJob(code: string): Promise<TargetUsersJobRow | undefined> {
  return (await sql.get(
    "SELECT invite_code, status, total_users, processed_users, error_message, created_at, completed_at FROM invite_target_users_jobs WHERE invite_code = ?",
    code,
  )) as TargetUsersJobRow | undefined;
}

/** The ids a job still has to write (kept so it can resume after a restart). */
export async function listPendingTargetUserIds(code: string): Promise<bigint[]> {
  return (
    (await sql.values(
      dialect({
        sqlite:
          "SELECT value FROM json_each((SELECT pending_user_ids FROM invite_target_users_jobs WHERE invite_code = ?))",
        postgresql: `SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text(
            (SELECT CAST(pending_user_ids AS JSONB) FROM invite_target_users_jobs WHERE invite_code = ?)) AS ids(value)`,
      }),
      code,
    )) as Array<bigint | number>
  ).map((value) => BigInt(value));
}

/** Records a new job for the invite, replacing any earlier one. */
export async function replaceTargetUsersJob(job: {
  code: string;
  status: number;
  totalUsers: number;
  pendingUserIds: readonly bigint[];
  createdAt: bigint;
  completedAt: bigint | null;
}): Promise<void> {
  await sql.run(
    `INSERT INTO invite_target_users_jobs (invite_code, status, total_users, processed_users, pending_user_ids, error_message, created_at, completed_at)
     VALUES (?, ?, ?, 0, ?, NULL, ?, ?)
     ON CONFLICT (invite_code) DO UPDATE SET status = excluded.status, total_users = excluded.total_users, processed_users = 0,
       pending_user_ids = excluded.pending_user_ids, error_message = NULL, created_at = excluded.created_at,
       completed_at = excluded.completed_at, lease_owner = NULL, lease_until = NULL`,
    job.code,
    job.status,
    job.totalUsers,
    idListJson(job.pendingUserIds),
    job.createdAt,
    job.completedAt,
  );
}

export async function setTargetUsersJobProgress(code: string, processedUsers: number): Promise<void> {
  await sql.run("UPDATE invite_target_users_jobs SET processed_users = ? WHERE invite_code = ?", processedUsers, code);
}

export async function completeTargetUsersJob(
  code: string,
  status: number,
  processedUsers: number,
  now: bigint,
): Promise<void> {
  await sql.run(
    "UPDATE invite_target_users_jobs SET status = ?, processed_users = ?, pending_user_ids = '[]', completed_at = ? WHERE invite_code = ?",
    status,
    processedUsers,
    now,
    code,
  );
}

/** Marks the job failed with a message for the user; only the job of `generation` when given. */
export async function failTargetUsersJob(
  code: string,
  status: number,
  errorMessage: string,
  generation?: bigint,
): Promise<void> {
  if (generation === undefined)
    await sql.run(
      "UPDATE invite_target_users_jobs SET status = ?, error_message = ? WHERE invite_code = ?",
      status,
      errorMessage,
      code,
    );
  else
    await sql.run(
      "UPDATE invite_target_users_jobs SET status = ?, error_message = ?, pending_user_ids = '[]' WHERE invite_code = ? AND created_at = ?",
      status,
      errorMessage,
      code,
      generation,
    );
}

export async function deleteTargetUsersJob(code: string): Promise<void> {
  await sql.run("DELETE FROM invite_target_users_jobs WHERE invite_code = ?", code);
}

export async function isTargetUser(code: string, userId: bigint): Promise<boolean> {
  return Boolean(
    await sql.get("SELECT 1 FROM invite_target_users WHERE invite_code = ? AND user_id = ?", code, userId),
  );
}

export async function listTargetUserIds(code: string): Promise<bigint[]> {
  return (await sql.values(
    "SELECT user_id FROM invite_target_users WHERE invite_code = ? ORDER BY user_id",
    code,
  )) as bigint[];
}

export async function insertTargetUsers(code: string, userIds: readonly bigint[]): Promise<void> {
  await sql.run(
    dialect({
      sqlite: "INSERT OR IGNORE INTO invite_target_users (invite_code, user_id) SELECT ?, value FROM json_each(?)",
      postgresql: `INSERT INTO invite_target_users (invite_code, user_id)
        SELECT CAST(? AS TEXT), CAST(value AS BIGINT) FROM jsonb_array_elements_text(CAST(? AS JSONB)) AS ids(value)
        ON CONFLICT DO NOTHING`,
    }),
    code,
    idListJson(userIds),
  );
}

export async function deleteTargetUsers(code: string): Promise<void> {
  await sql.run("DELETE FROM invite_target_users WHERE invite_code = ?", code);
}

/**
 * Takes the job's lease for `owner` until `leaseUntil`: when the job is PROCESSING and its lease is free, already
 * `owner`'s, or run out at `now`. Answers whether `owner` holds it now.
 */
export async function claimTargetUsersJob(
  code: string,
  processing: number,
  owner: string,
  leaseUntil: bigint,
  now: bigint,
): Promise<boolean> {
  const { changes } = await sql.run(
    `UPDATE invite_target_users_jobs SET lease_owner = ?, lease_until = ?
     WHERE invite_code = ? AND status = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)`,
    owner,
    leaseUntil,
    code,
    processing,
    owner,
    now,
  );
  return changes === 1;
}

/** Extends `owner`'s lease on the job; false when another instance has taken it over. */
export async function renewTargetUsersJobLease(code: string, owner: string, leaseUntil: bigint): Promise<boolean> {
  const { changes } = await sql.run(
    "UPDATE invite_target_users_jobs SET lease_until = ? WHERE invite_code = ? AND lease_owner = ?",
    leaseUntil,
    code,
    owner,
  );
  return changes === 1;
}

/** Gives up every lease `owner` holds (its shutdown): the jobs are free to take over at once. */
export async function releaseTargetUsersJobLeases(owner: string): Promise<void> {
  await sql.run(
    "UPDATE invite_target_users_jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?",
    owner,
  );
}

/** PROCESSING jobs nobody holds a live lease on at `now`: the ones an instance may take over. */
export async function listUnleasedTargetUsersJobs(processing: number, now: bigint): Promise<string[]> {
  return (await sql.values(
    "SELECT invite_code FROM invite_target_users_jobs WHERE status = ? AND (lease_until IS NULL OR lease_until < ?)",
    processing,
    now,
  )) as string[];
}

/** How many PROCESSING jobs there are and when the oldest was created (ms): the job-queue metrics. */
export async function targetUsersJobBacklog(
  processing: number,
): Promise<{ count: number; oldestCreatedAt: number | null }> {
  const [count, oldest] = (await sql.row<[bigint, bigint | null]>(
    "SELECT COUNT(*), MIN(created_at) FROM invite_target_users_jobs WHERE status = ?",
    processing,
  ))!;
  return { count: Number(count), oldestCreatedAt: oldest === null ? null : Number(oldest) };
}
