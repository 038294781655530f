// The outbox: every dispatch an operation fires is written to gateway_events inside the same
// transaction as the change it describes, with the payload Discord would send as the event's `d`.
import { newSnowflake } from "@/lib/discord/snowflake";
import { currentRequestId } from "@/lib/server/request-id";
import { outboxWritten } from "./gateway/outbox-signal";
import { insertGatewayEvent, listGatewayEvents } from "./store/gateway-events";

/** Every dispatch an operation can record; each has its recipients' rule in DISPATCH_POLICIES (lib/discord/policies.ts). */
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
  | "AUTO_MODERATION_RULE_CREATE"
  | "AUTO_MODERATION_RULE_UPDATE"
  | "AUTO_MODERATION_RULE_DELETE"
  | "AUTO_MODERATION_ACTION_EXECUTION"
  | "GUILD_EMOJIS_UPDATE"
  | "GUILD_STICKERS_UPDATE"
  | "GUILD_SOUNDBOARD_SOUND_CREATE"
  | "GUILD_SOUNDBOARD_SOUND_UPDATE"
  | "GUILD_SOUNDBOARD_SOUND_DELETE"
  | "GUILD_SCHEDULED_EVENT_CREATE"
  | "GUILD_SCHEDULED_EVENT_UPDATE"
  | "GUILD_SCHEDULED_EVENT_DELETE"
  | "GUILD_SCHEDULED_EVENT_USER_ADD"
  | "GUILD_SCHEDULED_EVENT_USER_REMOVE"
  | "GUILD_AUDIT_LOG_ENTRY_CREATE";

export async function emitEvent(
  guildId: bigint | null,
  type: GatewayDispatch,
  payload: unknown,
  now = Date.now(),
): Promise<bigint> {
  const id = newSnowflake();
  await insertGatewayEvent({
    id,
    guildId,
    type,
    payload: JSON.stringify(payload),
    createdAt: BigInt(now),
    requestId: currentRequestId() ?? null,
  });
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
export async function listEvents(guildId: bigint, after: bigint, limit: number): Promise<StoredEvent[]> {
  return (await listGatewayEvents(guildId, after, limit)).map((row) => ({
    id: String(row.id),
    type: row.type as GatewayDispatch,
    d: JSON.parse(row.payload),
    created_at: new Date(Number(row.created_at)).toISOString(),
  }));
}
