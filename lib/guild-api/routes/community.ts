// welcome screen, onboarding, incident actions, membership screening.
import type { RouteDefinition } from "../http";

export const communityRoutes: RouteDefinition[] = [];
