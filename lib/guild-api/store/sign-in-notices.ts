// The sign_in_notices table: wrong passwords typed for a person's account on the built-in provider's sign-in, and
// the notice its owner is shown after their next successful sign-in until they dismiss it
// (services/password-sign-in.ts).
import { sql } from "./db";

export interface SignInNoticeRow {
  notice_count: bigint;
  notice_last_at: bigint | null;
}

/** One wrong password for `userId`, typed at `at` (ms). */
export async function countWrongPassword(userId: bigint, at: number): Promise<void> {
  await sql.run(
    `INSERT INTO sign_in_notices (user_id, wrong_passwords, last_wrong_at) VALUES (?, 1, ?)
     ON CONFLICT (user_id) DO UPDATE SET wrong_passwords = sign_in_notices.wrong_passwords + 1, last_wrong_at = ?`,
    userId,
    BigInt(at),
    BigInt(at),
  );
}

/** A successful sign-in: the wrong passwords typed since the last one join the notice the owner is shown. */
export async function moveWrongPasswordsToNotice(userId: bigint): Promise<void> {
  await sql.run(
    `UPDATE sign_in_notices
     SET notice_count = notice_count + wrong_passwords, notice_last_at = last_wrong_at,
         wrong_passwords = 0, last_wrong_at = NULL
     WHERE user_id = ? AND wrong_passwords > 0`,
    userId,
  );
}

/** The notice to show `userId`, if any. */
export async function findSignInNotice(userId: bigint): Promise<SignInNoticeRow | undefined> {
  return (await sql.get(
    "SELECT notice_count, notice_last_at FROM sign_in_notices WHERE user_id = ? AND notice_count > 0",
    userId,
  )) as SignInNoticeRow | undefined;
}

/** The owner has read the notice. */
export async function clearSignInNotice(userId: bigint): Promise<void> {
  await sql.run("UPDATE sign_in_notices SET notice_count = 0, notice_last_at = NULL WHERE user_id = ?", userId);
}
