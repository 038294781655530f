// The gateway_events table: the outbox of dispatches, written in the transaction of the change each describes.
import { sql } from "./db";

export interface GatewayEventRow {
  id: bigint;
  type: string;
  payload: string;
  created_at: bigint;
}

export async function insertGatewayEvent(event: {
  id: bigint;
  guildId: bigint | null;
  type: string;
  payload: string;
  createdAt: bigint;
  requestId: string | null;
}): Promise<void> {
  // Appended: the events of a bulk action go as a few multi-row INSERTs on PostgreSQL, in the order emitted.
  await sql.append(
    "INSERT INTO gateway_events (id, guild_id, type, payload, created_at, request_id) VALUES (?, ?, ?, ?, ?, ?)",
    event.id,
    event.guildId,
    event.type,
    event.payload,
    event.createdAt,
    event.requestId,
  );
}

/** A guild's events after `after` (exclusive), oldest first. */
export async function listGatewayEvents(guildId: bigint, after: bigint, limit: number): Promise<GatewayEventRow[]> {
  return (await sql.all(
    "SELECT id, type, payload, created_at FROM gateway_events WHERE guild_id = ? AND id > ? ORDER BY id LIMIT ?",
    guildId,
    after,
    limit,
  )) as GatewayEventRow[];
}
