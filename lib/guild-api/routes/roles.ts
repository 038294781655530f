// Roles: Get Guild Roles, Get Guild Role, Get Guild Role Member Counts, Create Guild Role,
// Modify Guild Role Positions, Modify Guild Role, Delete Guild Role.
import { noContent, ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { guildAccess, snowflakeParam } from "../guards";
import {
  CreateGuildRoleBodySchema,
  ModifyGuildRoleBodySchema,
  ModifyGuildRolePositionsBodySchema,
} from "../schemas/roles";
import {
  createGuildRole,
  deleteGuildRole,
  getGuildRole,
  getGuildRoleMemberCounts,
  getGuildRoles,
  modifyGuildRole,
  modifyGuildRolePositions,
} from "../services/roles";

export const roleRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/roles: Get Guild Roles
  route("GET", "/guilds/:guildId/roles", "Get Guild Roles", async (ctx) => ok(getGuildRoles(await guildAccess(ctx)))),

  // GET /guilds/{guild.id}/roles/member-counts: Get Guild Role Member Counts
  route("GET", "/guilds/:guildId/roles/member-counts", "Get Guild Role Member Counts", async (ctx) =>
    ok(await getGuildRoleMemberCounts(await guildAccess(ctx))),
  ),

  // GET /guilds/{guild.id}/roles/{role.id}: Get Guild Role
  route("GET", "/guilds/:guildId/roles/:roleId", "Get Guild Role", async (ctx) =>
    ok(getGuildRole(await guildAccess(ctx), snowflakeParam(ctx, "roleId"))),
  ),

  // POST /guilds/{guild.id}/roles: Create Guild Role (200, as Discord's OpenAPI declares)
  route(
    "POST",
    "/guilds/:guildId/roles",
    "Create Guild Role",
    async (ctx) => {
      const access = await guildAccess(ctx);
      return ok(await createGuildRole(access, ctx.json(CreateGuildRoleBodySchema), ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.images },
  ),

  // PATCH /guilds/{guild.id}/roles: Modify Guild Role Positions
  route("PATCH", "/guilds/:guildId/roles", "Modify Guild Role Positions", async (ctx) => {
    const access = await guildAccess(ctx);
    return ok(
      await modifyGuildRolePositions(access, ctx.json(ModifyGuildRolePositionsBodySchema, null), ctx.auditReason),
    );
  }),

  // PATCH /guilds/{guild.id}/roles/{role.id}: Modify Guild Role
  route(
    "PATCH",
    "/guilds/:guildId/roles/:roleId",
    "Modify Guild Role",
    async (ctx) => {
      const access = await guildAccess(ctx);
      const roleId = snowflakeParam(ctx, "roleId");
      return ok(await modifyGuildRole(access, roleId, ctx.json(ModifyGuildRoleBodySchema), ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.images },
  ),

  // DELETE /guilds/{guild.id}/roles/{role.id}: Delete Guild Role
  route("DELETE", "/guilds/:guildId/roles/:roleId", "Delete Guild Role", async (ctx) => {
    await deleteGuildRole(await guildAccess(ctx), snowflakeParam(ctx, "roleId"), ctx.auditReason);
    return noContent();
  }),
];
