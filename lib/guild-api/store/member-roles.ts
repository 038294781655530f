// The member_roles table: which roles each member holds (@everyone is implied, never stored). A member's role ids are
// read through the read cache: every permission check needs the caller's.
import { sql } from "./db";
import { readCache } from "./read-cache";
import { idListJson } from "./users";

const cachedMemberRoleIds = readCache((key: string) => {
  const [guildId, userId] = key.split(":").map(BigInt) as [bigint, bigint];
  return sql("SELECT role_id FROM member_roles WHERE guild_id = ? AND user_id = ? ORDER BY role_id")
    .pluck()
    .all(guildId, userId) as bigint[];
});

/** The member's role ids, ascending, through the read cache. */
export function memberRoleIds(guildId: bigint, userId: bigint): readonly bigint[] {
  return cachedMemberRoleIds(`${guildId}:${userId}`);
}

export function insertMemberRoles(guildId: bigint, userId: bigint, roleIds: readonly bigint[]): void {
  for (const roleId of roleIds)
    sql("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)").run(guildId, userId, roleId);
}

/** Gives one role (the member must not hold it yet): one row, so the wire-JSON trigger fires once. */
export function insertMemberRole(guildId: bigint, userId: bigint, roleId: bigint): void {
  sql("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)").run(guildId, userId, roleId);
}

/** Takes one role; false when the member did not hold it. */
export function deleteMemberRole(guildId: bigint, userId: bigint, roleId: bigint): boolean {
  return (
    sql("DELETE FROM member_roles WHERE guild_id = ? AND user_id = ? AND role_id = ?").run(guildId, userId, roleId)
      .changes > 0
  );
}

export function deleteMemberRoles(guildId: bigint, userId: bigint): void {
  sql("DELETE FROM member_roles WHERE guild_id = ? AND user_id = ?").run(guildId, userId);
}

/** The role rows of every listed member, in one statement. */
export function deleteMembersRoles(guildId: bigint, userIds: readonly bigint[]): void {
  sql("DELETE FROM member_roles WHERE guild_id = ? AND user_id IN (SELECT value FROM json_each(?))").run(
    guildId,
    idListJson(userIds),
  );
}

/** Takes `roleId` from every member who holds it. */
export function deleteRoleAssignments(guildId: bigint, roleId: bigint): void {
  sql("DELETE FROM member_roles WHERE guild_id = ? AND role_id = ?").run(guildId, roleId);
}

/** How many members hold each role (roles nobody holds are absent): one grouped walk of the (guild_id, role_id) index. */
export function countMembersByRole(guildId: bigint): Map<bigint, number> {
  const rows = sql("SELECT role_id, COUNT(*) FROM member_roles WHERE guild_id = ? GROUP BY role_id")
    .raw(true)
    .all(guildId) as Array<[bigint, bigint]>;
  return new Map(rows.map(([roleId, count]) => [roleId, Number(count)]));
}
