// The outbox: every dispatch an operation fires is written to gateway_events inside the same
// transaction as the change it describes, with the payload Discord would send as the event's `d`.
import { newSnowflake } from "@/lib/discord/snowflake";
import { sql } from "./store/db";
import { outboxWritten } from "./gateway/outbox-signal";

export type GatewayDispatch =
  | "GUILD_UPDATE"
  | "GUILD_DELETE"
  | "CHANNEL_CREATE"
  | "CHANNEL_UPDATE"
  | "CHANNEL_DELETE"
  | "THREAD_UPDATE"
  | "THREAD_DELETE"
  | "GUILD_ROLE_CREATE"
  | "GUILD_ROLE_UPDATE"
  | "GUILD_ROLE_DELETE"
  | "GUILD_MEMBER_ADD"
  | "GUILD_MEMBER_UPDATE"
  | "GUILD_MEMBER_REMOVE"
  | "GUILD_BAN_ADD"
  | "GUILD_BAN_REMOVE"
  | "GUILD_INTEGRATIONS_UPDATE"
  | "INTEGRATION_DELETE"
  | "INVITE_CREATE"
  | "INVITE_DELETE"
  | "VOICE_STATE_UPDATE"
  | "GUILD_AUDIT_LOG_ENTRY_CREATE";

export function emitEvent(guildId: bigint | null, type: GatewayDispatch, payload: unknown, now = Date.now()): bigint {
  const id = newSnowflake();
  sql("INSERT INTO gateway_events (id, guild_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)").run(
    id,
    guildId,
    type,
    JSON.stringify(payload),
    BigInt(now),
  );
  outboxWritten();
  return id;
}

export interface StoredEvent {
  id: string;
  type: GatewayDispatch;
  d: unknown;
  created_at: string;
}

/** Events of a guild after `after` (exclusive), oldest first. */
export function listEvents(guildId: bigint, after: bigint, limit: number): StoredEvent[] {
  const rows = sql(
    "SELECT id, type, payload, created_at FROM gateway_events WHERE guild_id = ? AND id > ? ORDER BY id LIMIT ?",
  ).all(guildId, after, limit) as Array<{
    id: bigint;
    type: GatewayDispatch;
    payload: string;
    created_at: bigint;
  }>;
  return rows.map((row) => ({
    id: String(row.id),
    type: row.type,
    d: JSON.parse(row.payload),
    created_at: new Date(Number(row.created_at)).toISOString(),
  }));
}
