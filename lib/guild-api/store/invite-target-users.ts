// The invite_target_users table (who may accept an invite that has a target-users list) and
// invite_target_users_jobs (the upload's progress: a job writes the list in chunks after the request).
import { sql } from "./db";
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

export function findTargetUsersJob(code: string): TargetUsersJobRow | undefined {
  return sql(
    "SELECT invite_code, status, total_users, processed_users, error_message, created_at, completed_at FROM invite_target_users_jobs WHERE invite_code = ?",
  ).get(code) as TargetUsersJobRow | undefined;
}

/** The ids a job still has to write (kept so it can resume after a restart). */
export function listPendingTargetUserIds(code: string): bigint[] {
  return (
    sql("SELECT value FROM json_each((SELECT pending_user_ids FROM invite_target_users_jobs WHERE invite_code = ?))")
      .pluck()
      .all(code) as Array<bigint | number>
  ).map((value) => BigInt(value));
}

export function listJobCodesWithStatus(status: number): string[] {
  return sql("SELECT invite_code FROM invite_target_users_jobs WHERE status = ?").pluck().all(status) as string[];
}

/** Records a new job for the invite, replacing any earlier one. */
export function replaceTargetUsersJob(job: {
  code: string;
  status: number;
  totalUsers: number;
  pendingUserIds: readonly bigint[];
  createdAt: bigint;
  completedAt: bigint | null;
}): void {
  sql(
    `INSERT OR REPLACE INTO invite_target_users_jobs (invite_code, status, total_users, processed_users, pending_user_ids, error_message, created_at, completed_at)
     VALUES (?, ?, ?, 0, ?, NULL, ?, ?)`,
  ).run(job.code, job.status, job.totalUsers, idListJson(job.pendingUserIds), job.createdAt, job.completedAt);
}

export function setTargetUsersJobProgress(code: string, processedUsers: number): void {
  sql("UPDATE invite_target_users_jobs SET processed_users = ? WHERE invite_code = ?").run(processedUsers, code);
}

export function completeTargetUsersJob(code: string, status: number, processedUsers: number, now: bigint): void {
  sql(
    "UPDATE invite_target_users_jobs SET status = ?, processed_users = ?, pending_user_ids = '[]', completed_at = ? WHERE invite_code = ?",
  ).run(status, processedUsers, now, code);
}

/** Marks the job failed with a message for the user; only the job of `generation` when given. */
export function failTargetUsersJob(code: string, status: number, errorMessage: string, generation?: bigint): void {
  if (generation === undefined)
    sql("UPDATE invite_target_users_jobs SET status = ?, error_message = ? WHERE invite_code = ?").run(
      status,
      errorMessage,
      code,
    );
  else
    sql(
      "UPDATE invite_target_users_jobs SET status = ?, error_message = ?, pending_user_ids = '[]' WHERE invite_code = ? AND created_at = ?",
    ).run(status, errorMessage, code, generation);
}

export function deleteTargetUsersJob(code: string): void {
  sql("DELETE FROM invite_target_users_jobs WHERE invite_code = ?").run(code);
}

export function isTargetUser(code: string, userId: bigint): boolean {
  return Boolean(sql("SELECT 1 FROM invite_target_users WHERE invite_code = ? AND user_id = ?").get(code, userId));
}

export function listTargetUserIds(code: string): bigint[] {
  return sql("SELECT user_id FROM invite_target_users WHERE invite_code = ? ORDER BY user_id")
    .pluck()
    .all(code) as bigint[];
}

export function insertTargetUsers(code: string, userIds: readonly bigint[]): void {
  sql("INSERT OR IGNORE INTO invite_target_users (invite_code, user_id) SELECT ?, value FROM json_each(?)").run(
    code,
    idListJson(userIds),
  );
}

export function deleteTargetUsers(code: string): void {
  sql("DELETE FROM invite_target_users WHERE invite_code = ?").run(code);
}
