// One handler per opcode a client may send. Each receives the peer (its connection and, once identified, its
// session) and the payload's `d`, validated here with the opcode's schema; protocol errors close the connection
// with Discord's close code.
import type { z } from "zod";
import { MANAGE_SCOPE } from "@/lib/discord/policies";
import { authenticate, type Identity } from "../auth";
import { findGuild } from "../store/guilds";
import { guildIdsOfMember, readUser } from "../store/gateway-outbox";
import { findApplicationFlags } from "../store/applications";
import { serializeCurrentUser } from "../serializers/users";
import type { GatewayConnection } from "./connection";
import type { GatewayHub } from "./hub";
import { limitKey } from "./limits";
import { sendMemberChunks } from "./member-chunks";
import {
  CloseCode,
  disallowedIntents,
  KNOWN_INTENTS,
  LARGE_THRESHOLD,
  MAX_GUILDS_PER_SHARD,
  Op,
  shardOf,
} from "./protocol";
import {
  HeartbeatSchema,
  IdentifySchema,
  RequestGuildMembersSchema,
  ResumeSchema,
  type IdentifyPayload,
} from "./schemas";
import { GatewaySession, type SessionIdentity } from "./session";
import { discordStrict } from "../strict";

/** One WebSocket's side of the protocol: its connection and, after IDENTIFY or RESUME, its session. */
export interface Peer {
  connection: GatewayConnection;
  session: GatewaySession | null;
  /** The URL clients resume at (READY's resume_gateway_url). */
  gatewayUrl: string;
  /** Called once a session is set (IDENTIFY's READY, or RESUME): the socket no longer counts as unidentified. */
  sessionStarted?: () => void;
}

export type OpcodeHandler = (hub: GatewayHub, peer: Peer, d: unknown) => void | Promise<void>;

/** d validated with `schema`, or the connection closed with 4002 naming what was wrong. */
function parsed<S extends z.ZodType>(peer: Peer, schema: S, d: unknown): z.output<S> | null {
  const result = schema.safeParse(d);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  peer.connection.close(CloseCode.DecodeError, `${issue.path.join(".") || "d"}: ${issue.message}`);
  return null;
}

/** A token as IDENTIFY and RESUME carry it: bare (a bot's, then a user's access token) or with its scheme. */
async function identityOf(token: string): Promise<SessionIdentity | null> {
  const trimmed = token.trim();
  const identity: Identity | null = /^(bot|bearer) /i.test(trimmed)
    ? await authenticate(trimmed)
    : ((await authenticate(`Bot ${trimmed}`)) ?? (await authenticate(`Bearer ${trimmed}`)));
  if (!identity) return null;
  if (identity.kind === "bot") return { kind: "bot", userId: identity.userId, applicationId: identity.applicationId };
  // A user's token manages guilds (and so follows them live) only with Guildhall's management scope.
  // On Discord's terms (DISCORD_STRICT=1) no OAuth2 token opens a gateway session.
  if (!identity.scopes.has(MANAGE_SCOPE) || discordStrict()) return null;
  return { kind: "bearer", userId: identity.userId, applicationId: identity.applicationId };
}

const sameIdentity = (a: SessionIdentity, b: SessionIdentity) =>
  a.kind === b.kind && a.userId === b.userId && a.applicationId === b.applicationId;

// ── op 1 HEARTBEAT ─────────────────────────────────────────────────────────────────────────────────────────────────

export const heartbeat: OpcodeHandler = (_hub, peer, d) => {
  if (!HeartbeatSchema.safeParse(d).success)
    return peer.connection.close(CloseCode.DecodeError, "d: the last sequence number received, or null.");
  peer.connection.lastBeatAt = Date.now();
  peer.connection.sendJson({ op: Op.HeartbeatAck });
};

// ── op 2 IDENTIFY ──────────────────────────────────────────────────────────────────────────────────────────────────

export const identify: OpcodeHandler = async (hub, peer, d) => {
  if (peer.session) return peer.connection.close(CloseCode.AlreadyAuthenticated);
  const payload = parsed(peer, IdentifySchema, d);
  if (!payload) return;
  const identity = await identityOf(payload.token);
  if (!identity) return peer.connection.close(CloseCode.AuthenticationFailed);
  if ((payload.intents & ~KNOWN_INTENTS) !== 0)
    return peer.connection.close(CloseCode.InvalidIntents, `Unknown bits in ${payload.intents}.`);
  const disallowed = disallowedIntents(payload.intents, (await findApplicationFlags(identity.applicationId)) ?? 0n);
  if (disallowed.length > 0)
    return peer.connection.close(CloseCode.DisallowedIntents, `Enable ${disallowed.join(", ")} for the application.`);
  const [shardId, shardCount] = payload.shard ?? [0, 1];
  if (shardCount < 1 || shardId < 0 || shardId >= shardCount)
    return peer.connection.close(CloseCode.InvalidShard, `[${shardId}, ${shardCount}]`);
  const guildIds = (await guildIdsOfMember(identity.userId)).filter((id) => shardOf(id, shardCount) === shardId);
  if (guildIds.length > MAX_GUILDS_PER_SHARD)
    return peer.connection.close(CloseCode.ShardingRequired, `${guildIds.length} guilds in one shard.`);

  const verdict = hub.limits.admit(limitKey(identity), shardId);
  if (!verdict.ok && verdict.reason === "daily") {
    // Discord resets the token of a bot past its daily budget; Guildhall refuses the session instead.
    const hours = Math.ceil(verdict.resetAfterMs / 3_600_000);
    return peer.connection.close(CloseCode.AuthenticationFailed, `Session start limit reached; resets in ${hours} h.`);
  }
  // Past max_concurrency Discord answers INVALID_SESSION, and the client identifies again later.
  if (!verdict.ok) return peer.connection.sendJson({ op: Op.InvalidSession, d: false });

  await startSession(hub, peer, identity, payload, [shardId, shardCount], guildIds);
};

async function startSession(
  hub: GatewayHub,
  peer: Peer,
  identity: SessionIdentity,
  payload: IdentifyPayload,
  shard: [number, number],
  guildIds: bigint[],
): Promise<void> {
  const user = await readUser(identity.userId);
  if (!user) return peer.connection.close(CloseCode.AuthenticationFailed);
  const existing = new Set<bigint>();
  for (const id of guildIds) if (await findGuild(id)) existing.add(id);
  const applicationFlags = Number((await findApplicationFlags(identity.applicationId)) ?? 0n);
  // Events committed before the snapshot below are delivered first, so READY starts after them; no drain delivers
  // anything from then until the session's GUILD_CREATEs are out.
  await hub.serially(async () => {
    await hub.drainNow();
    const session = new GatewaySession(
      identity,
      payload.intents,
      shard,
      payload.large_threshold ?? LARGE_THRESHOLD.default,
      existing,
      hub.options.replayLimit,
    );
    session.connection = peer.connection;
    peer.session = session;
    peer.sessionStarted?.();
    hub.add(session);
    const ready = {
      v: peer.connection.params.version,
      user: serializeCurrentUser(user),
      guilds: [...session.guildIds].map((id) => ({ id: String(id), unavailable: true })),
      session_id: session.id,
      session_type: "normal",
      resume_gateway_url: peer.gatewayUrl,
      shard,
      application: { id: String(identity.applicationId), flags: applicationFlags },
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      user_settings: {},
      geo_ordered_rtc_regions: [],
      auth: {},
    };
    session.dispatch("READY", JSON.stringify(ready), null);
    for (const guildId of session.guildIds) await hub.sendGuildCreate(session, guildId);
  });
}

// ── op 6 RESUME ────────────────────────────────────────────────────────────────────────────────────────────────────

export const resume: OpcodeHandler = async (hub, peer, d) => {
  if (peer.session) return peer.connection.close(CloseCode.AlreadyAuthenticated);
  const payload = parsed(peer, ResumeSchema, d);
  if (!payload) return;
  const identity = await identityOf(payload.token);
  if (!identity) return peer.connection.close(CloseCode.AuthenticationFailed);
  const session = hub.sessions.get(payload.session_id);
  const seq = payload.seq ?? 0;
  // An unknown, expired or foreign session, or one whose missed dispatches are no longer kept: start a new one.
  if (!session || !sameIdentity(session.identity, identity) || !session.canReplayFrom(seq)) {
    if (session && sameIdentity(session.identity, identity) && seq > session.seq)
      return peer.connection.close(CloseCode.InvalidSeq, `${seq} was never sent.`);
    return peer.connection.sendJson({ op: Op.InvalidSession, d: false });
  }
  // The hub attaches the connection in its own turn (see GatewayHub.resume); a second RESUME on this socket meanwhile
  // is refused as AlreadyAuthenticated.
  peer.session = session;
  peer.sessionStarted?.();
  // Not resumed after all (what it missed is past the outbox's retention): the socket may IDENTIFY now.
  if (!(await hub.resume(session, seq, peer.connection))) peer.session = null;
};

// ── op 8 REQUEST_GUILD_MEMBERS ─────────────────────────────────────────────────────────────────────────────────────

export const requestGuildMembers: OpcodeHandler = async (_hub, peer, d) => {
  const session = peer.session!;
  const payload = parsed(peer, RequestGuildMembersSchema, d);
  if (!payload) return;
  await sendMemberChunks(session, payload);
};

// ── op 3 PRESENCE_UPDATE, op 4 VOICE_STATE_UPDATE ──────────────────────────────────────────────────────────────────

/** Accepted and not acted on: Guildhall keeps no live presence or voice connection for gateway clients. */
export const acknowledgeOnly: OpcodeHandler = () => {};

/** The opcodes a client may send, and whether each needs an identified session first. */
export const OPCODE_HANDLERS: ReadonlyMap<number, { handle: OpcodeHandler; needsSession: boolean }> = new Map([
  [Op.Heartbeat, { handle: heartbeat, needsSession: false }],
  [Op.Identify, { handle: identify, needsSession: false }],
  [Op.Resume, { handle: resume, needsSession: false }],
  [Op.RequestGuildMembers, { handle: requestGuildMembers, needsSession: true }],
  [Op.PresenceUpdate, { handle: acknowledgeOnly, needsSession: true }],
  [Op.VoiceStateUpdate, { handle: acknowledgeOnly, needsSession: true }],
]);
