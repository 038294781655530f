// Get/Modify Guild, preview, audit log, events.
import type { RouteDefinition } from "../http";

export const guildRoutes: RouteDefinition[] = [];
