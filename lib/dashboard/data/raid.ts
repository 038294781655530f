// Raid cleanup's search (issue #32): the members who joined within the window, read with Search Guild Members v2 (the
// join range, and account age as a user id range, both of which Discord's own search takes), oldest join first, then
// filtered here by what the search cannot ask (no avatar, a name pattern: lib/moderation/raid-filter.ts). At most
// RAID_SCAN_MAX members are read: a window holding more says so and asks for a narrower one.
import "server-only";
import type { APIGuildMember } from "discord-api-types/v10";
import { MEMBER_SEARCH_V2_LIMIT, MemberSearchSort, type MemberSearchCursor } from "@/lib/discord/member-search";
import { snowflakeAt, snowflakeTimestamp } from "@/lib/discord/snowflake";
import { oldestAccountAt, raidMatcher, type RaidFilter } from "@/lib/moderation/raid-filter";
import { managementApi } from "./api";
import { userAvatarUrl } from "./cdn";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

/** Members read per search at most: a bulk job's size (lib/dashboard/jobs/member-actions/types.ts). */
export const RAID_SCAN_MAX = 25_000;

export interface RaidMatch {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  joinedAt: string;
  createdAt: string;
  /** A bot: the job leaves it out (raid cleanup protects bots). */
  bot: boolean;
}

export interface RaidSearch {
  matches: RaidMatch[];
  /** Members who joined in the window (read before the name and avatar filters). */
  scanned: number;
  /** The window held more than RAID_SCAN_MAX members: only the first were read. */
  truncated: boolean;
}

const toMatch = (m: APIGuildMember): RaidMatch => ({
  id: m.user.id,
  username: m.user.username,
  displayName: m.nick ?? m.user.global_name ?? m.user.username,
  avatarUrl: userAvatarUrl(m.user.id, m.user.avatar),
  joinedAt: m.joined_at ?? new Date(0).toISOString(),
  createdAt: new Date(snowflakeTimestamp(m.user.id)).toISOString(),
  bot: m.user.bot === true,
});

export async function findRaidMembers(viewer: GuildViewer, filter: RaidFilter): Promise<RaidSearch> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const from = Date.parse(filter.joinedFrom);
    const to = Date.parse(filter.joinedTo) + 59_999;
    // Any member who matches joined at `from` or later, so their account is no older than this: the search's bound.
    const youngest = oldestAccountAt(filter, from);
    const matches = raidMatcher(filter);
    const found: RaidMatch[] = [];
    let scanned = 0;
    let after: MemberSearchCursor | undefined;
    for (;;) {
      const answer = await api.members.searchV2(viewer.guild.id, {
        and_query: {
          guild_joined_at: { range: { gte: from, lte: to } },
          ...(youngest === null ? {} : { user_id: { range: { gte: String(snowflakeAt(youngest)) } } }),
        },
        sort: MemberSearchSort.MemberSinceOldest,
        limit: Math.min(MEMBER_SEARCH_V2_LIMIT.max, RAID_SCAN_MAX - scanned),
        ...(after ? { after } : {}),
      });
      const page = answer.members.map((m) => m.member);
      scanned += page.length;
      for (const member of page) {
        const candidate = {
          id: member.user.id,
          username: member.user.username,
          globalName: member.user.global_name ?? null,
          nick: member.nick ?? null,
          avatar: member.user.avatar ?? null,
          joinedAt: member.joined_at ?? new Date(0).toISOString(),
        };
        if (matches(candidate)) found.push(toMatch(member));
      }
      const last = page.at(-1);
      if (!last || scanned >= answer.total_result_count) return { matches: found, scanned, truncated: false };
      if (scanned >= RAID_SCAN_MAX) return { matches: found, scanned, truncated: true };
      after = { user_id: last.user.id, guild_joined_at: last.joined_at ? Date.parse(last.joined_at) : 0 };
    }
  });
}
