// Every route of the built-in guild API, mounted under /api/v10 (and /api/oauth2 for the OAuth2 endpoints).
import { Router, type RouteDefinition } from "../http";
import { apiPolicyOf, discordStrict } from "../strict";
import { userRoutes } from "./users";
import { oauth2Routes } from "./oauth2";
import { guildRoutes } from "./guilds";
import { channelRoutes } from "./channels";
import { roleRoutes } from "./roles";
import { memberRoutes } from "./members";
import { banRoutes } from "./bans";
import { pruneRoutes } from "./prune";
import { integrationRoutes } from "./integrations";
import { inviteRoutes } from "./invites";
import { widgetRoutes } from "./widget";
import { communityRoutes } from "./community";
import { applicationRoutes } from "./applications";
import { gatewayRoutes } from "./gateway";
import { autoModerationRoutes } from "./auto-moderation";
import { expressionRoutes } from "./expressions";
import { scheduledEventRoutes } from "./scheduled-events";

export const apiRoutes: RouteDefinition[] = [
  ...userRoutes,
  ...oauth2Routes,
  ...guildRoutes,
  ...channelRoutes,
  ...roleRoutes,
  ...memberRoutes,
  ...banRoutes,
  ...pruneRoutes,
  ...integrationRoutes,
  ...inviteRoutes,
  ...widgetRoutes,
  ...communityRoutes,
  ...applicationRoutes,
  ...gatewayRoutes,
  ...autoModerationRoutes,
  ...expressionRoutes,
  ...scheduledEventRoutes,
];

/** The router; in strict mode (DISCORD_STRICT=1) without Guildhall's extension routes, which then answer 404. */
export function createApiRouter(routes: readonly RouteDefinition[] = apiRoutes): Router {
  return new Router(discordStrict() ? routes.filter((route) => apiPolicyOf(route.operation)) : routes);
}
