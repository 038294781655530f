// The guild_scheduled_events table (a guild's scheduled events; invites may name one) and
// guild_scheduled_event_users (who is interested in each, paged by user id). user_count is kept with the users' rows
// in the same transaction, so lists read it without counting.
import { sql } from "./db";
import type { UserRow } from "./users";
import { USER_COLUMNS_OF_U } from "./users";

export interface ScheduledEventRow {
  id: bigint;
  guild_id: bigint;
  channel_id: bigint | null;
  creator_id: bigint | null;
  name: string;
  description: string | null;
  scheduled_start_time: bigint;
  scheduled_end_time: bigint | null;
  privacy_level: bigint;
  status: bigint;
  entity_type: bigint;
  entity_metadata: string | null;
  user_count: bigint;
  image: string | null;
  recurrence_rule: string | null;
}

export async function findScheduledEvent(guildId: bigint, eventId: bigint): Promise<ScheduledEventRow | undefined> {
  return (await sql.get("SELECT * FROM guild_scheduled_events WHERE id = ? AND guild_id = ?", eventId, guildId)) as
    ScheduledEventRow | undefined;
}

/** The guild's events by start time (Discord lists them so), ties by id. */
export async function listGuildScheduledEvents(guildId: bigint): Promise<ScheduledEventRow[]> {
  return (await sql.all(
    "SELECT * FROM guild_scheduled_events WHERE guild_id = ? ORDER BY scheduled_start_time, id",
    guildId,
  )) as ScheduledEventRow[];
}

/** Events neither completed nor canceled (Discord caps them at 100 per guild). */
export async function countUncompletedScheduledEvents(guildId: bigint): Promise<number> {
  return Number(
    (await sql.value(
      "SELECT COUNT(*) FROM guild_scheduled_events WHERE guild_id = ? AND status IN (1, 2)",
      guildId,
    )) as bigint,
  );
}

const COLUMNS =
  "id, guild_id, channel_id, creator_id, name, description, scheduled_start_time, scheduled_end_time, privacy_level, status, entity_type, entity_metadata, user_count, image, recurrence_rule";

export async function insertScheduledEvent(row: ScheduledEventRow): Promise<void> {
  await sql.run(
    `INSERT INTO guild_scheduled_events (${COLUMNS}) VALUES (${COLUMNS.split(", ")
      .map((column) => `@${column}`)
      .join(", ")})`,
    { ...row },
  );
}

/** Every field a Modify Guild Scheduled Event may change (user_count is the users' rows', not the request's). */
export async function updateScheduledEvent(row: ScheduledEventRow): Promise<void> {
  await sql.run(
    `UPDATE guild_scheduled_events SET channel_id = @channel_id, name = @name, description = @description,
     scheduled_start_time = @scheduled_start_time, scheduled_end_time = @scheduled_end_time,
     privacy_level = @privacy_level, status = @status, entity_type = @entity_type, entity_metadata = @entity_metadata,
     image = @image, recurrence_rule = @recurrence_rule
     WHERE guild_id = @guild_id AND id = @id`,
    {
      id: row.id,
      guild_id: row.guild_id,
      channel_id: row.channel_id,
      name: row.name,
      description: row.description,
      scheduled_start_time: row.scheduled_start_time,
      scheduled_end_time: row.scheduled_end_time,
      privacy_level: row.privacy_level,
      status: row.status,
      entity_type: row.entity_type,
      entity_metadata: row.entity_metadata,
      image: row.image,
      recurrence_rule: row.recurrence_rule,
    },
  );
}

/** Deletes the event and its interested users; false when there was no such event. */
export async function deleteScheduledEvent(guildId: bigint, eventId: bigint): Promise<boolean> {
  const deleted = await sql.run("DELETE FROM guild_scheduled_events WHERE guild_id = ? AND id = ?", guildId, eventId);
  if (deleted.changes === 0) return false;
  await sql.run("DELETE FROM guild_scheduled_event_users WHERE event_id = ?", eventId);
  return true;
}

/** Active events whose end time has passed, oldest end first (the sweep's batch). */
export async function listEndedActiveScheduledEvents(now: number, limit: number): Promise<ScheduledEventRow[]> {
  return (await sql.all(
    "SELECT * FROM guild_scheduled_events WHERE status = 2 AND scheduled_end_time <= ? ORDER BY scheduled_end_time LIMIT ?",
    now,
    limit,
  )) as ScheduledEventRow[];
}

/** Sets the status only if it is still `from` (another instance may have moved it): true when it did. */
export async function changeScheduledEventStatus(eventId: bigint, from: number, to: number): Promise<boolean> {
  return (
    (await sql.run("UPDATE guild_scheduled_events SET status = ? WHERE id = ? AND status = ?", to, eventId, from))
      .changes > 0
  );
}

// ── Interested users ───────────────────────────────────────────────────────────────────────────────────────────

/** Adds the user's interest; false when it was already there. Keeps user_count. */
export async function insertScheduledEventUser(guildId: bigint, eventId: bigint, userId: bigint): Promise<boolean> {
  const exists = await sql.value(
    "SELECT 1 FROM guild_scheduled_event_users WHERE event_id = ? AND user_id = ?",
    eventId,
    userId,
  );
  if (exists !== undefined) return false;
  await sql.run(
    "INSERT INTO guild_scheduled_event_users (event_id, user_id, guild_id) VALUES (?, ?, ?)",
    eventId,
    userId,
    guildId,
  );
  await sql.run("UPDATE guild_scheduled_events SET user_count = user_count + 1 WHERE id = ?", eventId);
  return true;
}

/** Removes the user's interest; false when there was none. Keeps user_count. */
export async function deleteScheduledEventUser(eventId: bigint, userId: bigint): Promise<boolean> {
  const deleted = await sql.run(
    "DELETE FROM guild_scheduled_event_users WHERE event_id = ? AND user_id = ?",
    eventId,
    userId,
  );
  if (deleted.changes === 0) return false;
  await sql.run("UPDATE guild_scheduled_events SET user_count = user_count - 1 WHERE id = ?", eventId);
  return true;
}

export type ScheduledEventUserCursor = { after: bigint } | { before: bigint };

/**
 * A page of interested users with their user rows, ascending by user id: after `after`, or the last `limit` before
 * `before` (still answered ascending, as Discord does).
 */
export async function listScheduledEventUsers(
  eventId: bigint,
  cursor: ScheduledEventUserCursor,
  limit: number,
): Promise<UserRow[]> {
  const select = `SELECT ${USER_COLUMNS_OF_U} FROM guild_scheduled_event_users s JOIN users u ON u.id = s.user_id WHERE s.event_id = ?`;
  if ("before" in cursor) {
    const rows = (await sql.all(
      `${select} AND s.user_id < ? ORDER BY s.user_id DESC LIMIT ?`,
      eventId,
      cursor.before,
      limit,
    )) as UserRow[];
    return rows.reverse();
  }
  return (await sql.all(
    `${select} AND s.user_id > ? ORDER BY s.user_id LIMIT ?`,
    eventId,
    cursor.after,
    limit,
  )) as UserRow[];
}
