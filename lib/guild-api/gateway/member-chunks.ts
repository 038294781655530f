// REQUEST_GUILD_MEMBERS → GUILD_MEMBERS_CHUNK: by user ids (with not_found), by username or nickname prefix (at most
// 100), or every member (query "" and limit 0, which needs the GUILD_MEMBERS intent), 1,000 members a chunk, each
// chunk carrying the request's nonce. Pages come from members.wire_json as List Guild Members reads it; the event
// loop is yielded between chunks, so a million-member request does not hold up heartbeats or other sessions. Chunks
// are dispatches like any other: a RESUME sends again those the client missed.
import { findMemberWithUser, listMembersPageJson, searchMembersJson } from "../store/members";
import { memberCountOf, memberIdAtOffset } from "../store/gateway-outbox";
import { serializeMemberRow } from "../services/members";
import { CloseCode, Intent, MEMBERS_PER_CHUNK } from "./protocol";
import type { RequestGuildMembersPayload } from "./schemas";
import type { GatewaySession } from "./session";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("gateway");

/** Discord ignores a nonce longer than 32 bytes. */
const NONCE_MAX_BYTES = 32;
/** Prefix queries answer at most this many members. */
const QUERY_LIMIT_MAX = 100;

interface ChunkExtras {
  notFound?: string[];
  nonce?: string;
}

function chunkJson(guildId: bigint, membersJson: string, index: number, count: number, extras: ChunkExtras): string {
  let json = `{"guild_id":"${guildId}","members":${membersJson},"chunk_index":${index},"chunk_count":${count}`;
  if (extras.notFound) json += `,"not_found":${JSON.stringify(extras.notFound)}`;
  if (extras.nonce !== undefined) json += `,"nonce":${JSON.stringify(extras.nonce)}`;
  return `${json}}`;
}

// Kept as sent: a RESUME replays the chunks the client missed, as Discord does.
const sendChunk = (session: GatewaySession, json: string) =>
  session.dispatch("GUILD_MEMBERS_CHUNK", json, { chunk: json });

export async function sendMemberChunks(session: GatewaySession, payload: RequestGuildMembersPayload): Promise<void> {
  const guildId = BigInt(payload.guild_id);
  // A guild the session does not follow (another shard's, or not the user's) gets no answer, as on Discord.
  if (!session.guildIds.has(guildId)) return;
  if (payload.presences && !session.has(Intent.GuildPresences))
    return session.connection?.close(CloseCode.InvalidIntents, "presences needs the GUILD_PRESENCES intent.");
  const nonce =
    payload.nonce !== undefined && Buffer.byteLength(payload.nonce) <= NONCE_MAX_BYTES ? payload.nonce : undefined;

  if (payload.user_ids) {
    const found: string[] = [];
    const notFound: string[] = [];
    for (const id of payload.user_ids) {
      const row = await findMemberWithUser(guildId, BigInt(id));
      if (row) found.push(JSON.stringify(serializeMemberRow(row)));
      else notFound.push(id);
    }
    return sendChunk(session, chunkJson(guildId, `[${found.join(",")}]`, 0, 1, { notFound, nonce }));
  }

  const query = payload.query ?? "";
  const limit = payload.limit ?? 0;
  if (query !== "") {
    const members = await searchMembersJson(guildId, query, Math.min(limit || QUERY_LIMIT_MAX, QUERY_LIMIT_MAX));
    return sendChunk(session, chunkJson(guildId, members, 0, 1, { nonce }));
  }
  if (!session.has(Intent.GuildMembers))
    return session.connection?.close(CloseCode.InvalidIntents, "Listing every member needs the GUILD_MEMBERS intent.");
  const total = limit === 0 ? await memberCountOf(guildId) : Math.min(limit, await memberCountOf(guildId));
  await sendAllMembers(session, guildId, total, nonce);
}

/** Every member (up to `total`) in ascending id order, one chunk per turn of the event loop. */
async function sendAllMembers(
  session: GatewaySession,
  guildId: bigint,
  total: number,
  nonce: string | undefined,
): Promise<void> {
  const count = Math.max(1, Math.ceil(total / MEMBERS_PER_CHUNK));
  let after: bigint | null = 0n;
  const next = async (index: number) => {
    // A dropped connection does not stop the answer: chunks made while the session is away are kept, and a RESUME
    // sends them. Only the end of the session does.
    if (session.ended) return;
    const size = Math.min(MEMBERS_PER_CHUNK, total - index * MEMBERS_PER_CHUNK);
    // Members who left meanwhile shorten the list: the remaining chunks still come (empty), so chunk_count holds.
    const members = size > 0 && after !== null ? (await listMembersPageJson(guildId, after, size)).toString() : "[]";
    sendChunk(session, chunkJson(guildId, members, index, count, { nonce }));
    if (index + 1 >= count) return;
    if (after !== null) after = (await memberIdAtOffset(guildId, after, size - 1)) ?? null;
    setImmediate(() => {
      next(index + 1).catch((error: unknown) => log.error({ err: error }, "sending member chunks failed"));
    });
  };
  await next(0);
}
