// /users routes: any user by id, the caller's own user, its guilds, and its member object in one guild.
import { z } from "zod";
import { computeBasePermissions } from "@/lib/discord/permissions";
import { USER_GUILDS_LIMIT } from "@/lib/discord/limits";
import { Errors } from "../errors";
import { booleanQuery, snowflakeCursor } from "../schemas/common";
import { ok, route } from "../http";
import { permissionContextOf, snowflakeParam } from "../guards";
import { findGuild, listGuildsOfMemberPage, type GuildRow } from "../store/guilds";
import { memberRoleIds } from "../store/member-roles";
import { findMember } from "../store/members";
import { listGuildRoles } from "../store/roles";
import { findUser } from "../store/users";
import { serializeCurrentUser, serializeUser } from "../serializers/users";
import { serializeMember } from "../serializers/members";

export const CurrentUserGuildsQuerySchema = z.object({
  before: snowflakeCursor.optional(),
  after: snowflakeCursor.optional(),
  limit: z.coerce
    .number()
    .int()
    .min(USER_GUILDS_LIMIT.min)
    .max(USER_GUILDS_LIMIT.max)
    .default(USER_GUILDS_LIMIT.default),
  with_counts: booleanQuery,
});
type CurrentUserGuildsQuery = z.output<typeof CurrentUserGuildsQuerySchema>;

export const userRoutes = [
  // The scopes (identify, guilds, guilds.members.read) and "no bots" are judged by the pipeline from the policy table.

  // GET /users/@me: Get Current User (OAuth2 scope identify)
  route("GET", "/users/@me", "Get Current User", async (ctx) => {
    const row = await findUser(ctx.caller.userId);
    if (!row) throw Errors.unknownUser();
    return ok(serializeCurrentUser(row));
  }),

  // GET /users/{user.id}: Get User (any authenticated caller: bots and the dashboard need names for ids)
  route("GET", "/users/:userId", "Get User", async (ctx) => {
    const row = await findUser(snowflakeParam(ctx, "userId"));
    if (!row) throw Errors.unknownUser();
    return ok(serializeUser(row));
  }),

  // GET /users/@me/guilds: Get Current User Guilds (OAuth2 scope guilds)
  route("GET", "/users/@me/guilds", "Get Current User Guilds", async (ctx) =>
    ok(await getCurrentUserGuilds(ctx.caller.userId, ctx.queryAs(CurrentUserGuildsQuerySchema))),
  ),

  // GET /users/@me/guilds/{guild.id}/member: Get Current User Guild Member (OAuth2 scope guilds.members.read, no bots)
  route("GET", "/users/@me/guilds/:guildId/member", "Get Current User Guild Member", async (ctx) =>
    ok(await getCurrentUserGuildMember(ctx.caller.userId, snowflakeParam(ctx, "guildId", "guild_id"))),
  ),
];

// The two reads below would sit in services/users.ts; they are kept here until that file exists.

/** The user's guild-wide permissions as Discord reports them here: owner → all, no overwrites, no timeout's implicit loss. */
async function basePermissions(guild: GuildRow, userId: bigint, roleIds: readonly bigint[]): Promise<bigint> {
  return computeBasePermissions(permissionContextOf(guild, await listGuildRoles(guild.id)), {
    userId: String(userId),
    roleIds: roleIds.map(String),
  });
}

/** MyGuildResponse[]: the user's guilds ascending by id; `before` takes the guilds just below it, still answered ascending. */
export async function getCurrentUserGuilds(userId: bigint, query: CurrentUserGuildsQuery) {
  const rows = await listGuildsOfMemberPage(userId, {
    after: BigInt(query.after ?? "0"),
    before: query.before ? BigInt(query.before) : undefined,
    limit: query.limit,
  });
  const permissions: bigint[] = [];
  for (const guild of rows)
    permissions.push(await basePermissions(guild, userId, await memberRoleIds(guild.id, userId)));
  return rows.map((guild, i) => ({
    id: String(guild.id),
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner,
    owner: guild.owner_id === userId,
    permissions: String(permissions[i]),
    features: JSON.parse(guild.features) as string[],
    ...(query.with_counts
      ? {
          approximate_member_count: Number(guild.member_count),
          approximate_presence_count: Number(guild.presence_count),
        }
      : {}),
  }));
}

/** PrivateGuildMemberResponse: the member plus its permissions. Not a member reads as Unknown Guild (nothing leaks). */
export async function getCurrentUserGuildMember(userId: bigint, guildId: bigint) {
  const guild = await findGuild(guildId);
  const member = guild ? await findMember(guildId, userId) : undefined;
  if (!guild || !member) throw Errors.unknownGuild();
  const user = await findUser(userId);
  if (!user) throw Errors.unknownUser();
  const roleIds = await memberRoleIds(guildId, userId);
  return {
    ...serializeMember(member, user, roleIds),
    permissions: String(await basePermissions(guild, userId, roleIds)),
  };
}
