// The members a bulk action is prepared for, read through the API client (Search Guild Members v2): those picked on
// the page by id, or every member matching the table's filter. No session here: the caller hands in its client.
import type { APIGuildMember } from "discord-api-types/v10";
import type { GuildApiClient } from "@/lib/api-client";
import {
  MEMBER_SEARCH_V2_LIMIT,
  MEMBER_SEARCH_V2_LIST_MAX,
  MemberSearchSort,
  type MemberSearchCursor,
} from "@/lib/discord/member-search";
import type { PermissionMember } from "@/lib/discord/permissions";
import { searchQueries, type MemberListFilters } from "@/lib/dashboard/data/member-filters";

/** The members with these ids (pages of 100 ids, the search's list limit); ids that are not members are absent. */
export async function membersByIds(api: GuildApiClient, guildId: string, userIds: readonly string[]) {
  const found: APIGuildMember[] = [];
  for (let i = 0; i < userIds.length; i += MEMBER_SEARCH_V2_LIST_MAX) {
    const answer = await api.members.searchV2(guildId, {
      and_query: { user_id: { or_query: userIds.slice(i, i + MEMBER_SEARCH_V2_LIST_MAX) } },
      sort: MemberSearchSort.JoinedDiscordOldest,
      limit: MEMBER_SEARCH_V2_LIST_MAX,
    });
    found.push(...answer.members.map((m) => m.member));
  }
  return found;
}

/**
 * Every member matching the filter, up to `max`: pages of 1000, each after the last member read. A filter on join
 * time is read in join order (its index walks just the range); any other in account order.
 */
export async function listMatchingMembers(
  api: GuildApiClient,
  guildId: string,
  filters: MemberListFilters,
  now: number,
  max: number,
): Promise<{ members: APIGuildMember[]; total: number }> {
  const queries = searchQueries(filters, now);
  const members: APIGuildMember[] = [];
  let after: MemberSearchCursor | undefined;
  let total = 0;
  const sort = filters.joined ? MemberSearchSort.MemberSinceOldest : MemberSearchSort.JoinedDiscordOldest;
  while (members.length < max) {
    const answer = await api.members.searchV2(guildId, {
      ...queries,
      sort,
      limit: Math.min(MEMBER_SEARCH_V2_LIMIT.max, max - members.length),
      ...(after ? { after } : {}),
    });
    total = answer.total_result_count;
    members.push(...answer.members.map((m) => m.member));
    const last = members.at(-1);
    if (answer.members.length === 0 || !last || members.length >= total) break;
    after = { user_id: last.user.id, guild_joined_at: last.joined_at ? Date.parse(last.joined_at) : 0 };
  }
  return { members, total };
}

/** A member as the permission engine sees them. */
export const permissionMemberOf = (member: APIGuildMember): PermissionMember => ({
  userId: member.user.id,
  roleIds: member.roles,
  communicationDisabledUntil: member.communication_disabled_until ?? null,
});

export const displayNameOf = (m: APIGuildMember) => m.nick ?? m.user.global_name ?? m.user.username;
