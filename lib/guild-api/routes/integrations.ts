// Voice regions (general and per guild), integrations, and the vanity URL.
import { noContent, ok, route, type RouteDefinition } from "../http";
import { guildAccess, snowflakeParam } from "../guards";
import { VOICE_REGIONS } from "../voice-regions";
import {
  deleteGuildIntegration,
  getGuildIntegrations,
  getGuildVanityUrl,
  getGuildVoiceRegions,
} from "../services/integrations";

export const integrationRoutes: RouteDefinition[] = [
  // GET /voice/regions: List Voice Regions (never the VIP ones, which only a VIP guild's list shows)
  route("GET", "/voice/regions", "List Voice Regions", () => ok(VOICE_REGIONS)),

  // GET /guilds/{guild.id}/regions: Get Guild Voice Regions
  route("GET", "/guilds/:guildId/regions", "Get Guild Voice Regions", async (ctx) =>
    ok(getGuildVoiceRegions(await guildAccess(ctx))),
  ),

  // GET /guilds/{guild.id}/integrations: Get Guild Integrations
  route("GET", "/guilds/:guildId/integrations", "Get Guild Integrations", async (ctx) =>
    ok(await getGuildIntegrations(await guildAccess(ctx))),
  ),

  // DELETE /guilds/{guild.id}/integrations/{integration.id}: Delete Guild Integration
  route("DELETE", "/guilds/:guildId/integrations/:integrationId", "Delete Guild Integration", async (ctx) => {
    await deleteGuildIntegration(await guildAccess(ctx), snowflakeParam(ctx, "integrationId"), ctx.auditReason);
    return noContent();
  }),

  // GET /guilds/{guild.id}/vanity-url: Get Guild Vanity URL
  route("GET", "/guilds/:guildId/vanity-url", "Get Guild Vanity URL", async (ctx) =>
    ok(getGuildVanityUrl(await guildAccess(ctx))),
  ),
];
