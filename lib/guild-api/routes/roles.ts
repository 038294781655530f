// roles, positions, member counts.
import type { RouteDefinition } from "../http";

export const roleRoutes: RouteDefinition[] = [];
