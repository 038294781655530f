// A scheduled event row as Discord's wire object (APIGuildScheduledEvent): ids as strings, times as ISO 8601, the JSON
// columns parsed; user_count only when asked for (with_user_count), the creator's user object when it is known.
import type { APIGuildScheduledEvent, APIGuildScheduledEventUser } from "discord-api-types/v10";
import type { ScheduledEventRow } from "../store/scheduled-events";
import type { UserRow } from "../store/users";
import { iso } from "./members";
import { serializeUser } from "./users";

export interface ScheduledEventViewOptions {
  withUserCount?: boolean;
  creator?: UserRow | null;
}

export function serializeScheduledEvent(
  row: ScheduledEventRow,
  options: ScheduledEventViewOptions = {},
): APIGuildScheduledEvent {
  return {
    id: String(row.id),
    guild_id: String(row.guild_id),
    channel_id: row.channel_id === null ? null : String(row.channel_id),
    creator_id: row.creator_id === null ? null : String(row.creator_id),
    ...(options.creator ? { creator: serializeUser(options.creator) } : {}),
    name: row.name,
    description: row.description,
    image: row.image,
    scheduled_start_time: iso(row.scheduled_start_time) as string,
    scheduled_end_time: iso(row.scheduled_end_time),
    privacy_level: Number(row.privacy_level),
    status: Number(row.status),
    entity_type: Number(row.entity_type),
    // Guildhall keeps no stage instances: a stage event names none.
    entity_id: null,
    entity_metadata: row.entity_metadata ? (JSON.parse(row.entity_metadata) as { location: string }) : null,
    recurrence_rule: row.recurrence_rule
      ? (JSON.parse(row.recurrence_rule) as APIGuildScheduledEvent["recurrence_rule"])
      : null,
    ...(options.withUserCount ? { user_count: Number(row.user_count) } : {}),
    guild_scheduled_event_exceptions: [],
  } as APIGuildScheduledEvent;
}

/** One entry of Get Guild Scheduled Event Users; `member` when asked for (with_member) and the user is one. */
export function serializeScheduledEventUser(
  eventId: bigint,
  user: UserRow,
  member?: unknown,
): APIGuildScheduledEventUser & { user_id: string; response: number } {
  return {
    guild_scheduled_event_id: String(eventId),
    user_id: String(user.id),
    user: serializeUser(user),
    ...(member ? { member: member as APIGuildScheduledEventUser["member"] } : {}),
    response: 1,
  };
}
