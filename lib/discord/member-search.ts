// Search Guild Members v2 (`POST /guilds/{guild.id}/members-search`), the endpoint Discord's own client uses for its
// members table: the wire shape as the community documents it (Discord.Net's MemberSearchPropertiesV2,
// MemberSearchV2QueryParams and MemberSearchV2SortType; userdoccers), and Guildhall's documented extensions (marked
// below; docs/api-and-compatibility.md). Pure: the built-in API validates with zod against these names, the
// dashboard's client sends them, both to the built-in API and to Discord's.
import type { APIGuildMember } from "discord-api-types/v10";

export const MEMBER_SEARCH_V2_LIMIT = { min: 1, max: 1000, default: 25 } as const;
/** Guildhall's `query` extension: at most this many characters (as Search Guild Members' `query`). */
export const MEMBER_SEARCH_V2_QUERY_MAX = 100;
/** A name substring shorter than this matches the start of a name only (a trigram index serves longer ones). */
export const MEMBER_SEARCH_V2_SUBSTRING_MIN = 3;
/** Most values in one `or_query` / `and_query` list. */
export const MEMBER_SEARCH_V2_LIST_MAX = 100;

export const MemberSearchSort = {
  /** Member since, newest first (Discord's default). */
  MemberSinceNewest: 1,
  MemberSinceOldest: 2,
  /** Joined Discord (account age, from the user id), newest first. */
  JoinedDiscordNewest: 3,
  JoinedDiscordOldest: 4,
  /** Guildhall extension: username A→Z. */
  UsernameAsc: 5,
  /** Guildhall extension: username Z→A. */
  UsernameDesc: 6,
} as const;
export type MemberSearchSort = (typeof MemberSearchSort)[keyof typeof MemberSearchSort];

/** Discord's join source types (only UNSPECIFIED is known to Guildhall, which does not record how members joined). */
export const JoinSourceType = {
  Unspecified: 0,
  Bot: 1,
  Integration: 2,
  Discovery: 3,
  Hub: 4,
  Invite: 5,
  VanityUrl: 6,
  ManualMemberVerification: 7,
} as const;

export interface MemberSearchRange<T> {
  gte?: T;
  lte?: T;
}

export interface MemberSearchFilter {
  /** One of the two: a list of ids or a range (the API's schema rejects a filter with both). */
  user_id?: { or_query?: string[]; range?: MemberSearchRange<string> };
  /** Discord matches the start of the username, global name or nickname. */
  usernames?: { or_query: string[] };
  /** One of the two: members holding every role, or any of them. */
  role_ids?: { and_query?: string[]; or_query?: string[] };
  /** ms timestamps */
  guild_joined_at?: { range: MemberSearchRange<number> };
  safety_signals?: {
    /** ms timestamps: members timed out until a time in this range. */
    communication_disabled_until?: { range: MemberSearchRange<number> };
    unusual_dm_activity_until?: { range: MemberSearchRange<number> };
    unusual_account_activity?: boolean;
    automod_quarantined_username?: boolean;
  };
  is_pending?: boolean;
  join_source_type?: { or_query: number[] };
  source_invite_code?: { or_query: string[] };
  /** Guildhall extension: a substring of the username, global name or nickname (case-insensitive). */
  query?: string;
  /** Guildhall extension: bots (true) or people (false). */
  is_bot?: boolean;
  /** Guildhall extension: members holding no role (also `role_ids: { or_query: [] }`). */
  has_no_roles?: boolean;
  /** Guildhall extension: account created (the user id's time) within this range, ms timestamps. */
  user_created_at?: { range: MemberSearchRange<number> };
}

/** Where a page starts: after or before this member in the sort order. */
export interface MemberSearchCursor {
  guild_joined_at?: number;
  user_id: string;
  /** Guildhall extension, needed by the username sorts: the member's username. */
  username?: string;
}

export interface RESTPostAPIGuildMembersSearchJSONBody {
  limit?: number;
  and_query?: MemberSearchFilter;
  or_query?: MemberSearchFilter;
  before?: MemberSearchCursor;
  after?: MemberSearchCursor;
  sort?: MemberSearchSort;
}

export interface APISupplementalGuildMember {
  member: APIGuildMember;
  source_invite_code: string | null;
  join_source_type: number | null;
  inviter_id: string | null;
}

export interface RESTPostAPIGuildMembersSearchResult {
  guild_id: string;
  members: APISupplementalGuildMember[];
  page_result_count: number;
  total_result_count: number;
}

/** The cursor that continues after (or before) `member` in `sort`'s order. */
export function memberSearchCursor(member: APIGuildMember): MemberSearchCursor {
  return {
    guild_joined_at: member.joined_at ? Date.parse(member.joined_at) : 0,
    user_id: member.user.id,
    username: member.user.username,
  };
}
