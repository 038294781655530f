// bans and bulk ban.
import type { RouteDefinition } from "../http";

export const banRoutes: RouteDefinition[] = [];
