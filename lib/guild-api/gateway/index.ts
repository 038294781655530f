// The gateway's public face inside the process: what GET /gateway and GET /gateway/bot report, and the in-process
// subscription the dashboard's live updates can use instead of a WebSocket of their own.
import { guildCountOfMember } from "../store/gateway-outbox";
import { IdentifyLimits, limitKey, type SessionStartLimit } from "./limits";
import { gatewayOptions } from "./options";
import { MAX_GUILDS_PER_SHARD } from "./protocol";
import { activeHub } from "./registry";
import type { GuildEvent, GuildEventListener } from "./hub";

export { createGatewayServer, gatewayUrlOf, GATEWAY_PATH, type GatewayServer } from "./server";
export type { GatewayOptions } from "./options";
export type { GuildEvent, GuildEventListener };

/** Discord recommends a shard per 1,000 guilds. */
const GUILDS_PER_RECOMMENDED_SHARD = 1000;

let idleLimits: IdentifyLimits | null = null;

/** GET /gateway/bot's shard recommendation and session start limit for a caller. */
export async function botGatewayInfo(identity: {
  kind: "bot" | "bearer";
  applicationId: bigint;
  userId: bigint;
}): Promise<{
  shards: number;
  session_start_limit: SessionStartLimit;
}> {
  const limits = activeHub()?.limits ?? (idleLimits ??= new IdentifyLimits(gatewayOptions()));
  const guilds = await guildCountOfMember(identity.userId);
  const perShard = Math.min(GUILDS_PER_RECOMMENDED_SHARD, MAX_GUILDS_PER_SHARD);
  return {
    shards: Math.max(1, Math.ceil(guilds / perShard)),
    session_start_limit: limits.sessionStartLimit(limitKey(identity)),
  };
}

/**
 * Calls `listener` with every event of the guild committed from now on, in commit order, as the gateway delivers
 * it (the payload is Discord's `d`; no intent or permission filter: the caller decides what its viewer may see).
 * Returns the unsubscribe function. Throws when no gateway runs in this process.
 */
export function subscribeToGuildEvents(guildId: string, listener: GuildEventListener): () => void {
  const hub = activeHub();
  if (!hub) throw new Error("No gateway is running in this process.");
  return hub.subscribe(guildId, listener);
}
