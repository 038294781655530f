// Member reads for the members page: one page of List Guild Members after a cursor (or Search Guild Members by
// prefix), optionally narrowed to a role, and one member in full for the side panel.
import type { APIGuildMember } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { MEMBER_LIST_LIMIT, MEMBER_SEARCH_LIMIT } from "@/lib/discord/limits";
import { managementApi } from "./api";
import { userAvatarUrl } from "./cdn";
import { readOrThrow } from "./read";
import { memberVerdict, type GuildViewer } from "./viewer";

export const MEMBER_PAGE_SIZES = [25, 50, 100] as const;
/** With a role filter, members are read in pages of 1000 until a page fills, up to this many per request. */
const ROLE_SCAN_MAX = 5000;

export interface MemberPageQuery {
  q?: string;
  role?: string;
  after?: string;
  limit: number;
}

export interface MemberRow {
  id: string;
  username: string;
  displayName: string;
  nick: string | null;
  avatarUrl: string | null;
  bot: boolean;
  roles: string[];
  joinedAt: string | null;
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
  /** Cursor for the next page, or null at the end. */
  nextAfter: string | null;
  /** How many members were read to fill the page (role filter scans). */
  scanned: number;
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
    timeoutUntil: until && Date.parse(until) > Date.now() ? until : null,
    pending: Boolean(member.pending),
    flags: member.flags,
    mute: member.mute,
    deaf: member.deaf,
    blockedReason: verdict.ok ? null : verdict.reason,
  };
}

const byId = (a: APIGuildMember, b: APIGuildMember) =>
  BigInt(a.user.id) < BigInt(b.user.id) ? -1 : BigInt(a.user.id) > BigInt(b.user.id) ? 1 : 0;

export async function getMemberPage(viewer: GuildViewer, query: MemberPageQuery): Promise<MemberPage> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const guildId = viewer.guild.id;
    const after = query.after && /^\d+$/.test(query.after) ? query.after : "0";
    const matchesRole = (m: APIGuildMember) => !query.role || m.roles.includes(query.role);

    if (query.q) {
      // Search has no cursor: read the matches (at most 1000), order them by id, and page with the same cursor.
      const found = (await api.members.search(guildId, { query: query.q, limit: MEMBER_SEARCH_LIMIT.max })).sort(byId);
      const rest = found.filter((m) => BigInt(m.user.id) > BigInt(after) && matchesRole(m));
      const rows = rest.slice(0, query.limit);
      return {
        rows: rows.map((m) => toMemberRow(viewer, m)),
        nextAfter: rest.length > query.limit ? rows[rows.length - 1].user.id : null,
        scanned: found.length,
      };
    }

    if (!query.role) {
      // One more than a page tells whether there is a next page, in the same request.
      const page = await api.members.list(guildId, { limit: query.limit + 1, after });
      const rows = page.slice(0, query.limit);
      return {
        rows: rows.map((m) => toMemberRow(viewer, m)),
        nextAfter: page.length > query.limit ? rows[rows.length - 1].user.id : null,
        scanned: page.length,
      };
    }

    // List Guild Members cannot filter by role: read pages of 1000 and keep the role's members.
    const rows: APIGuildMember[] = [];
    let cursor = after;
    let scanned = 0;
    for (;;) {
      const page = await api.members.list(guildId, { limit: MEMBER_LIST_LIMIT.max, after: cursor });
      scanned += page.length;
      for (const member of page) {
        if (!matchesRole(member)) continue;
        if (rows.length === query.limit)
          return { rows: rows.map((m) => toMemberRow(viewer, m)), nextAfter: rows[rows.length - 1].user.id, scanned };
        rows.push(member);
      }
      if (page.length < MEMBER_LIST_LIMIT.max)
        return { rows: rows.map((m) => toMemberRow(viewer, m)), nextAfter: null, scanned };
      cursor = page[page.length - 1].user.id;
      if (scanned >= ROLE_SCAN_MAX) {
        // Stop here; the next page resumes the scan from the last member read.
        return { rows: rows.map((m) => toMemberRow(viewer, m)), nextAfter: cursor, scanned };
      }
    }
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
