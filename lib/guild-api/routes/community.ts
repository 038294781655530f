// Welcome screen, onboarding, incident actions, membership screening.
import { ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { authorizedGuildAccess, guildAccess } from "../guards";
import {
  ModifyGuildIncidentActionsBodySchema,
  ModifyGuildOnboardingBodySchema,
  ModifyGuildWelcomeScreenBodySchema,
} from "../schemas/community";
import { modifyGuildIncidentActions } from "../services/incident-actions";
import { getGuildOnboarding, modifyGuildOnboarding } from "../services/onboarding";
import { completeMembershipScreening } from "../services/screening";
import { getGuildWelcomeScreen, modifyGuildWelcomeScreen } from "../services/welcome-screen";

export const communityRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/welcome-screen: Get Guild Welcome Screen
  route("GET", "/guilds/:guildId/welcome-screen", "Get Guild Welcome Screen", async (ctx) =>
    ok(getGuildWelcomeScreen(await guildAccess(ctx))),
  ),

  // PATCH /guilds/{guild.id}/welcome-screen: Modify Guild Welcome Screen
  route("PATCH", "/guilds/:guildId/welcome-screen", "Modify Guild Welcome Screen", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Modify Guild Welcome Screen");
    return ok(await modifyGuildWelcomeScreen(access, ctx.json(ModifyGuildWelcomeScreenBodySchema), ctx.auditReason));
  }),

  // GET /guilds/{guild.id}/onboarding: Get Guild Onboarding
  route("GET", "/guilds/:guildId/onboarding", "Get Guild Onboarding", async (ctx) =>
    ok(await getGuildOnboarding(await guildAccess(ctx))),
  ),

  // PUT /guilds/{guild.id}/onboarding: Modify Guild Onboarding
  route(
    "PUT",
    "/guilds/:guildId/onboarding",
    "Modify Guild Onboarding",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Modify Guild Onboarding");
      return ok(await modifyGuildOnboarding(access, ctx.json(ModifyGuildOnboardingBodySchema), ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.document },
  ),

  // PUT /guilds/{guild.id}/incident-actions: Modify Guild Incident Actions
  route("PUT", "/guilds/:guildId/incident-actions", "Modify Guild Incident Actions", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Modify Guild Incident Actions");
    return ok(await modifyGuildIncidentActions(access, ctx.json(ModifyGuildIncidentActionsBodySchema)));
  }),

  // PUT /guilds/{guild.id}/requests/@me: complete membership screening (Guildhall's form of Discord's member request)
  route("PUT", "/guilds/:guildId/requests/@me", "Complete Membership Screening", async (ctx) =>
    ok(await completeMembershipScreening(await guildAccess(ctx))),
  ),
];
