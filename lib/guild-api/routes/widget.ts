// The guild widget: Get Guild Widget Settings, Modify Guild Widget, Get Guild Widget (widget.json), Get Guild Widget Image.
import { z } from "zod";
import { ok, route, type RouteDefinition } from "../http";
import { authorizedGuildAccess, guildAccess, snowflakeParam } from "../guards";
import { ModifyGuildWidgetBodySchema } from "../schemas/community";
import { getGuildWidget, getGuildWidgetImage, getGuildWidgetSettings, modifyGuildWidget } from "../services/widget";
import { WIDGET_IMAGE_STYLES } from "../widget-image";

const WidgetImageQuerySchema = z.object({ style: z.enum(WIDGET_IMAGE_STYLES).default("shield") });

export const widgetRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/widget: Get Guild Widget Settings
  route("GET", "/guilds/:guildId/widget", "Get Guild Widget Settings", async (ctx) =>
    ok(getGuildWidgetSettings(await guildAccess(ctx))),
  ),

  // PATCH /guilds/{guild.id}/widget: Modify Guild Widget
  route("PATCH", "/guilds/:guildId/widget", "Modify Guild Widget", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Modify Guild Widget");
    return ok(await modifyGuildWidget(access, ctx.json(ModifyGuildWidgetBodySchema), ctx.auditReason));
  }),

  // GET /guilds/{guild.id}/widget.json: Get Guild Widget (no authentication)
  route("GET", "/guilds/:guildId/widget.json", "Get Guild Widget", async (ctx) =>
    ok(await getGuildWidget(snowflakeParam(ctx, "guildId", "guild_id"), ctx.baseUrl)),
  ),

  // GET /guilds/{guild.id}/widget.png: Get Guild Widget Image (no authentication)
  route("GET", "/guilds/:guildId/widget.png", "Get Guild Widget Image", async (ctx) => {
    const guildId = snowflakeParam(ctx, "guildId", "guild_id");
    const { style } = ctx.queryAs(WidgetImageQuerySchema);
    const ifNoneMatch = ctx.req.headers["if-none-match"];
    const image = await getGuildWidgetImage(guildId, style, typeof ifNoneMatch === "string" ? ifNoneMatch : undefined);
    const headers = { "cache-control": "public, max-age=300", etag: image.etag };
    return image.status === 304
      ? { status: 304, headers }
      : { status: 200, body: image.body, contentType: "image/png", headers };
  }),
];
