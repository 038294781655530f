// Bans: Get Guild Bans, Get Guild Ban, Create Guild Ban, Remove Guild Ban, Bulk Guild Ban.
import { noContent, ok, route, type RouteDefinition } from "../http";
import { guildAccess, snowflakeParam } from "../guards";
import { BulkGuildBanBodySchema, CreateGuildBanBodySchema, GetGuildBansQuerySchema } from "../schemas/bans";
import { bulkGuildBan, createGuildBan, getGuildBan, getGuildBansJson, removeGuildBan } from "../services/bans";

export const banRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/bans: Get Guild Bans (hot path: the page's JSON bytes, from the read cache)
  route("GET", "/guilds/:guildId/bans", "Get Guild Bans", async (ctx) => ({
    status: 200,
    body: await getGuildBansJson(await guildAccess(ctx), ctx.queryAs(GetGuildBansQuerySchema)),
    contentType: "application/json",
  })),

  // GET /guilds/{guild.id}/bans/{user.id}: Get Guild Ban
  route("GET", "/guilds/:guildId/bans/:userId", "Get Guild Ban", async (ctx) =>
    ok(await getGuildBan(await guildAccess(ctx), snowflakeParam(ctx, "userId"))),
  ),

  // PUT /guilds/{guild.id}/bans/{user.id}: Create Guild Ban
  route("PUT", "/guilds/:guildId/bans/:userId", "Create Guild Ban", async (ctx) => {
    const access = await guildAccess(ctx);
    const userId = snowflakeParam(ctx, "userId");
    ctx.json(CreateGuildBanBodySchema);
    await createGuildBan(access, userId, ctx.auditReason);
    return noContent();
  }),

  // DELETE /guilds/{guild.id}/bans/{user.id}: Remove Guild Ban
  route("DELETE", "/guilds/:guildId/bans/:userId", "Remove Guild Ban", async (ctx) => {
    await removeGuildBan(await guildAccess(ctx), snowflakeParam(ctx, "userId"), ctx.auditReason);
    return noContent();
  }),

  // POST /guilds/{guild.id}/bulk-ban: Bulk Guild Ban
  route("POST", "/guilds/:guildId/bulk-ban", "Bulk Guild Ban", async (ctx) => {
    const access = await guildAccess(ctx);
    const body = ctx.json(BulkGuildBanBodySchema);
    return ok(await bulkGuildBan(access, body.user_ids, ctx.auditReason));
  }),
];
