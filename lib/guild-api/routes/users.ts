// /users routes: the caller's own user and guilds.
import { z } from "zod";
import { computeBasePermissions } from "@/lib/discord/permissions";
import { USER_GUILDS_LIMIT } from "@/lib/discord/limits";
import { SNOWFLAKE_PATTERN } from "@/lib/discord/snowflake";
import { Errors } from "../errors";
import { ok, route, type RouteContext } from "../http";
import { sql } from "../store/db";
import { listGuildRoles, memberRoleIds, type GuildRow } from "../store/guild-context";
import { serializeCurrentUser, USER_COLUMNS, type UserRow } from "../serializers/user";

/** Bearer tokens need `scope`; bot tokens are not scoped. */
export function requireScope(ctx: RouteContext, scope: string): void {
  const caller = ctx.caller;
  if (caller.kind === "bearer" && !caller.scopes.has(scope)) throw Errors.missingScope();
}

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, { message: "Value is not snowflake." });

export const CurrentUserGuildsQuerySchema = z.object({
  before: snowflake.optional(),
  after: snowflake.optional(),
  limit: z.coerce.number().int().min(USER_GUILDS_LIMIT.min).max(USER_GUILDS_LIMIT.max).default(USER_GUILDS_LIMIT.default),
  with_counts: z.enum(["true", "false", "True", "False", "1", "0"]).optional().transform((v) => v === "true" || v === "True" || v === "1"),
});

export const userRoutes = [
  // GET /users/@me: Get Current User (OAuth2 scope identify)
  route("GET", "/users/@me", "required", (ctx) => {
    requireScope(ctx, "identify");
    const row = sql(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(ctx.caller.userId) as UserRow | undefined;
    if (!row) throw Errors.unknownUser();
    return ok(serializeCurrentUser(row));
  }),

  // GET /users/@me/guilds: Get Current User Guilds (OAuth2 scope guilds)
  route("GET", "/users/@me/guilds", "required", (ctx) => {
    requireScope(ctx, "guilds");
    const query = ctx.queryAs(CurrentUserGuildsQuerySchema);
    const userId = ctx.caller.userId;
    // Discord pages by guild id; `before` takes the guilds just below it, still answered ascending.
    const rows = (
      query.before
        ? sql("SELECT g.* FROM members m JOIN guilds g ON g.id = m.guild_id WHERE m.user_id = ? AND g.id < ? ORDER BY g.id DESC LIMIT ?").all(userId, BigInt(query.before), query.limit).reverse()
        : sql("SELECT g.* FROM members m JOIN guilds g ON g.id = m.guild_id WHERE m.user_id = ? AND g.id > ? ORDER BY g.id LIMIT ?").all(userId, BigInt(query.after ?? "0"), query.limit)
    ) as GuildRow[];
    const presence = sql("SELECT COUNT(*) AS n FROM members WHERE guild_id = ? AND status != 'offline'");
    return ok(
      rows.map((guild) => {
        const roles = listGuildRoles(guild.id);
        const context = { guildId: String(guild.id), ownerId: String(guild.owner_id), roles: roles.map((r) => ({ id: String(r.id), position: Number(r.position), permissions: r.permissions })) };
        const member = { userId: String(userId), roleIds: memberRoleIds(guild.id, userId).map(String) };
        return {
          id: String(guild.id),
          name: guild.name,
          icon: guild.icon,
          banner: guild.banner,
          owner: guild.owner_id === userId,
          // The user's base permissions, without overwrites and without the timeout's implicit loss.
          permissions: String(computeBasePermissions(context, member)),
          features: JSON.parse(guild.features) as string[],
          ...(query.with_counts
            ? { approximate_member_count: Number(guild.member_count), approximate_presence_count: Number((presence.get(guild.id) as { n: bigint }).n) }
            : {}),
        };
      }),
    );
  }),
];
