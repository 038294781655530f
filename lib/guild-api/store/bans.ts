// The bans table. Pages are JSON text built by SQLite (Get Guild Bans with limit 1000 is a hot path: 2.6 ms against
// 6.4 ms for rows materialized and serialized in JS, on a 1M-member guild), over the bans primary key range
// (guild_id, user_id).
import { sql } from "./db";
import { dialect } from "./dialect";
import { idListJson, idsInJson, USER_COLUMNS_OF_U, USER_JSON_SQL, type UserRow } from "./users";

/** A ban with its user's columns. */
export type BanRow = UserRow & { reason: string | null };

// On PostgreSQL each ban's object is text built by the init migration's guildhall_user_wire_json (the member JSON's
// user object, the same fields in the same order), joined in user-id order; the user is read by a primary-key lookup
// per ban (as a join the planner hashed the page against a scan of every user: 420 ms against 20 ms for 1,000 bans
// on the 100,000-member bench copy). A ban whose user is missing reads NULL, which string_agg skips, as the join did.
const banPageJson = (page: string) =>
  dialect({
    sqlite: `SELECT json_group_array(json_object('reason', b.reason, 'user', ${USER_JSON_SQL})) FROM (${page}) b JOIN users u ON u.id = b.user_id`,
    postgresql: `SELECT '[' || coalesce(string_agg('{"reason":' || guildhall_json_text(b.reason) || ',"user":'
        || (SELECT guildhall_user_wire_json(u) FROM users u WHERE u.id = b.user_id) || '}', ',' ORDER BY b.user_id), '') || ']'
      FROM (${page}) b`,
  });
const bansAfter = () =>
  banPageJson("SELECT user_id, reason FROM bans WHERE guild_id = ? AND user_id > ? ORDER BY user_id LIMIT ?");
const bansBefore = () =>
  banPageJson(
    "SELECT * FROM (SELECT user_id, reason FROM bans WHERE guild_id = ? AND user_id < ? ORDER BY user_id DESC LIMIT ?) AS page ORDER BY user_id",
  );

/** Up to `limit` bans just after `after`, ascending by user id, as a JSON array. */
export async function listBansPageAfterJson(guildId: bigint, after: bigint, limit: number): Promise<string> {
  return (await sql.value(bansAfter(), guildId, after, limit)) as string;
}

/** Up to `limit` bans just below `before`, still ascending by user id, as a JSON array. */
export async function listBansPageBeforeJson(guildId: bigint, before: bigint, limit: number): Promise<string> {
  return (await sql.value(bansBefore(), guildId, before, limit)) as string;
}

export async function findBan(guildId: bigint, userId: bigint): Promise<BanRow | undefined> {
  return (await sql.get(
    `SELECT b.reason, ${USER_COLUMNS_OF_U} FROM bans b JOIN users u ON u.id = b.user_id WHERE b.guild_id = ? AND b.user_id = ?`,
    guildId,
    userId,
  )) as BanRow | undefined;
}

export async function isBanned(guildId: bigint, userId: bigint): Promise<boolean> {
  return Boolean(await sql.get("SELECT 1 FROM bans WHERE guild_id = ? AND user_id = ?", guildId, userId));
}

/** Which of `userIds` are banned already. */
export async function listBannedUserIds(guildId: bigint, userIds: readonly (bigint | string)[]): Promise<bigint[]> {
  return (await sql.values(
    `SELECT user_id FROM bans WHERE guild_id = ? AND user_id IN (${idsInJson()})`,
    guildId,
    idListJson(userIds),
  )) as bigint[];
}

export async function insertBan(guildId: bigint, userId: bigint, reason: string | null, now: bigint): Promise<void> {
  // Appended: a bulk ban's rows go as a few multi-row INSERTs on PostgreSQL.
  await sql.append(
    "INSERT INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, ?, ?)",
    guildId,
    userId,
    reason,
    now,
  );
}

export async function deleteBan(guildId: bigint, userId: bigint): Promise<void> {
  await sql.run("DELETE FROM bans WHERE guild_id = ? AND user_id = ?", guildId, userId);
}
