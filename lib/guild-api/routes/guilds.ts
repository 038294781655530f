// Guilds: Get Guild, Get Guild Preview, and Guildhall's outbox reader.
import { z } from "zod";
import { ok, route, type RouteDefinition } from "../http";
import { guildAccess, Permission, snowflakeParam } from "../guards";
import { getGuild, getGuildPreview } from "../services/guilds";
import { listEvents } from "../events";

const booleanQuery = z.enum(["true", "false", "True", "False", "1", "0"]).optional().transform((v) => v === "true" || v === "True" || v === "1");
const GetGuildQuerySchema = z.object({ with_counts: booleanQuery });
const ListEventsQuerySchema = z.object({
  after: z.string().regex(/^\d{1,20}$/).default("0"),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const guildRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}: Get Guild
  route("GET", "/guilds/:guildId", "required", (ctx) => ok(getGuild(guildAccess(ctx), ctx.queryAs(GetGuildQuerySchema).with_counts))),

  // GET /guilds/{guild.id}/preview: Get Guild Preview
  route("GET", "/guilds/:guildId/preview", "required", (ctx) => ok(getGuildPreview(ctx.caller, snowflakeParam(ctx, "guildId")))),

  // GET /guilds/{guild.id}/events: Guildhall's extension, the outbox of gateway dispatches (MANAGE_GUILD)
  route("GET", "/guilds/:guildId/events", "required", (ctx) => {
    const access = guildAccess(ctx);
    access.require(Permission.ManageGuild);
    const query = ctx.queryAs(ListEventsQuerySchema);
    return ok(listEvents(access.guildId, BigInt(query.after), query.limit));
  }),
];
