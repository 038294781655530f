// GUILD_CREATE as Discord sends it after READY (or on joining a guild): the guild object with joined_at, large,
// member_count, channels and threads the user can see, voice states, and members as Discord lists them: the user
// and everyone in voice; with GUILD_PRESENCES, all members of a guild below large_threshold, with their presences.
import { PermissionFlagsBits } from "discord-api-types/v10";
import { computeChannelPermissions, hasPermission } from "@/lib/discord/permissions";
import { parseOverwrites, permissionContextOf, toPermissionMember } from "../guards";
import { serializeGuild } from "../serializers/guilds";
import { serializeChannel, serializeThread, THREAD_TYPES } from "../serializers/channels";
import type { ChannelRow } from "../store/channels";
import { listGuildExpressions } from "../store/expressions";
import { findGuild } from "../store/guilds";
import { memberRoleIds } from "../store/member-roles";
import { listGuildRoles } from "../store/roles";
import { findMember, findMemberWithUser, listMembersPageJson } from "../store/members";
import { guildChannelsForCreate, memberCountOf, presencesOf } from "../store/gateway-outbox";
import { voiceStatesOf } from "../store/voice-states";
import { serializeMemberRow } from "../services/members";
import { Intent } from "./protocol";
import type { GatewaySession } from "./session";

const iso = (ms: bigint) => new Date(Number(ms)).toISOString();

/** The data of GUILD_CREATE for this session, as JSON text; null when the user is no longer in the guild. */
export async function guildCreateJson(session: GatewaySession, guildId: bigint): Promise<string | null> {
  const guild = await findGuild(guildId);
  const self = await findMember(guildId, session.userId);
  if (!guild || !self) return null;
  const roles = await listGuildRoles(guildId);
  const { emojis, stickers } = await listGuildExpressions(guildId);
  const context = permissionContextOf(guild, roles);
  const subject = toPermissionMember(self, await memberRoleIds(guildId, session.userId));

  const rows = await guildChannelsForCreate(guildId);
  const overwritesById = new Map(rows.map((row) => [row.id, row.permission_overwrites]));
  const sees = (row: ChannelRow) => {
    const judgedBy = THREAD_TYPES.includes(Number(row.type)) && row.parent_id !== null ? row.parent_id : row.id;
    const overwrites = overwritesById.get(judgedBy) ?? row.permission_overwrites;
    const permissions = computeChannelPermissions(context, subject, parseOverwrites(overwrites));
    return hasPermission(permissions, PermissionFlagsBits.ViewChannel);
  };
  const visible = rows.filter(sees);
  const channels = visible.filter((row) => !THREAD_TYPES.includes(Number(row.type))).map(serializeChannel);
  const threads = visible.filter((row) => THREAD_TYPES.includes(Number(row.type))).map(serializeThread);

  const memberCount = await memberCountOf(guildId);
  const large = memberCount > session.largeThreshold;
  const voiceStates = await voiceStatesOf(guildId);
  const listed = new Set<bigint>([session.userId, ...voiceStates.map((v) => v.user_id)]);
  const memberJson: string[] = [];
  const withPresences = session.has(Intent.GuildPresences);
  if (withPresences && !large) {
    // Below large_threshold the whole list fits in one page (at most 250).
    const all = (await listMembersPageJson(guildId, 0n, session.largeThreshold)).toString();
    if (all.length > 2) memberJson.push(all.slice(1, -1));
  } else {
    for (const userId of listed) {
      const row = await findMemberWithUser(guildId, userId);
      if (row) memberJson.push(JSON.stringify(serializeMemberRow(row)));
    }
  }
  const presences = withPresences
    ? (await presencesOf(guildId, large ? session.largeThreshold : memberCount)).map((p) => ({
        user: { id: String(p.user_id) },
        status: p.status,
        activities: [],
        client_status: { desktop: p.status },
      }))
    : [];

  const body = {
    ...serializeGuild(guild, roles, emojis, stickers),
    joined_at: iso(self.joined_at),
    large,
    unavailable: false,
    member_count: memberCount,
    voice_states: voiceStates.map((v) => ({
      user_id: String(v.user_id),
      channel_id: String(v.channel_id),
      session_id: v.session_id,
      deaf: Boolean(v.deaf),
      mute: Boolean(v.mute),
      self_deaf: Boolean(v.self_deaf),
      self_mute: Boolean(v.self_mute),
      self_video: Boolean(v.self_video),
      self_stream: Boolean(v.self_stream),
      suppress: Boolean(v.suppress),
      request_to_speak_timestamp: null,
    })),
    channels,
    threads,
    presences,
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
  // The members list is spliced in as JSON text: with presences it comes straight from members.wire_json.
  const json = JSON.stringify(body);
  return `${json.slice(0, -1)},"members":[${memberJson.join(",")}]}`;
}
