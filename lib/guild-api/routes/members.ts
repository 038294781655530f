// Members: Get/List/Search Guild Members (and Search Guild Members v2), Add Guild Member, Modify Guild Member, Modify Current Member,
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
} from "../schemas/members";
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
import { SearchGuildMembersV2BodySchema } from "../schemas/member-search";
import { searchGuildMembersV2Json } from "../services/member-search";

async function modifyCurrentMemberHandler(ctx: RouteContext): Promise<RouteResult> {
  const access = await guildAccess(ctx);
  return ok(await modifyCurrentMember(access, ctx.json(ModifyCurrentMemberBodySchema), ctx.auditReason));
}

async function modifyCurrentUserNickHandler(ctx: RouteContext): Promise<RouteResult> {
  const access = await guildAccess(ctx);
  const body = ctx.json(ModifyCurrentUserNickBodySchema);
  return ok(await modifyCurrentUserNick(access, body.nick, ctx.auditReason));
}

export const memberRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/members: List Guild Members (hot path: the page is JSON text straight from SQLite)
  route("GET", "/guilds/:guildId/members", "List Guild Members", async (ctx) => {
    const access = await guildAccess(ctx);
    return {
      status: 200,
      body: await listGuildMembersJson(access, ctx.queryAs(ListGuildMembersQuerySchema)),
      contentType: "application/json",
    };
  }),

  // GET /guilds/{guild.id}/members/search: Search Guild Members (JSON text from SQLite, like the list)
  route("GET", "/guilds/:guildId/members/search", "Search Guild Members", async (ctx) => {
    const access = await guildAccess(ctx);
    return {
      status: 200,
      body: await searchGuildMembersJson(access, ctx.queryAs(SearchGuildMembersQuerySchema)),
      contentType: "application/json",
    };
  }),

  // POST /guilds/{guild.id}/members-search: Search Guild Members v2 (a read: filters and sort in the body)
  route(
    "POST",
    "/guilds/:guildId/members-search",
    "Search Guild Members v2",
    async (ctx) => ({
      status: 200,
      body: await searchGuildMembersV2Json(await guildAccess(ctx), ctx.json(SearchGuildMembersV2BodySchema)),
      contentType: "application/json",
    }),
    { readOnly: true },
  ),

  // PATCH /guilds/{guild.id}/members/@me: Modify Current Member
  route("PATCH", "/guilds/:guildId/members/@me", "Modify Current Member", modifyCurrentMemberHandler, {
    bodyLimit: BODY_LIMITS.images,
  }),

  // PATCH /guilds/{guild.id}/members/@me/nick: Modify Current User Nick (deprecated)
  route("PATCH", "/guilds/:guildId/members/@me/nick", "Modify Current User Nick", modifyCurrentUserNickHandler),
  // The same with "@me" percent-encoded; any other user id has no such route.
  route("PATCH", "/guilds/:guildId/members/:userId/nick", "Modify Current User Nick", async (ctx) => {
    if (ctx.params.userId !== "@me") throw Errors.notFound();
    return await modifyCurrentUserNickHandler(ctx);
  }),

  // GET /guilds/{guild.id}/members/{user.id}: Get Guild Member
  route("GET", "/guilds/:guildId/members/:userId", "Get Guild Member", async (ctx) =>
    ok(await getGuildMember(await guildAccess(ctx), snowflakeParam(ctx, "userId"))),
  ),

  // PUT /guilds/{guild.id}/members/{user.id}: Add Guild Member (201 with the member, 204 when already a member)
  route("PUT", "/guilds/:guildId/members/:userId", "Add Guild Member", async (ctx) => {
    const access = await guildAccess(ctx);
    const userId = snowflakeParam(ctx, "userId");
    const member = await addGuildMember(access, userId, ctx.json(AddGuildMemberBodySchema));
    return member ? created(member) : noContent();
  }),

  // PATCH /guilds/{guild.id}/members/{user.id}: Modify Guild Member
  route("PATCH", "/guilds/:guildId/members/:userId", "Modify Guild Member", async (ctx) => {
    if (ctx.params.userId === "@me") return await modifyCurrentMemberHandler(ctx);
    const access = await guildAccess(ctx);
    const userId = snowflakeParam(ctx, "userId");
    return ok(await modifyGuildMember(access, userId, ctx.json(ModifyGuildMemberBodySchema), ctx.auditReason));
  }),

  // DELETE /guilds/{guild.id}/members/{user.id}: Remove Guild Member
  route("DELETE", "/guilds/:guildId/members/:userId", "Remove Guild Member", async (ctx) => {
    await removeGuildMember(await guildAccess(ctx), snowflakeParam(ctx, "userId"), ctx.auditReason);
    return noContent();
  }),

  // PUT /guilds/{guild.id}/members/{user.id}/roles/{role.id}: Add Guild Member Role
  route("PUT", "/guilds/:guildId/members/:userId/roles/:roleId", "Add Guild Member Role", async (ctx) => {
    await setGuildMemberRole(
      await guildAccess(ctx),
      snowflakeParam(ctx, "userId"),
      snowflakeParam(ctx, "roleId"),
      true,
      ctx.auditReason,
    );
    return noContent();
  }),

  // DELETE /guilds/{guild.id}/members/{user.id}/roles/{role.id}: Remove Guild Member Role
  route("DELETE", "/guilds/:guildId/members/:userId/roles/:roleId", "Remove Guild Member Role", async (ctx) => {
    await setGuildMemberRole(
      await guildAccess(ctx),
      snowflakeParam(ctx, "userId"),
      snowflakeParam(ctx, "roleId"),
      false,
      ctx.auditReason,
    );
    return noContent();
  }),
];
