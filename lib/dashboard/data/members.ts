// Member reads for the members page: one page of Search Guild Members v2 (the table's filters, sort and keyset cursor
// in one request, against the built-in API or Discord's), and one member in full for the side panel.
import type { APIGuildMember } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { snowflakeTimestamp } from "@/lib/discord/snowflake";
import { managementApi } from "./api";
import { userAvatarUrl } from "./cdn";
import { encodeCursor, searchBody, type MemberListState } from "./member-filters";
import { readOrThrow } from "./read";
import { memberVerdict, type GuildViewer } from "./viewer";

export interface MemberRow {
  id: string;
  username: string;
  displayName: string;
  nick: string | null;
  avatarUrl: string | null;
  bot: boolean;
  roles: string[];
  joinedAt: string | null;
  /** When the account was made (the user id's time), ISO. */
  createdAt: string;
  timeoutUntil: string | null;
  pending: boolean;
  flags: number;
  mute: boolean;
  deaf: boolean;
  /** Why the moderator cannot act on this member (hierarchy), or null. */
  blockedReason: string | null;
}

export interface MemberPage {
  rows: MemberRow[];
  /** How many members match the filter, on every page. */
  total: number;
  /** URL cursors of the neighbouring pages, or null at either end. */
  previousCursor: string | null;
  nextCursor: string | null;
}

export function toMemberRow(viewer: GuildViewer, member: APIGuildMember): MemberRow {
  const user = member.user;
  const verdict = memberVerdict(viewer, member);
  const until = member.communication_disabled_until ?? null;
  return {
    id: user.id,
    username: user.username,
    displayName: member.nick ?? user.global_name ?? user.username,
    nick: member.nick ?? null,
    avatarUrl: userAvatarUrl(user.id, member.avatar ?? user.avatar),
    bot: Boolean(user.bot),
    roles: member.roles,
    joinedAt: member.joined_at ?? null,
    createdAt: new Date(snowflakeTimestamp(user.id)).toISOString(),
    timeoutUntil: until && Date.parse(until) > viewer.readAt ? until : null,
    pending: Boolean(member.pending),
    flags: member.flags,
    mute: member.mute,
    deaf: member.deaf,
    blockedReason: verdict.ok ? null : verdict.reason,
  };
}

/**
 * One page of the table. One member more than a page is asked for, so the answer tells whether another page lies
 * beyond it in the direction read; the other direction is known from the cursor that led here.
 */
export async function getMemberPage(viewer: GuildViewer, state: MemberListState): Promise<MemberPage> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const answer = await api.members.searchV2(viewer.guild.id, searchBody(state, viewer.readAt, state.limit + 1));
    const found = answer.members.map((m) => m.member);
    const backwards = state.before !== undefined;
    const more = found.length > state.limit;
    // Reading backwards, the extra member is the first (furthest from the cursor).
    const members = more ? (backwards ? found.slice(1) : found.slice(0, state.limit)) : found;
    const first = members[0];
    const last = members.at(-1);
    return {
      rows: members.map((m) => toMemberRow(viewer, m)),
      total: answer.total_result_count,
      previousCursor: first && (backwards ? more : state.after !== undefined) ? encodeCursor(first) : null,
      nextCursor: last && (backwards || more) ? encodeCursor(last) : null,
    };
  });
}

export interface VoiceInfo {
  /** The member's voice channel, null when not connected, undefined when the API cannot tell. */
  channelId: string | null | undefined;
}

export interface MemberDetail {
  row: MemberRow;
  premiumSince: string | null;
  voice: VoiceInfo;
}

/** One member for the side panel, with their voice state when the API offers Get User Voice State. */
export async function getMemberDetail(viewer: GuildViewer, userId: string): Promise<MemberDetail | null> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    let member: APIGuildMember;
    try {
      member = await api.members.get(viewer.guild.id, userId);
    } catch (error) {
      if (error instanceof GuildApiError && error.status === 404) return null;
      throw error;
    }
    let channelId: string | null | undefined;
    try {
      const state = await api.voice.getUserVoiceState(viewer.guild.id, userId);
      channelId = state.channel_id;
    } catch (error) {
      // 10065 Unknown Voice State: not connected. A plain 404 (no such route) leaves it unknown.
      channelId = error instanceof GuildApiError && error.code === 10065 ? null : undefined;
    }
    return { row: toMemberRow(viewer, member), premiumSince: member.premium_since ?? null, voice: { channelId } };
  });
}
