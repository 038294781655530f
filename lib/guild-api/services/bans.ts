// Bans: one function per spec operation; every change, its events and its audit entry in one transaction.
import { AuditLogEvent } from "discord-api-types/v10";
import { canActOnMember } from "@/lib/discord/permissions";
import { Errors } from "../errors";
import { emitEvent } from "../events";
import { writeAuditLog } from "../audit-log";
import { Permission, toPermissionMember, type GuildAccess } from "../guards";
import { sql, transaction } from "../store/db";
import { findMember, memberRoleIds } from "../store/guild-context";
import { deleteMember } from "../store/membership";
import { serializeUser, USER_COLUMNS, type UserRow } from "../serializers/user";

type BanRow = UserRow & { reason: string | null };
const BAN_SELECT = `SELECT b.reason, ${USER_COLUMNS.split(", ").map((c) => `u.${c}`).join(", ")} FROM bans b JOIN users u ON u.id = b.user_id`;
const serializeBan = (row: BanRow) => ({ reason: row.reason, user: serializeUser(row) });

/** Get Guild Bans: ascending by user id; with both cursors only `before` counts. */
export function getGuildBans(access: GuildAccess, query: { limit: number; before?: string; after?: string }) {
  access.require(Permission.BanMembers);
  const rows = query.before
    ? (sql(`${BAN_SELECT} WHERE b.guild_id = ? AND b.user_id < ? ORDER BY b.user_id DESC LIMIT ?`).all(access.guildId, BigInt(query.before), query.limit) as BanRow[]).reverse()
    : (sql(`${BAN_SELECT} WHERE b.guild_id = ? AND b.user_id > ? ORDER BY b.user_id LIMIT ?`).all(access.guildId, BigInt(query.after ?? "0"), query.limit) as BanRow[]);
  return rows.map(serializeBan);
}

export function getGuildBan(access: GuildAccess, userId: bigint) {
  access.require(Permission.BanMembers);
  const row = sql(`${BAN_SELECT} WHERE b.guild_id = ? AND b.user_id = ?`).get(access.guildId, userId) as BanRow | undefined;
  if (!row) throw Errors.unknownBan();
  return serializeBan(row);
}

type Refusal = "unknown user" | "already banned" | "owner" | "yourself" | "hierarchy";

/** Why `userId` can't be banned by the caller, or null. */
function banRefusal(access: GuildAccess, userId: bigint): Refusal | null {
  if (userId === access.guild.owner_id) return "owner";
  if (userId === access.caller.userId) return "yourself";
  const member = findMember(access.guildId, userId);
  if (member && !canActOnMember(access.context, access.permissionMember, toPermissionMember(member, memberRoleIds(access.guildId, userId))).ok) return "hierarchy";
  return null;
}

/** Bans one user inside the caller's transaction: removes the member, records the ban, fires events. */
function banUser(access: GuildAccess, user: UserRow, reason: string | null, now: number): void {
  if (deleteMember(access.guildId, user.id)) emitEvent(access.guildId, "GUILD_MEMBER_REMOVE", { guild_id: String(access.guildId), user: serializeUser(user) }, now);
  sql("INSERT INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET reason = excluded.reason").run(access.guildId, user.id, reason, BigInt(now));
  emitEvent(access.guildId, "GUILD_BAN_ADD", { guild_id: String(access.guildId), user: serializeUser(user) }, now);
  writeAuditLog({ guildId: access.guildId, userId: access.caller.userId, actionType: AuditLogEvent.MemberBanAdd, targetId: user.id, reason });
}

const findUser = (userId: bigint) => sql(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(userId) as UserRow | undefined;

/** Create Guild Ban: bans members and non-members alike; a repeated ban keeps one ban. */
export function createGuildBan(access: GuildAccess, userId: bigint, reason: string | null, now = Date.now()): void {
  access.require(Permission.BanMembers);
  const user = findUser(userId);
  if (!user) throw Errors.unknownUser();
  if (banRefusal(access, userId)) throw Errors.missingPermissions();
  transaction(() => banUser(access, user, reason, now));
}

export function removeGuildBan(access: GuildAccess, userId: bigint, reason: string | null, now = Date.now()): void {
  access.require(Permission.BanMembers);
  transaction(() => {
    const row = sql(`${BAN_SELECT} WHERE b.guild_id = ? AND b.user_id = ?`).get(access.guildId, userId) as BanRow | undefined;
    if (!row) throw Errors.unknownBan();
    sql("DELETE FROM bans WHERE guild_id = ? AND user_id = ?").run(access.guildId, userId);
    emitEvent(access.guildId, "GUILD_BAN_REMOVE", { guild_id: String(access.guildId), user: serializeUser(row) }, now);
    writeAuditLog({ guildId: access.guildId, userId: access.caller.userId, actionType: AuditLogEvent.MemberBanRemove, targetId: userId, reason });
  });
}

/**
 * Bulk Guild Ban: bans every id it can in one transaction. Failed: unknown users, already banned, the owner,
 * the caller, and members at or above the caller's highest role. Nobody banned → 500000 Failed to ban users.
 */
export function bulkGuildBan(access: GuildAccess, userIds: readonly string[], reason: string | null, now = Date.now()) {
  access.require(Permission.BanMembers, Permission.ManageGuild);
  const unique = [...new Set(userIds)];
  const isBanned = sql("SELECT 1 FROM bans WHERE guild_id = ? AND user_id = ?");
  const banned: string[] = [];
  const failed: string[] = [];
  transaction(() => {
    for (const id of unique) {
      const userId = BigInt(id);
      const user = findUser(userId);
      if (!user || isBanned.get(access.guildId, userId) || banRefusal(access, userId)) {
        failed.push(id);
        continue;
      }
      banUser(access, user, reason, now);
      banned.push(id);
    }
    if (banned.length === 0) throw Errors.failedToBanUsers();
  });
  return { banned_users: banned, failed_users: failed };
}
