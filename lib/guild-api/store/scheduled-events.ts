// The guild_scheduled_events table (read only: invites may name an event).
import { sql } from "./db";

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
}

export async function findScheduledEvent(guildId: bigint, eventId: bigint): Promise<ScheduledEventRow | undefined> {
  return (await sql.get("SELECT * FROM guild_scheduled_events WHERE id = ? AND guild_id = ?", eventId, guildId)) as
    ScheduledEventRow | undefined;
}
