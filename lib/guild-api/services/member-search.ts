// Search Guild Members v2: the members table's one query (filters, sort, keyset pages, a total), answered as JSON
// text built from each member's stored wire JSON, as List Guild Members is.
import type { MemberSearchSort } from "@/lib/discord/member-search";
import type { GuildAccess } from "../guards";
import type { SearchGuildMembersV2Body } from "../schemas/member-search";
import { searchMembersPage } from "../store/member-search";

/**
 * Search Guild Members v2. Discord asks a bot for MANAGE_GUILD; Guildhall also lets the moderators who act on members
 * (KICK_MEMBERS, BAN_MEMBERS or MODERATE_MEMBERS) search (the policy table). Members are answered in the body's sort
 * order, `before` and `after` continuing from a member of an earlier page.
 */
export async function searchGuildMembersV2Json(
  access: GuildAccess,
  body: SearchGuildMembersV2Body,
  now = Date.now(),
): Promise<string> {
  access.authorize("Search Guild Members v2");
  const page = await searchMembersPage({
    guildId: access.guildId,
    and: body.and_query,
    or: body.or_query,
    sort: body.sort as MemberSearchSort,
    limit: body.limit,
    after: body.after,
    before: body.before,
    now,
  });
  // How a member joined is not recorded: every join source is UNSPECIFIED (0).
  const members = page.members
    .map((member) => `{"member":${member},"source_invite_code":null,"join_source_type":0,"inviter_id":null}`)
    .join(",");
  return `{"guild_id":"${access.guildId}","members":[${members}],"page_result_count":${page.members.length},"total_result_count":${page.total}}`;
}
