// Guilds: Get Guild, Get Guild Preview, Modify Guild, Get Guild Audit Log, and Guildhall's outbox reader.
import { ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { authorizedGuildAccess, guildAccess, snowflakeParam } from "../guards";
import {
  getGuild,
  getGuildAuditLog,
  getGuildJson,
  getGuildPreview,
  listGuildEvents,
  modifyGuild,
} from "../services/guilds";
import {
  GetGuildQuerySchema,
  GuildAuditLogQuerySchema,
  ListGuildEventsQuerySchema,
  ModifyGuildBodySchema,
} from "../schemas/guilds";

export const guildRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}: Get Guild
  route("GET", "/guilds/:guildId", "Get Guild", async (ctx) => {
    const access = await guildAccess(ctx);
    // Hot path: most calls carry no query string, so skip parsing one, and answer the guild's cached JSON text.
    if (ctx.query.size > 0 && ctx.queryAs(GetGuildQuerySchema).with_counts) return ok(await getGuild(access, true));
    return { status: 200, body: await getGuildJson(access), contentType: "application/json" };
  }),

  // GET /guilds/{guild.id}/preview: Get Guild Preview
  route("GET", "/guilds/:guildId/preview", "Get Guild Preview", async (ctx) =>
    ok(await getGuildPreview(ctx.caller, snowflakeParam(ctx, "guildId", "guild_id"))),
  ),

  // PATCH /guilds/{guild.id}: Modify Guild
  route(
    "PATCH",
    "/guilds/:guildId",
    "Modify Guild",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Modify Guild");
      const body = ctx.json(ModifyGuildBodySchema);
      return ok(await modifyGuild(access, body, ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.images },
  ),

  // GET /guilds/{guild.id}/audit-logs: Get Guild Audit Log
  route("GET", "/guilds/:guildId/audit-logs", "Get Guild Audit Log", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Get Guild Audit Log");
    return ok(await getGuildAuditLog(access, ctx.queryAs(GuildAuditLogQuerySchema)));
  }),

  // GET /guilds/{guild.id}/events: Guildhall's extension, the outbox of gateway dispatches (MANAGE_GUILD)
  route("GET", "/guilds/:guildId/events", "List Guild Events", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "List Guild Events");
    const query = ctx.queryAs(ListGuildEventsQuerySchema);
    return ok(await listGuildEvents(access, BigInt(query.after), query.limit));
  }),
];
