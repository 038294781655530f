// What the gateway reads: the outbox in commit order, and the guild state READY, GUILD_CREATE and member chunks are
// built from. The outbox is walked by rowid, not by event id: a rowid is assigned under SQLite's single write lock,
// so rowid order is commit order even for rows written by other connections (whose snowflakes may be older than
// rows already committed here). Statements are cached by their text and shared with other modules, so none here is
// switched to pluck(), which would change it for every user of the same text.
import { sql } from "./db";
import type { ChannelRow } from "./channels";
import { USER_COLUMNS, type UserRow } from "./users";
import type { GatewayDispatch } from "../events";

export interface OutboxRow {
  position: number;
  guild_id: bigint | null;
  type: GatewayDispatch;
  payload: string;
}

/** The position of the newest committed outbox row (0 when empty). */
export function outboxHead(): number {
  return Number((sql("SELECT COALESCE(MAX(rowid), 0) AS head FROM gateway_events").get() as { head: bigint }).head);
}

/** Rows after `position` up to `upTo` (inclusive), oldest first, at most `limit`. */
export function outboxAfter(position: number, upTo: number, limit: number): OutboxRow[] {
  const rows = sql(
    "SELECT rowid AS position, guild_id, type, payload FROM gateway_events WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?",
  ).all(position, upTo, limit) as Array<Omit<OutboxRow, "position"> & { position: bigint }>;
  return rows.map((row) => ({ ...row, position: Number(row.position) }));
}

/** The rows at these positions (for RESUME), by position. */
export function outboxRowsAt(positions: readonly number[]): Map<number, OutboxRow> {
  const rows = sql(
    "SELECT rowid AS position, guild_id, type, payload FROM gateway_events WHERE rowid IN (SELECT value FROM json_each(?))",
  ).all(JSON.stringify(positions)) as Array<Omit<OutboxRow, "position"> & { position: bigint }>;
  return new Map(rows.map((row) => [Number(row.position), { ...row, position: Number(row.position) }]));
}

/** Every guild the user is a member of. */
export function guildIdsOfMember(userId: bigint): bigint[] {
  return (sql("SELECT guild_id FROM members WHERE user_id = ?").all(userId) as Array<{ guild_id: bigint }>).map(
    (row) => row.guild_id,
  );
}

/** How many guilds each shard would follow, for GET /gateway/bot's recommended shard count. */
export function guildCountOfMember(userId: bigint): number {
  return Number((sql("SELECT COUNT(*) AS n FROM members WHERE user_id = ?").get(userId) as { n: bigint }).n);
}

/** A channel's permission overwrites (JSON), for judging who sees a thread by its parent. */
export function channelOverwritesJson(channelId: bigint): string | undefined {
  return (
    sql("SELECT permission_overwrites FROM channels WHERE id = ?").get(channelId) as
      { permission_overwrites: string } | undefined
  )?.permission_overwrites;
}

/** Every channel and active thread of a guild, by position then id. */
export function guildChannelsForCreate(guildId: bigint): ChannelRow[] {
  return sql(
    "SELECT * FROM channels WHERE guild_id = ? AND (type NOT IN (10, 11, 12) OR archived = 0) ORDER BY position, id",
  ).all(guildId) as ChannelRow[];
}

/** Members with a status other than offline (presences in GUILD_CREATE), at most `limit`. */
export function presencesOf(guildId: bigint, limit: number): Array<{ user_id: bigint; status: string }> {
  return sql("SELECT user_id, status FROM members WHERE guild_id = ? AND status != 'offline' LIMIT ?").all(
    guildId,
    limit,
  ) as Array<{ user_id: bigint; status: string }>;
}

export function memberCountOf(guildId: bigint): number {
  return Number((sql("SELECT COUNT(*) AS n FROM members WHERE guild_id = ?").get(guildId) as { n: bigint }).n);
}

export function readUser(userId: bigint): UserRow | undefined {
  return sql(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(userId) as UserRow | undefined;
}

/** The user id `offset` places after `after` in the guild's member list (keyset paging of member chunks). */
export function memberIdAtOffset(guildId: bigint, after: bigint, offset: number): bigint | undefined {
  return (
    sql("SELECT user_id FROM members WHERE guild_id = ? AND user_id > ? ORDER BY user_id LIMIT 1 OFFSET ?").get(
      guildId,
      after,
      offset,
    ) as { user_id: bigint } | undefined
  )?.user_id;
}
