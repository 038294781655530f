// Channel operations.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { hasPermission } from "@/lib/discord/permissions";
import type { GuildAccess } from "../guards";
import { sql } from "../store/db";
import { serializeChannel, serializeThread, type ChannelRow } from "../serializers/channel";

/** Get Guild Channels: every non-thread channel, by position then id. */
export function listGuildChannels(access: GuildAccess) {
  const rows = sql("SELECT * FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12) ORDER BY position, id").all(access.guildId) as ChannelRow[];
  return rows.map(serializeChannel);
}

/**
 * List Active Guild Threads: unarchived threads the caller can see (newest first), and the caller's thread
 * memberships among them.
 */
export function listActiveThreads(access: GuildAccess) {
  const rows = sql("SELECT * FROM channels WHERE guild_id = ? AND type IN (10, 11, 12) AND archived = 0 ORDER BY id DESC").all(access.guildId) as ChannelRow[];
  const parents = new Map((sql("SELECT id, permission_overwrites FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12)").all(access.guildId) as Array<{ id: bigint; permission_overwrites: string }>).map((c) => [c.id, c.permission_overwrites]));
  const visible = rows.filter((thread) => {
    const overwrites = thread.parent_id === null ? undefined : parents.get(thread.parent_id);
    const permissions = overwrites === undefined ? access.permissions : access.channelPermissions(overwrites);
    if (!hasPermission(permissions, P.ViewChannel)) return false;
    // Private threads: their members and those who manage threads.
    if (Number(thread.type) === 12) {
      const member = sql("SELECT 1 FROM thread_members WHERE thread_id = ? AND user_id = ?").get(thread.id, access.caller.userId);
      return Boolean(member) || hasPermission(permissions, P.ManageThreads);
    }
    return true;
  });
  const memberships = sql("SELECT thread_id, user_id, join_timestamp, flags FROM thread_members WHERE user_id = ? AND thread_id = ?");
  const members = visible.flatMap((thread) => {
    const row = memberships.get(access.caller.userId, thread.id) as { thread_id: bigint; user_id: bigint; join_timestamp: bigint; flags: bigint } | undefined;
    return row ? [{ id: String(row.thread_id), user_id: String(row.user_id), join_timestamp: new Date(Number(row.join_timestamp)).toISOString(), flags: Number(row.flags) }] : [];
  });
  return { threads: visible.map(serializeThread), members, has_more: false };
}
