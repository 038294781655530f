// members, search, add, modify, roles, kick.
import type { RouteDefinition } from "../http";

export const memberRoutes: RouteDefinition[] = [];
