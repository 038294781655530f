// What the gateway reads: the outbox in commit order, and the guild state READY, GUILD_CREATE and member chunks are
// built from. The outbox is walked by a position, not by event id (another instance's snowflakes may be older than
// rows already committed here): on SQLite the rowid, assigned under its single write lock; on PostgreSQL the
// `position` column, drawn from a sequence by a trigger while the writing transaction holds the store's write lock
// (migration …_gateway_outbox_position). Either way position order is commit order. Statements are cached by their text and shared with other modules, so none here is
// switched to pluck(), which would change it for every user of the same text.
import { sql } from "./db";
import { dialect } from "./dialect";
import type { ChannelRow } from "./channels";
import { USER_COLUMNS, type UserRow } from "./users";
import type { GatewayDispatch } from "../events";

export interface OutboxRow {
  position: number;
  guild_id: bigint | null;
  type: GatewayDispatch;
  payload: string;
  /** The request whose change wrote it, when there was one (lib/server/request-id.ts). */
  request_id: string | null;
}

/** The position of the newest committed outbox row (0 when empty). */
export async function outboxHead(): Promise<number> {
  return Number(
    (
      (await sql.get(
        dialect({
          sqlite: "SELECT COALESCE(MAX(rowid), 0) AS head FROM gateway_events",
          postgresql: "SELECT COALESCE(MAX(position), 0) AS head FROM gateway_events",
        }),
      )) as { head: bigint }
    ).head,
  );
}

/** Rows after `position` up to `upTo` (inclusive), oldest first, at most `limit`. */
export async function outboxAfter(position: number, upTo: number, limit: number): Promise<OutboxRow[]> {
  const rows = (await sql.all(
    dialect({
      sqlite:
        "SELECT rowid AS position, guild_id, type, payload, request_id FROM gateway_events WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?",
      postgresql:
        "SELECT position, guild_id, type, payload, request_id FROM gateway_events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?",
    }),
    position,
    upTo,
    limit,
  )) as Array<Omit<OutboxRow, "position"> & { position: bigint }>;
  return rows.map((row) => ({ ...row, position: Number(row.position) }));
}

/** The rows at these positions (for RESUME), by position. */
export async function outboxRowsAt(positions: readonly number[]): Promise<Map<number, OutboxRow>> {
  const rows = (await sql.all(
    dialect({
      sqlite:
        "SELECT rowid AS position, guild_id, type, payload, request_id FROM gateway_events WHERE rowid IN (SELECT value FROM json_each(?))",
      postgresql:
        "SELECT position, guild_id, type, payload, request_id FROM gateway_events WHERE position IN (SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST(? AS json)))",
    }),
    JSON.stringify(positions),
  )) as Array<Omit<OutboxRow, "position"> & { position: bigint }>;
  return new Map(rows.map((row) => [Number(row.position), { ...row, position: Number(row.position) }]));
}

/**
 * Deletes outbox rows written before `before` (ms since the epoch) among the `limit` oldest; answers how many went.
 * The newest row always stays: on SQLite a position is the rowid, and an emptied table would number its next row 1
 * again, behind every reader's cursor (PostgreSQL's positions come from a sequence, but the rule costs nothing there).
 */
export async function pruneOutbox(before: number, limit: number): Promise<number> {
  // Nothing old enough at the front: no write at all (on PostgreSQL even a DELETE of nothing notifies every instance,
  // whose read caches then start again).
  const oldest = await sql.value<bigint | string>(
    dialect({
      sqlite: "SELECT created_at FROM gateway_events ORDER BY rowid LIMIT 1",
      postgresql: "SELECT created_at FROM gateway_events ORDER BY position LIMIT 1",
    }),
  );
  if (oldest === undefined || Number(oldest) >= before) return 0;
  const { changes } = await sql.run(
    dialect({
      sqlite:
        "DELETE FROM gateway_events WHERE rowid IN (SELECT rowid FROM gateway_events ORDER BY rowid LIMIT ?) AND created_at < ? AND rowid < (SELECT MAX(rowid) FROM gateway_events)",
      postgresql:
        "DELETE FROM gateway_events WHERE position IN (SELECT position FROM gateway_events ORDER BY position LIMIT ?) AND created_at < ? AND position < (SELECT MAX(position) FROM gateway_events)",
    }),
    limit,
    BigInt(before),
  );
  return changes;
}

/** Every guild the user is a member of. */
export async function guildIdsOfMember(userId: bigint): Promise<bigint[]> {
  return ((await sql.all("SELECT guild_id FROM members WHERE user_id = ?", userId)) as Array<{ guild_id: bigint }>).map(
    (row) => row.guild_id,
  );
}

/** How many guilds each shard would follow, for GET /gateway/bot's recommended shard count. */
export async function guildCountOfMember(userId: bigint): Promise<number> {
  return Number(((await sql.get("SELECT COUNT(*) AS n FROM members WHERE user_id = ?", userId)) as { n: bigint }).n);
}

/** A channel's permission overwrites (JSON), for judging who sees a thread by its parent. */
export async function channelOverwritesJson(channelId: bigint): Promise<string | undefined> {
  return (
    (await sql.get("SELECT permission_overwrites FROM channels WHERE id = ?", channelId)) as
      { permission_overwrites: string } | undefined
  )?.permission_overwrites;
}

/** Every channel and active thread of a guild, by position then id. */
export async function guildChannelsForCreate(guildId: bigint): Promise<ChannelRow[]> {
  return (await sql.all(
    "SELECT * FROM channels WHERE guild_id = ? AND (type NOT IN (10, 11, 12) OR archived = FALSE) ORDER BY position, id",
    guildId,
  )) as ChannelRow[];
}

/** Members with a status other than offline (presences in GUILD_CREATE), at most `limit`. */
export async function presencesOf(guildId: bigint, limit: number): Promise<Array<{ user_id: bigint; status: string }>> {
  return (await sql.all(
    "SELECT user_id, status FROM members WHERE guild_id = ? AND status != 'offline' LIMIT ?",
    guildId,
    limit,
  )) as Array<{ user_id: bigint; status: string }>;
}

export async function memberCountOf(guildId: bigint): Promise<number> {
  return Number(((await sql.get("SELECT COUNT(*) AS n FROM members WHERE guild_id = ?", guildId)) as { n: bigint }).n);
}

export async function readUser(userId: bigint): Promise<UserRow | undefined> {
  return (await sql.get(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, userId)) as UserRow | undefined;
}

/** The user id `offset` places after `after` in the guild's member list (keyset paging of member chunks). */
export async function memberIdAtOffset(guildId: bigint, after: bigint, offset: number): Promise<bigint | undefined> {
  return (
    (await sql.get(
      "SELECT user_id FROM members WHERE guild_id = ? AND user_id > ? ORDER BY user_id LIMIT 1 OFFSET ?",
      guildId,
      after,
      offset,
    )) as { user_id: bigint } | undefined
  )?.user_id;
}
