// integrations, voice regions, vanity URL.
import type { RouteDefinition } from "../http";

export const integrationRoutes: RouteDefinition[] = [];
