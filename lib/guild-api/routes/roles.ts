// Roles: Get Guild Roles, Get Guild Role, Get Guild Role Member Counts.
import { Errors } from "../errors";
import { ok, route, type RouteDefinition } from "../http";
import { guildAccess, snowflakeParam } from "../guards";
import { sql } from "../store/db";
import { serializeRole } from "../serializers/role";

export const roleRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/roles: Get Guild Roles
  route("GET", "/guilds/:guildId/roles", "required", (ctx) => ok(guildAccess(ctx).roles.map(serializeRole))),

  // GET /guilds/{guild.id}/roles/member-counts: Get Guild Role Member Counts (no @everyone)
  route("GET", "/guilds/:guildId/roles/member-counts", "required", (ctx) => {
    const access = guildAccess(ctx);
    const counts = new Map((sql("SELECT role_id, COUNT(*) AS n FROM member_roles WHERE guild_id = ? GROUP BY role_id").all(access.guildId) as Array<{ role_id: bigint; n: bigint }>).map((r) => [r.role_id, Number(r.n)]));
    return ok(Object.fromEntries(access.roles.filter((role) => role.id !== access.guildId).map((role) => [String(role.id), counts.get(role.id) ?? 0])));
  }),

  // GET /guilds/{guild.id}/roles/{role.id}: Get Guild Role
  route("GET", "/guilds/:guildId/roles/:roleId", "required", (ctx) => {
    const access = guildAccess(ctx);
    const role = access.role(snowflakeParam(ctx, "roleId"));
    if (!role) throw Errors.unknownRole();
    return ok(serializeRole(role));
  }),
];
