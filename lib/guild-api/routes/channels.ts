// guild channels, positions, active threads.
import type { RouteDefinition } from "../http";

export const channelRoutes: RouteDefinition[] = [];
