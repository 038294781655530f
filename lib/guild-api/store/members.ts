// Member reads for the hot paths: one query per page, role ids folded in with group_concat, keyset on the
// members primary key, and search as two index ranges (never LIKE, which SQLite cannot serve from an index here).
import { sql } from "./db";
import { MEMBER_COLUMNS, type MemberRow } from "./guild-context";
import type { UserRow } from "../serializers/user";

export interface MemberWithUser extends MemberRow, Omit<UserRow, "id" | "banner" | "flags"> {
  user_banner: string | null;
  user_flags: bigint;
  role_ids: string | null;
}

const SELECT_MEMBER_WITH_USER = `SELECT ${MEMBER_COLUMNS}, u.username, u.global_name, u.discriminator, u.avatar, u.banner AS user_banner, u.bot, u.system,
  u.flags AS user_flags, u.public_flags,
  (SELECT group_concat(r.role_id) FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id) AS role_ids
  FROM members m JOIN users u ON u.id = m.user_id`;

export function listMembersAfter(guildId: bigint, after: bigint, limit: number): MemberWithUser[] {
  return sql(`${SELECT_MEMBER_WITH_USER} WHERE m.guild_id = ? AND m.user_id > ? ORDER BY m.user_id LIMIT ?`).all(guildId, after, limit) as MemberWithUser[];
}

export function findMemberWithUser(guildId: bigint, userId: bigint): MemberWithUser | undefined {
  return sql(`${SELECT_MEMBER_WITH_USER} WHERE m.guild_id = ? AND m.user_id = ?`).get(guildId, userId) as MemberWithUser | undefined;
}

/** The smallest string greater than every string starting with `prefix`. */
function prefixUpperBound(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1)!;
  return prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1)) + String.fromCodePoint(last + 1);
}

/**
 * Members whose lower-cased nick or username starts with `query`: two index range scans over
 * members(guild_id, nick_key) and members(guild_id, username_key), each stopping at `limit`, merged by user id.
 */
export function searchMembers(guildId: bigint, query: string, limit: number): MemberWithUser[] {
  const prefix = query.toLowerCase();
  const upper = prefixUpperBound(prefix);
  const byNick = sql(`${SELECT_MEMBER_WITH_USER} WHERE m.guild_id = ? AND m.nick_key >= ? AND m.nick_key < ? LIMIT ?`).all(guildId, prefix, upper, limit) as MemberWithUser[];
  const byName = sql(`${SELECT_MEMBER_WITH_USER} WHERE m.guild_id = ? AND m.username_key >= ? AND m.username_key < ? LIMIT ?`).all(guildId, prefix, upper, limit) as MemberWithUser[];
  const seen = new Set<bigint>();
  const merged: MemberWithUser[] = [];
  for (const row of [...byNick, ...byName]) {
    if (seen.has(row.user_id)) continue;
    seen.add(row.user_id);
    merged.push(row);
  }
  return merged.slice(0, limit);
}

export function splitRoleIds(roleIds: string | null): bigint[] {
  return roleIds ? roleIds.split(",").map(BigInt) : [];
}
