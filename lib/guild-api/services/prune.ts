// Prune: members inactive for `days` are counted or removed. By default only members with no roles; with
// include_roles, members whose roles are a subset of those roles. Counting comes from the index
// members(guild_id, role_count, last_active_at): role_count = 0 is a covering range count, and members with
// 1..k roles are checked against member_roles by primary key. The owner is never pruned.
import { AuditLogEvent } from "discord-api-types/v10";
import { Errors } from "../errors";
import { emitEvent } from "../events";
import { writeAuditLog } from "../audit-log";
import { Permission, type GuildAccess } from "../guards";
import { sql, transaction } from "../store/db";
import { deleteMember } from "../store/membership";
import { serializeUser, USER_COLUMNS, type UserRow } from "../serializers/user";

const DAY_MS = 86_400_000;

function checkRoles(access: GuildAccess, roleIds: readonly string[]): bigint[] {
  const ids = [...new Set(roleIds)].map(BigInt);
  ids.forEach((id, index) => {
    if (!access.role(id) || id === access.guildId) throw Errors.invalidField(["include_roles", index], "ROLE_INVALID", `Role ${id} is not a role of this guild.`);
  });
  return ids;
}

/** The user ids a prune would remove (the subset rule, for members with roles). */
function prunableWithRoles(access: GuildAccess, roleIds: readonly bigint[], cutoff: bigint): bigint[] {
  if (roleIds.length === 0) return [];
  const placeholders = roleIds.map(() => "?").join(", ");
  // Candidates: inactive members holding 1..k roles (index range); each keeps when all its roles are listed.
  return (
    sql(
      `SELECT m.user_id FROM members m WHERE m.guild_id = ? AND m.role_count BETWEEN 1 AND ? AND m.last_active_at < ? AND m.user_id != ?
       AND m.role_count = (SELECT COUNT(*) FROM member_roles r WHERE r.guild_id = m.guild_id AND r.user_id = m.user_id AND r.role_id IN (${placeholders}))`,
    ).all(access.guildId, roleIds.length, cutoff, access.guild.owner_id, ...roleIds) as Array<{ user_id: bigint }>
  ).map((r) => r.user_id);
}

function countWithoutRoles(access: GuildAccess, cutoff: bigint): number {
  const n = (sql("SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND role_count = 0 AND last_active_at < ? AND user_id != ?").get(access.guildId, cutoff, access.guild.owner_id) as { n: bigint }).n;
  return Number(n);
}

/** Get Guild Prune Count */
export function getGuildPruneCount(access: GuildAccess, days: number, includeRoles: readonly string[], now = Date.now()) {
  access.require(Permission.ManageGuild, Permission.KickMembers);
  const roleIds = checkRoles(access, includeRoles);
  const cutoff = BigInt(now - days * DAY_MS);
  return { pruned: countWithoutRoles(access, cutoff) + prunableWithRoles(access, roleIds, cutoff).length };
}

/** Begin Guild Prune: removes every matching member in one transaction, one GUILD_MEMBER_REMOVE each. */
export function beginGuildPrune(access: GuildAccess, input: { days: number; computePruneCount: boolean; includeRoles: readonly string[]; reason: string | null }, now = Date.now()) {
  access.require(Permission.ManageGuild, Permission.KickMembers);
  const roleIds = checkRoles(access, input.includeRoles);
  const cutoff = BigInt(now - input.days * DAY_MS);
  const removed = transaction(() => {
    const withoutRoles = (sql("SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND last_active_at < ? AND user_id != ?").all(access.guildId, cutoff, access.guild.owner_id) as Array<{ user_id: bigint }>).map((r) => r.user_id);
    const targets = [...withoutRoles, ...prunableWithRoles(access, roleIds, cutoff)];
    const findUser = sql(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`);
    for (const userId of targets) {
      deleteMember(access.guildId, userId);
      emitEvent(access.guildId, "GUILD_MEMBER_REMOVE", { guild_id: String(access.guildId), user: serializeUser(findUser.get(userId) as UserRow) }, now);
    }
    writeAuditLog({
      guildId: access.guildId, userId: access.caller.userId, actionType: AuditLogEvent.MemberPrune, reason: input.reason,
      options: { delete_member_days: String(input.days), members_removed: String(targets.length) },
    });
    return targets.length;
  });
  return { pruned: input.computePruneCount ? removed : null };
}
