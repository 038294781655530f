// prune count and begin prune.
import type { RouteDefinition } from "../http";

export const pruneRoutes: RouteDefinition[] = [];
