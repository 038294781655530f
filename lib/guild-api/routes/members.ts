// Members: Get/List/Search Guild Members, Add Guild Member, Modify Guild Member, Modify Current Member,
// Modify Current User Nick, Add/Remove Guild Member Role, Remove Guild Member.
// `/members/search` and `/members/@me` are static segments, which the router prefers over `/members/:userId`.
// discord-api-types' Routes.guildMember(id, "@me") percent-encodes it ("%40me"), which reaches the :userId routes
// decoded as "@me": those routes hand it to the @me operations.
import { Errors } from "../errors";
import { created, noContent, ok, route, type RouteContext, type RouteDefinition, type RouteResult } from "../http";
import { BODY_LIMITS } from "../request-body";
import { guildAccess, snowflakeParam } from "../guards";
import {
  AddGuildMemberBodySchema,
  ListGuildMembersQuerySchema,
  ModifyCurrentMemberBodySchema,
  ModifyCurrentUserNickBodySchema,
  ModifyGuildMemberBodySchema,
  SearchGuildMembersQuerySchema,
} from "../schemas/member";
import {
  addGuildMember,
  getGuildMember,
  listGuildMembersJson,
  modifyCurrentMember,
  modifyCurrentUserNick,
  modifyGuildMember,
  removeGuildMember,
  searchGuildMembersJson,
  setGuildMemberRole,
} from "../services/members";

async function modifyCurrentMemberHandler(ctx: RouteContext): Promise<RouteResult> {
  const access = guildAccess(ctx);
  return ok(modifyCurrentMember(access, await ctx.json(ModifyCurrentMemberBodySchema), ctx.auditReason));
}

async function modifyCurrentUserNickHandler(ctx: RouteContext): Promise<RouteResult> {
  const access = guildAccess(ctx);
  const body = await ctx.json(ModifyCurrentUserNickBodySchema);
  return ok(modifyCurrentUserNick(access, body.nick, ctx.auditReason));
}

export const memberRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/members: List Guild Members (hot path: the page is JSON text straight from SQLite)
  route("GET", "/guilds/:guildId/members", "required", (ctx) => {
    const access = guildAccess(ctx);
    return {
      status: 200,
      body: listGuildMembersJson(access, ctx.queryAs(ListGuildMembersQuerySchema)),
      contentType: "application/json",
    };
  }),

  // GET /guilds/{guild.id}/members/search: Search Guild Members (JSON text from SQLite, like the list)
  route("GET", "/guilds/:guildId/members/search", "required", (ctx) => {
    const access = guildAccess(ctx);
    return {
      status: 200,
      body: searchGuildMembersJson(access, ctx.queryAs(SearchGuildMembersQuerySchema)),
      contentType: "application/json",
    };
  }),

  // PATCH /guilds/{guild.id}/members/@me: Modify Current Member
  route("PATCH", "/guilds/:guildId/members/@me", "required", modifyCurrentMemberHandler, {
    bodyLimit: BODY_LIMITS.images,
  }),

  // PATCH /guilds/{guild.id}/members/@me/nick: Modify Current User Nick (deprecated)
  route("PATCH", "/guilds/:guildId/members/@me/nick", "required", modifyCurrentUserNickHandler),
  // The same with "@me" percent-encoded; any other user id has no such route.
  route("PATCH", "/guilds/:guildId/members/:userId/nick", "required", (ctx) => {
    if (ctx.params.userId !== "@me") throw Errors.notFound();
    return modifyCurrentUserNickHandler(ctx);
  }),

  // GET /guilds/{guild.id}/members/{user.id}: Get Guild Member
  route("GET", "/guilds/:guildId/members/:userId", "required", (ctx) =>
    ok(getGuildMember(guildAccess(ctx), snowflakeParam(ctx, "userId"))),
  ),

  // PUT /guilds/{guild.id}/members/{user.id}: Add Guild Member (201 with the member, 204 when already a member)
  route("PUT", "/guilds/:guildId/members/:userId", "required", async (ctx) => {
    const access = guildAccess(ctx);
    const userId = snowflakeParam(ctx, "userId");
    const member = addGuildMember(access, userId, await ctx.json(AddGuildMemberBodySchema));
    return member ? created(member) : noContent();
  }),

  // PATCH /guilds/{guild.id}/members/{user.id}: Modify Guild Member
  route("PATCH", "/guilds/:guildId/members/:userId", "required", async (ctx) => {
    if (ctx.params.userId === "@me") return modifyCurrentMemberHandler(ctx);
    const access = guildAccess(ctx);
    const userId = snowflakeParam(ctx, "userId");
    return ok(modifyGuildMember(access, userId, await ctx.json(ModifyGuildMemberBodySchema), ctx.auditReason));
  }),

  // DELETE /guilds/{guild.id}/members/{user.id}: Remove Guild Member
  route("DELETE", "/guilds/:guildId/members/:userId", "required", (ctx) => {
    removeGuildMember(guildAccess(ctx), snowflakeParam(ctx, "userId"), ctx.auditReason);
    return noContent();
  }),

  // PUT /guilds/{guild.id}/members/{user.id}/roles/{role.id}: Add Guild Member Role
  route("PUT", "/guilds/:guildId/members/:userId/roles/:roleId", "required", (ctx) => {
    setGuildMemberRole(
      guildAccess(ctx),
      snowflakeParam(ctx, "userId"),
      snowflakeParam(ctx, "roleId"),
      true,
      ctx.auditReason,
    );
    return noContent();
  }),

  // DELETE /guilds/{guild.id}/members/{user.id}/roles/{role.id}: Remove Guild Member Role
  route("DELETE", "/guilds/:guildId/members/:userId/roles/:roleId", "required", (ctx) => {
    setGuildMemberRole(
      guildAccess(ctx),
      snowflakeParam(ctx, "userId"),
      snowflakeParam(ctx, "roleId"),
      false,
      ctx.auditReason,
    );
    return noContent();
  }),
];
