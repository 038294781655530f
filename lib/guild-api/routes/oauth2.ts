// OAuth2 provider: token, revoke, @me.
import type { RouteDefinition } from "../http";

export const oauth2Routes: RouteDefinition[] = [];
