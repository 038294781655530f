// Bans: one function per spec operation; every change, its events and its audit entry in one transaction.
import { AuditLogEvent } from "discord-api-types/v10";
import { canActOnMember, type PermissionMember } from "@/lib/discord/permissions";
import { Errors } from "../errors";
import { emitEvent } from "../events";
import { auditByCaller } from "../audit-log";
import type { GuildAccess } from "../guards";
import { storeOnPostgresql, transaction } from "../store/db";
import {
  deleteBan,
  findBan,
  insertBan,
  isBanned,
  listBannedUserIds,
  listBansPageJson,
  listBansPageRows,
  type BanRow,
} from "../store/bans";
import { findMemberRoleIds, listMembersRoleIds, type MemberRoleIdsRow } from "../store/members";
import { deleteMember, deleteMembers } from "../store/membership";
import { readCache } from "../store/read-cache";
import { findUser, listUsersByIds, type UserRow } from "../store/users";
import { serializeUser } from "../serializers/users";

const serializeBan = (row: BanRow) => ({ reason: row.reason, user: serializeUser(row) });

/**
 * Pages recently asked for (the dashboard's bans page, a bot walking its bans), kept in the read cache as the bytes of
 * their JSON: any write from any connection empties it. SQLite writes a page's JSON itself; PostgreSQL's rows are
 * serialized here (store/bans.ts says why). At most 16 pages (one of 1,000 bans is about 300 KB).
 */
const cachedBansPage = readCache(
  async (key: string): Promise<Buffer> => {
    const [guild, side, id, limitText] = key.split(":");
    const [guildId, limit] = [BigInt(guild), Number(limitText)];
    const cursor = side === "before" ? { before: BigInt(id) } : { after: BigInt(id) };
    return Buffer.from(
      storeOnPostgresql()
        ? JSON.stringify((await listBansPageRows(guildId, cursor, limit)).map(serializeBan))
        : await listBansPageJson(guildId, cursor, limit),
    );
  },
  { maxEntries: 16 },
);

/**
 * Get Guild Bans, as the bytes of its JSON: ascending by user id; with both cursors only `before` counts (the `limit`
 * bans just below it).
 */
export async function getGuildBansJson(
  access: GuildAccess,
  query: { limit: number; before?: string; after?: string },
): Promise<Buffer> {
  access.authorize("Get Guild Bans");
  const cursor = query.before !== undefined ? `before:${BigInt(query.before)}` : `after:${BigInt(query.after ?? "0")}`;
  return cachedBansPage(`${access.guildId}:${cursor}:${query.limit}`);
}

/** Get Guild Ban: 404 Unknown Ban when the user is not banned. */
export async function getGuildBan(access: GuildAccess, userId: bigint) {
  access.authorize("Get Guild Ban");
  const row = await findBan(access.guildId, userId);
  if (!row) throw Errors.unknownBan();
  return serializeBan(row);
}

type Refusal = "owner" | "yourself" | "hierarchy";

/**
 * Why the caller may not ban `userId`, or null. `target` is the user's membership (role ids), or null when
 * they are not a member: non-members have no roles, so only the owner and self rules apply to them.
 */
function banRefusal(access: GuildAccess, userId: bigint, target: PermissionMember | null): Refusal | null {
  if (userId === access.guild.owner_id) return "owner";
  if (userId === access.caller.userId) return "yourself";
  if (target && !canActOnMember(access.context, access.permissionMember, target).ok) return "hierarchy";
  return null;
}

const toTarget = (row: MemberRoleIdsRow): PermissionMember => ({
  userId: String(row.user_id),
  roleIds: row.role_ids ? row.role_ids.split(",") : [],
  communicationDisabledUntil: null,
});

async function membership(guildId: bigint, userId: bigint): Promise<PermissionMember | null> {
  const row = await findMemberRoleIds(guildId, userId);
  return row ? toTarget(row) : null;
}

/** Removes the member (if they are one) and fires GUILD_MEMBER_REMOVE; runs inside the caller's transaction. */
async function removeIfMember(
  access: GuildAccess,
  userId: bigint,
  user: ReturnType<typeof serializeUser>,
  now: number,
): Promise<void> {
  if (await deleteMember(access.guildId, userId))
    await emitEvent(access.guildId, "GUILD_MEMBER_REMOVE", { guild_id: String(access.guildId), user }, now);
}

/** Records a new ban with its event and audit entry; runs inside the caller's transaction. */
async function recordBan(
  access: GuildAccess,
  userId: bigint,
  user: ReturnType<typeof serializeUser>,
  reason: string | null,
  now: number,
): Promise<void> {
  await insertBan(access.guildId, userId, reason, BigInt(now));
  await emitEvent(access.guildId, "GUILD_BAN_ADD", { guild_id: String(access.guildId), user }, now);
  await auditByCaller(access, {
    actionType: AuditLogEvent.MemberBanAdd,
    targetId: userId,
    reason,
  });
}

/**
 * Create Guild Ban: bans members and non-members alike (the user must exist: 404 Unknown User). A member is
 * removed first; the owner, the caller and members at or above the caller's highest role are refused (403).
 * Banning someone already banned answers 204 and keeps the one ban as it was (no new event or audit entry).
 */
export async function createGuildBan(
  access: GuildAccess,
  userId: bigint,
  reason: string | null,
  now = Date.now(),
): Promise<void> {
  access.authorize("Create Guild Ban");
  await transaction(async () => {
    const user = await findUser(userId);
    if (!user) throw Errors.unknownUser();
    if (banRefusal(access, userId, await membership(access.guildId, userId))) throw Errors.missingPermissions();
    const wire = serializeUser(user);
    await removeIfMember(access, userId, wire, now);
    if (!(await isBanned(access.guildId, userId))) await recordBan(access, userId, wire, reason, now);
  });
}

/** Remove Guild Ban: 404 Unknown Ban when the user is not banned. */
export async function removeGuildBan(
  access: GuildAccess,
  userId: bigint,
  reason: string | null,
  now = Date.now(),
): Promise<void> {
  access.authorize("Remove Guild Ban");
  await transaction(async () => {
    const row = await findBan(access.guildId, userId);
    if (!row) throw Errors.unknownBan();
    await deleteBan(access.guildId, userId);
    await emitEvent(
      access.guildId,
      "GUILD_BAN_REMOVE",
      { guild_id: String(access.guildId), user: serializeUser(row) },
      now,
    );
    await auditByCaller(access, {
      actionType: AuditLogEvent.MemberBanRemove,
      targetId: userId,
      reason,
    });
  });
}

/**
 * Bulk Guild Ban: bans every id it can, in one transaction. Failed: unknown users, the already banned, the owner,
 * the caller, and members at or above the caller's highest role. Nobody banned → 400 500000 Failed to ban users.
 * The users, existing bans and the members' role ids are each read in one query for all ids, so 200 ids cost
 * three reads plus the writes.
 */
export async function bulkGuildBan(
  access: GuildAccess,
  userIds: readonly string[],
  reason: string | null,
  now = Date.now(),
) {
  access.authorize("Bulk Guild Ban");
  return await transaction(async () => {
    // Validated snowflakes (≤ 2^63-1), so the store's JSON id lists hold 64-bit integers json_each reads exactly.
    const users = new Map((await listUsersByIds(userIds)).map((u) => [String(u.id), u]));
    const alreadyBanned = new Set((await listBannedUserIds(access.guildId, userIds)).map(String));
    const members = new Map(
      (await listMembersRoleIds(access.guildId, userIds)).map((r) => [String(r.user_id), toTarget(r)]),
    );

    const banned: string[] = [];
    const failed: string[] = [];
    const toBan: UserRow[] = [];
    for (const id of userIds) {
      const user = users.get(id);
      if (!user || alreadyBanned.has(id) || banRefusal(access, user.id, members.get(id) ?? null)) {
        failed.push(id);
      } else {
        banned.push(id);
        toBan.push(user);
      }
    }
    if (toBan.length === 0) throw Errors.failedToBanUsers();
    const removed = new Set(
      await deleteMembers(
        access.guildId,
        toBan.filter((user) => members.has(String(user.id))).map((user) => user.id),
      ),
    );
    for (const user of toBan) {
      const wire = serializeUser(user);
      if (removed.has(user.id))
        await emitEvent(access.guildId, "GUILD_MEMBER_REMOVE", { guild_id: String(access.guildId), user: wire }, now);
      await recordBan(access, user.id, wire, reason, now);
    }
    return { banned_users: banned, failed_users: failed };
  });
}
