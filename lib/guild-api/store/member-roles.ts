// The member_roles table: which roles each member holds (@everyone is implied, never stored). A member's role ids are
// read through the read cache: every permission check needs the caller's.
import { sql } from "./db";
import type { MaybePromise } from "../maybe-promise";
import { readCache } from "./read-cache";
import { idListJson, idsInJson } from "./users";

const cachedMemberRoleIds = readCache(async (key: string) => {
  const [guildId, userId] = key.split(":").map(BigInt) as [bigint, bigint];
  return (await sql.values(
    "SELECT role_id FROM member_roles WHERE guild_id = ? AND user_id = ? ORDER BY role_id",
    guildId,
    userId,
  )) as bigint[];
});

/** The member's role ids, ascending, through the read cache. */
export function memberRoleIds(guildId: bigint, userId: bigint): MaybePromise<readonly bigint[]> {
  return cachedMemberRoleIds(`${guildId}:${userId}`);
}

export async function insertMemberRoles(guildId: bigint, userId: bigint, roleIds: readonly bigint[]): Promise<void> {
  for (const roleId of roleIds)
    await sql.run("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)", guildId, userId, roleId);
}

/** Gives one role (the member must not hold it yet): one row, so the wire-JSON trigger fires once. */
export async function insertMemberRole(guildId: bigint, userId: bigint, roleId: bigint): Promise<void> {
  await sql.run("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)", guildId, userId, roleId);
}

/** Takes one role; false when the member did not hold it. */
export async function deleteMemberRole(guildId: bigint, userId: bigint, roleId: bigint): Promise<boolean> {
  return (
    (
      await sql.run(
        "DELETE FROM member_roles WHERE guild_id = ? AND user_id = ? AND role_id = ?",
        guildId,
        userId,
        roleId,
      )
    ).changes > 0
  );
}

export async function deleteMemberRoles(guildId: bigint, userId: bigint): Promise<void> {
  await sql.run("DELETE FROM member_roles WHERE guild_id = ? AND user_id = ?", guildId, userId);
}

/** The role rows of every listed member, in one statement. */
export async function deleteMembersRoles(guildId: bigint, userIds: readonly bigint[]): Promise<void> {
  await sql.run(
    `DELETE FROM member_roles WHERE guild_id = ? AND user_id IN (${idsInJson()})`,
    guildId,
    idListJson(userIds),
  );
}

/** Takes `roleId` from every member who holds it. */
export async function deleteRoleAssignments(guildId: bigint, roleId: bigint): Promise<void> {
  await sql.run("DELETE FROM member_roles WHERE guild_id = ? AND role_id = ?", guildId, roleId);
}

/** How many members hold each role (roles nobody holds are absent): one grouped walk of the (guild_id, role_id) index. */
export async function countMembersByRole(guildId: bigint): Promise<Map<bigint, number>> {
  const rows = (await sql.rows(
    "SELECT role_id, COUNT(*) FROM member_roles WHERE guild_id = ? GROUP BY role_id",
    guildId,
  )) as Array<[bigint, bigint]>;
  return new Map(rows.map(([roleId, count]) => [roleId, Number(count)]));
}
