// Members: Get Guild Member, List Guild Members, Search Guild Members.
import { z } from "zod";
import { MEMBER_LIST_LIMIT, MEMBER_SEARCH_LIMIT } from "@/lib/discord/limits";
import { Errors } from "../errors";
import { ok, route, type RouteDefinition } from "../http";
import { guildAccess, snowflakeParam } from "../guards";
import { sql } from "../store/db";
import { findMemberWithUser, listMembersAfter, searchMembers, splitRoleIds, type MemberWithUser } from "../store/members";
import { serializeMember } from "../serializers/member";

const GATEWAY_GUILD_MEMBERS = 1n << 14n;
const GATEWAY_GUILD_MEMBERS_LIMITED = 1n << 15n;

export const ListGuildMembersQuerySchema = z.object({
  limit: z.coerce.number().int().min(MEMBER_LIST_LIMIT.min).max(MEMBER_LIST_LIMIT.max).default(MEMBER_LIST_LIMIT.default),
  after: z.string().regex(/^\d{1,20}$/, { message: "Value is not snowflake." }).default("0"),
});

export const SearchGuildMembersQuerySchema = z.object({
  query: z.string().min(1).max(100),
  limit: z.coerce.number().int().min(MEMBER_SEARCH_LIMIT.min).max(MEMBER_SEARCH_LIMIT.max).default(MEMBER_SEARCH_LIMIT.default),
});

function toWire(row: MemberWithUser) {
  return serializeMember(
    row,
    { id: row.user_id, username: row.username, global_name: row.global_name, discriminator: row.discriminator, avatar: row.avatar, banner: row.user_banner, bot: row.bot, system: row.system, flags: row.user_flags, public_flags: row.public_flags },
    splitRoleIds(row.role_ids),
  );
}

export const memberRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/members: List Guild Members (bots need the GUILD_MEMBERS intent flag)
  route("GET", "/guilds/:guildId/members", "required", (ctx) => {
    const access = guildAccess(ctx);
    const query = ctx.queryAs(ListGuildMembersQuerySchema);
    if (access.caller.kind === "bot") {
      const flags = (sql("SELECT flags FROM applications WHERE id = ?").get(access.caller.applicationId) as { flags: bigint }).flags;
      if ((flags & (GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED)) === 0n) throw Errors.missingAccess();
    }
    return ok(listMembersAfter(access.guildId, BigInt(query.after), query.limit).map(toWire));
  }),

  // GET /guilds/{guild.id}/members/search: Search Guild Members
  route("GET", "/guilds/:guildId/members/search", "required", (ctx) => {
    const access = guildAccess(ctx);
    const query = ctx.queryAs(SearchGuildMembersQuerySchema);
    return ok(searchMembers(access.guildId, query.query, query.limit).map(toWire));
  }),

  // GET /guilds/{guild.id}/members/{user.id}: Get Guild Member
  route("GET", "/guilds/:guildId/members/:userId", "required", (ctx) => {
    const access = guildAccess(ctx);
    const userId = snowflakeParam(ctx, "userId");
    const row = findMemberWithUser(access.guildId, userId);
    if (!row) {
      if (!sql("SELECT 1 FROM users WHERE id = ?").get(userId)) throw Errors.unknownUser();
      throw Errors.unknownMember();
    }
    return ok(toWire(row));
  }),
];
