// invites and target users.
import type { RouteDefinition } from "../http";

export const inviteRoutes: RouteDefinition[] = [];
