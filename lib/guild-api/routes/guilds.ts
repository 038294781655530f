// Guilds: Get Guild, Get Guild Preview, Modify Guild, Get Guild Audit Log, and Guildhall's outbox reader.
import { ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { chain } from "../maybe-promise";
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
  // Hot path: most calls carry no query string, so skip parsing one, and answer the guild's cached JSON text, without a
  // promise when the rows are cached (maybe-promise.ts).
  route("GET", "/guilds/:guildId", "Get Guild", (ctx) =>
    chain(guildAccess(ctx), (access) => {
      if (ctx.query.size > 0 && ctx.queryAs(GetGuildQuerySchema).with_counts) return getGuild(access, true).then(ok);
      return chain(getGuildJson(access), (body) => ({ status: 200, body, contentType: "application/json" }));
    }),
  ),

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
